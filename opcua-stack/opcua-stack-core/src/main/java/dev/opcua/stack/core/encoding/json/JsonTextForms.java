package dev.opcua.stack.core.encoding.json;

import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * The JSON string forms of UA JSON 1.05 that are text rather than JSON structure, both ways: NodeId,
 * ExpandedNodeId and QualifiedName in the string encoding of OPC 10000-6, 5.1.12 (used by 5.4.2.10, 5.4.2.11
 * and 5.4.2.14), DateTime (5.4.2.6), Guid (5.4.2.7) and Float/Double (5.4.2.4).
 *
 * <p>Namespaces: with a namespace table (index i is the URI of namespace i; index 0 is the OPC UA namespace),
 * a NodeId of namespace index &gt; 0 is written in the {@code nsu=<uri>;} form as 5.4.2.10 requires; an index
 * the table does not know (or no table) is written in the {@code ns=<index>;} form, the "abnormal state" that
 * 5.4.2.10 allows. When reading, a {@code nsu=} URI the table knows becomes its index; an unknown one gives,
 * as 5.4.2.10 says, a String NodeId of namespace 0 holding the whole text (the ExpandedNodeId keeps the URI).
 *
 * <p>Parsing failures are {@link IllegalArgumentException}s with a message naming the problem; the decoder
 * turns them into {@code BadDecodingError} with the field's path.
 */
final class JsonTextForms {

    static final String UA_NAMESPACE = "http://opcfoundation.org/UA/";
    static final String MIN_DATE_TIME = "0001-01-01T00:00:00Z";
    static final String MAX_DATE_TIME = "9999-12-31T23:59:59Z";
    private static final long EPOCH_OFFSET_TICKS = 116_444_736_000_000_000L;
    private static final long TICKS_PER_SECOND = 10_000_000L;
    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss", Locale.ROOT);
    /** Longer DateTime text cannot be a valid ISO 8601 instant: refused before any parsing. */
    private static final int MAX_DATE_TIME_TEXT = 64;

    private JsonTextForms() {
    }

    // ---- NodeId, ExpandedNodeId, QualifiedName (5.1.12) -----------------------------------------------------

    static String nodeId(NodeId id, List<String> namespaces) {
        String text = id.toString();
        int ns = id.namespaceIndex();
        if (ns == 0) {
            return text;
        }
        String uri = uri(ns, namespaces);
        return uri == null ? text : "nsu=" + escapeUri(uri) + ";" + text.substring(text.indexOf(';') + 1);
    }

    static NodeId parseNodeId(String text, List<String> namespaces) {
        if (text.startsWith("nsu=")) {
            int semicolon = text.indexOf(';', 4);
            if (semicolon < 0) {
                throw new IllegalArgumentException("'" + text + "' has no ';' after the namespace URI");
            }
            int index = indexOf(unescapeUri(text.substring(4, semicolon)), namespaces);
            if (index < 0) {
                return NodeId.string(0, text);
            }
            return NodeId.parse(text.substring(semicolon + 1)).withNamespaceIndex(index);
        }
        if (text.startsWith("svr=")) {
            throw new IllegalArgumentException("'" + text + "' names a server: a NodeId cannot, an ExpandedNodeId can");
        }
        return NodeId.parse(text);
    }

    static String expandedNodeId(ExpandedNodeId id, List<String> namespaces) {
        if (id.namespaceUri() != null) {
            return id.toString();
        }
        String nodeText = nodeId(id.nodeId(), namespaces);
        return id.serverIndex() == 0 ? nodeText : "svr=" + id.serverIndex() + ";" + nodeText;
    }

    static ExpandedNodeId parseExpandedNodeId(String text, List<String> namespaces) {
        ExpandedNodeId id = ExpandedNodeId.parse(text);
        String uri = id.namespaceUri();
        if (uri != null) {
            int index = indexOf(uri, namespaces);
            if (index >= 0) {
                return ExpandedNodeId.of(id.nodeId().withNamespaceIndex(index), null, id.serverIndex());
            }
        }
        return id;
    }

    /**
     * {@code name} in namespace 0, {@code nsu=<uri>;name} when the table knows the index, else
     * {@code <index>:name}. A namespace-0 name that itself starts with digits and a colon is written as
     * {@code 0:name}, the one way to keep it from being read as an index.
     */
    static String qualifiedName(QualifiedName qn, List<String> namespaces) {
        String name = qn.name() == null ? "" : qn.name();
        int ns = qn.namespaceIndex();
        if (ns == 0) {
            return indexPrefixLength(name) > 0 ? "0:" + name : name;
        }
        String uri = uri(ns, namespaces);
        return uri == null ? ns + ":" + name : "nsu=" + escapeUri(uri) + ";" + name;
    }

