package dev.opcua.stack.core.types.builtin;

import java.util.Objects;

/**
 * Vendor diagnostics for an operation (Part 4, 7.12), encoded with a mask of the fields present
 * (Part 6, 5.2.2.12). Indexes into the response's string table are -1 when absent; the inner status
 * and inner diagnostics are null when absent. The inner chain is bounded by the decoder's nesting limit.
 */
public final class DiagnosticInfo {

    public static final DiagnosticInfo NULL = new DiagnosticInfo(-1, -1, -1, -1, null, null, null);

    private final int symbolicId;
    private final int namespaceUri;
    private final int locale;
    private final int localizedText;
    private final String additionalInfo;
    private final StatusCode innerStatusCode;
    private final DiagnosticInfo innerDiagnosticInfo;

    private DiagnosticInfo(int symbolicId, int namespaceUri, int locale, int localizedText, String additionalInfo,
            StatusCode innerStatusCode, DiagnosticInfo innerDiagnosticInfo) {
        this.symbolicId = symbolicId;
        this.namespaceUri = namespaceUri;
        this.locale = locale;
        this.localizedText = localizedText;
        this.additionalInfo = additionalInfo;
        this.innerStatusCode = innerStatusCode;
        this.innerDiagnosticInfo = innerDiagnosticInfo;
    }

    /** A DiagnosticInfo; pass -1 or null for the fields that are absent. */
    public static DiagnosticInfo of(int symbolicId, int namespaceUri, int locale, int localizedText,
            String additionalInfo, StatusCode innerStatusCode, DiagnosticInfo innerDiagnosticInfo) {
        if (symbolicId == -1 && namespaceUri == -1 && locale == -1 && localizedText == -1 && additionalInfo == null
                && innerStatusCode == null && innerDiagnosticInfo == null) {
            return NULL;
        }
        return new DiagnosticInfo(symbolicId, namespaceUri, locale, localizedText, additionalInfo, innerStatusCode,
                innerDiagnosticInfo);
    }

    public int symbolicId() {
        return symbolicId;
    }

    public int namespaceUri() {
        return namespaceUri;
    }

    public int locale() {
        return locale;
    }

    public int localizedText() {
        return localizedText;
    }

    public String additionalInfo() {
        return additionalInfo;
    }

    public StatusCode innerStatusCode() {
        return innerStatusCode;
    }

    public DiagnosticInfo innerDiagnosticInfo() {
        return innerDiagnosticInfo;
    }

    public boolean isNull() {
        return this == NULL || equals(NULL);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof DiagnosticInfo)) {
            return false;
        }
        DiagnosticInfo other = (DiagnosticInfo) o;
        return symbolicId == other.symbolicId && namespaceUri == other.namespaceUri && locale == other.locale
                && localizedText == other.localizedText && Objects.equals(additionalInfo, other.additionalInfo)
                && Objects.equals(innerStatusCode, other.innerStatusCode)
                && Objects.equals(innerDiagnosticInfo, other.innerDiagnosticInfo);
    }

    @Override
    public int hashCode() {
        return Objects.hash(symbolicId, namespaceUri, locale, localizedText, additionalInfo, innerStatusCode,
                innerDiagnosticInfo);
    }

    @Override
    public String toString() {
        return "DiagnosticInfo{symbolicId=" + symbolicId + ", namespaceUri=" + namespaceUri + ", locale=" + locale
                + ", localizedText=" + localizedText + ", additionalInfo=" + additionalInfo + ", innerStatus="
                + innerStatusCode + ", inner=" + innerDiagnosticInfo + "}";
    }
}
