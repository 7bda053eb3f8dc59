package dev.opcua.stack.core.types.builtin;

import java.util.Objects;

/**
 * Human-readable text with an optional locale (Part 3, 8.5). Encoded with a mask byte saying which
 * of locale (0x01) and text (0x02) follow (Part 6, 5.2.2.14); a null part is simply left out.
 */
public final class LocalizedText {

    public static final LocalizedText NULL = new LocalizedText(null, null);

    private final String locale;
    private final String text;

    private LocalizedText(String locale, String text) {
        this.locale = locale;
        this.text = text;
    }

    public static LocalizedText of(String locale, String text) {
        return locale == null && text == null ? NULL : new LocalizedText(locale, text);
    }

    /** Text without a locale. */
    public static LocalizedText of(String text) {
        return of(null, text);
    }

    /** Locale id such as {@code en-US}, or null. */
    public String locale() {
        return locale;
    }

    /** The text, or null. */
    public String text() {
        return text;
    }

    public boolean isNull() {
        return locale == null && text == null;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LocalizedText && Objects.equals(((LocalizedText) o).locale, locale)
                && Objects.equals(((LocalizedText) o).text, text);
    }

    @Override
    public int hashCode() {
        return Objects.hash(locale, text);
    }

    @Override
    public String toString() {
        return locale == null ? String.valueOf(text) : "[" + locale + "] " + text;
    }
}