    static QualifiedName parseQualifiedName(String text, List<String> namespaces) {
        if (text.startsWith("nsu=")) {
            int semicolon = text.indexOf(';', 4);
            if (semicolon < 0) {
                throw new IllegalArgumentException("'" + text + "' has no ';' after the namespace URI");
            }
            int index = indexOf(unescapeUri(text.substring(4, semicolon)), namespaces);
            return index < 0 ? QualifiedName.of(0, text) : QualifiedName.of(index, text.substring(semicolon + 1));
        }
        int colon = indexPrefixLength(text);
        if (colon > 0) {
            int ns = Integer.parseInt(text.substring(0, colon));
            if (ns > 0xFFFF) {
                throw new IllegalArgumentException("'" + text + "' has namespace index " + ns + " above 65535");
            }
            return QualifiedName.of(ns, text.substring(colon + 1));
        }
        return QualifiedName.of(0, text);
    }

    /** The position of the ':' after 1 to 5 leading digits, or -1. */
    private static int indexPrefixLength(String text) {
        int i = 0;
        while (i < text.length() && i < 6 && text.charAt(i) >= '0' && text.charAt(i) <= '9') {
            i++;
        }
        return i > 0 && i <= 5 && i < text.length() && text.charAt(i) == ':' ? i : -1;
    }

    private static String uri(int index, List<String> namespaces) {
        return namespaces != null && index < namespaces.size() ? namespaces.get(index) : null;
    }

    private static int indexOf(String uri, List<String> namespaces) {
        if (namespaces == null || namespaces.isEmpty()) {
            return UA_NAMESPACE.equals(uri) ? 0 : -1;
        }
        return namespaces.indexOf(uri);
    }

    /** Part 6, 5.1.12 ENCODEDURI: ';' percent-encoded, and '%' so that the text reads back unchanged. */
    private static String escapeUri(String uri) {
        return uri.replace("%", "%25").replace(";", "%3B");
    }

    private static String unescapeUri(String uri) {
        return uri.replace("%3B", ";").replace("%3b", ";").replace("%25", "%");
    }

    // ---- DateTime (5.4.2.6) ---------------------------------------------------------------------------------

    /**
     * ISO 8601 in UTC with as many of the 7 fraction digits as are not zero (the full 100 ns resolution); the
     * minimum ("no time") and maximum as the fixed texts of 5.4.2.6.
     */
    static String dateTime(DateTime value) {
        long ticks = value == null ? 0 : value.utcTicks();
        if (ticks <= 0) {
            return MIN_DATE_TIME;
        }
        if (ticks == Long.MAX_VALUE) {
            return MAX_DATE_TIME;
        }
        long sinceEpoch = ticks - EPOCH_OFFSET_TICKS;
        long seconds = Math.floorDiv(sinceEpoch, TICKS_PER_SECOND);
        int fraction = (int) Math.floorMod(sinceEpoch, TICKS_PER_SECOND);
        StringBuilder sb = new StringBuilder(28);
        sb.append(SECONDS.format(LocalDateTime.ofEpochSecond(seconds, 0, ZoneOffset.UTC)));
        if (fraction != 0) {
            String digits = Integer.toString(fraction + (int) TICKS_PER_SECOND).substring(1);
            int end = digits.length();
            while (digits.charAt(end - 1) == '0') {
                end--;
            }
            sb.append('.').append(digits, 0, end);
        }
        return sb.append('Z').toString();
    }

    /**
     * Any ISO 8601 date-time with an offset; fraction digits beyond 100 ns are truncated, instants outside
     * the DateTime range become its minimum or maximum (5.4.2.6 and 5.1.4).
     */
    static DateTime parseDateTime(String text) {
        if (text.length() > MAX_DATE_TIME_TEXT) {
            throw new IllegalArgumentException("DateTime text of " + text.length() + " characters is not ISO 8601");
        }
        try {
            return DateTime.ofInstant(OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant());
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("'" + text + "' is not an ISO 8601 date-time with an offset");
        }
    }

    // ---- Guid (5.4.2.7, 5.1.3) -------------------------------------------------------------------------------

    static String guid(UUID value) {
        return value.toString().toUpperCase(Locale.ROOT);
    }

    /** Exactly 8-4-4-4-12 hex digits (either case): UUID.fromString alone accepts shorter groups. */
    static UUID parseGuid(String text) {
        if (text.length() != 36) {
            throw new IllegalArgumentException("'" + text + "' is not a Guid (8-4-4-4-12 hex digits)");
        }
        for (int i = 0; i < 36; i++) {
            char c = text.charAt(i);
            boolean hyphen = i == 8 || i == 13 || i == 18 || i == 23;
            if (hyphen ? c != '-' : Character.digit(c, 16) < 0) {
                throw new IllegalArgumentException("'" + text + "' is not a Guid (8-4-4-4-12 hex digits)");
            }
        }
        return UUID.fromString(text);
    }

    // ---- Float and Double (5.4.2.4) --------------------------------------------------------------------------

    /** Special values as the strings of 5.4.2.4; others as Java's text, which reads back to the same bits. */
    static String doubleText(double value) {
        if (Double.isNaN(value)) {
            return "NaN";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "Infinity" : "-Infinity";
        }
        return Double.toString(value);
    }

    static String floatText(float value) {
        if (Float.isNaN(value)) {
            return "NaN";
        }
        if (Float.isInfinite(value)) {
            return value > 0 ? "Infinity" : "-Infinity";
        }
        return Float.toString(value);
    }

    static boolean isSpecial(double value) {
        return Double.isNaN(value) || Double.isInfinite(value);
    }
}
