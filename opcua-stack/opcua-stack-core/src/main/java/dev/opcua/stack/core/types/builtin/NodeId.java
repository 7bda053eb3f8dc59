package dev.opcua.stack.core.types.builtin;

import java.util.Base64;
import java.util.Objects;
import java.util.UUID;

/**
 * Identifier of a node in a server's address space: a namespace index and a numeric, string, GUID or
 * opaque identifier (Part 3, 8.2; binary encodings Part 6, 5.2.2.9; text form Part 6, 5.3.1.10).
 *
 * <p>Numeric identifiers are UInt32 held in a long, namespace indexes UInt16 held in an int. NodeIds
 * of namespace 0 with numeric identifiers below 65536 are cached ({@link #ns0(int)}), so decoding the
 * standard ids allocates nothing.
 */
public final class NodeId {

    private static final int NS0_CACHE_SIZE = 1 << 16;
    private static final NodeId[] NS0_CACHE = new NodeId[NS0_CACHE_SIZE];

    /** The null NodeId: namespace 0, numeric 0. */
    public static final NodeId NULL = ns0(0);

    /** Stands for a null String identifier, so that {@code identifier == null} means numeric. */
    private static final Object NULL_STRING = new Object();

    // Three fields, 24 bytes per instance: the id type is derived from the identifier's class and
    // the UInt32 numeric id is kept in an int.
    private final int namespaceIndex;
    private final int numeric;
    /** String (or NULL_STRING), UUID or ByteString; null for numeric identifiers. */
    private final Object identifier;

    private NodeId(int namespaceIndex, long numeric, Object identifier) {
        this.namespaceIndex = namespaceIndex;
        this.numeric = (int) numeric;
        this.identifier = identifier;
    }

    /** Numeric NodeId in namespace 0, from the cache for ids below 65536. */
    public static NodeId ns0(int id) {
        if (id >= 0 && id < NS0_CACHE_SIZE) {
            NodeId cached = NS0_CACHE[id];
            if (cached == null) {
                // A benign race: NodeId is immutable with final fields, so any published copy is fine.
                cached = new NodeId(0, id, null);
                NS0_CACHE[id] = cached;
            }
            return cached;
        }
        return numeric(0, id & 0xFFFFFFFFL);
    }

    /** Numeric NodeId; {@code id} is a UInt32 (0 .. 2^32-1). */
    public static NodeId numeric(int namespaceIndex, long id) {
        checkNamespace(namespaceIndex);
        if (id < 0 || id > 0xFFFFFFFFL) {
            throw new IllegalArgumentException("numeric identifier " + id + " is outside UInt32 range");
        }
        if (namespaceIndex == 0 && id < NS0_CACHE_SIZE) {
            return ns0((int) id);
        }
        return new NodeId(namespaceIndex, id, null);
    }

    /** String NodeId; a null string is allowed and treated as the null identifier. */
    public static NodeId string(int namespaceIndex, String id) {
        checkNamespace(namespaceIndex);
        return new NodeId(namespaceIndex, 0, id == null ? NULL_STRING : id);
    }

    public static NodeId guid(int namespaceIndex, UUID id) {
        checkNamespace(namespaceIndex);
        return new NodeId(namespaceIndex, 0, Objects.requireNonNull(id, "guid identifier"));
    }

    public static NodeId opaque(int namespaceIndex, ByteString id) {
        checkNamespace(namespaceIndex);
        return new NodeId(namespaceIndex, 0, id == null ? ByteString.NULL : id);
    }

    private static void checkNamespace(int namespaceIndex) {
        if (namespaceIndex < 0 || namespaceIndex > 0xFFFF) {
            throw new IllegalArgumentException("namespace index " + namespaceIndex + " is outside UInt16 range");
        }
    }

    /**
     * Parses the text form {@code [ns=<index>;]<i|s|g|b>=<identifier>} (Part 6, 5.3.1.10), e.g.
     * {@code ns=2;s=Line1.Speed}, {@code i=2253}, {@code g=09087e75-8e5e-499b-954f-f2a9603db28a},
     * {@code b=M/RbKBsRVkePCePcx24oRA==}. Namespace URIs ({@code nsu=}) belong to {@link ExpandedNodeId#parse}.
     *
     * @throws IllegalArgumentException naming what is wrong with the text
     */
    public static NodeId parse(String text) {
        Objects.requireNonNull(text, "text");
        return parse(text, text);
    }

    /** Parses {@code rest}, the NodeId part of {@code text}; errors quote the whole text. */
    static NodeId parse(String text, String rest) {
        int namespaceIndex = 0;
        if (rest.startsWith("nsu=")) {
            throw new IllegalArgumentException("'" + text + "' has a namespace URI: parse it with ExpandedNodeId.parse");
        }
        if (rest.startsWith("ns=")) {
            int semicolon = rest.indexOf(';');
            if (semicolon < 0) {
                throw new IllegalArgumentException("'" + text + "' has no ';' after the namespace index");
            }
            namespaceIndex = parseUnsigned(text, rest.substring(3, semicolon), 0xFFFF, "namespace index");
            rest = rest.substring(semicolon + 1);
        }
        return parseIdentifier(text, namespaceIndex, rest);
    }

    static NodeId parseIdentifier(String text, int namespaceIndex, String rest) {
        if (rest.length() < 2 || rest.charAt(1) != '=') {
            throw new IllegalArgumentException("'" + text + "' has no identifier: expected i=, s=, g= or b=");
        }
        String value = rest.substring(2);
        switch (rest.charAt(0)) {
            case 'i':
                return numeric(namespaceIndex, parseUnsignedLong(text, value));
            case 's':
                return string(namespaceIndex, value);
            case 'g':
                try {
                    return guid(namespaceIndex, UUID.fromString(value));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("'" + text + "' has an invalid GUID '" + value + "'", e);
                }
            case 'b':
                try {
                    return opaque(namespaceIndex, ByteString.wrap(Base64.getDecoder().decode(value)));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("'" + text + "' has invalid base64 '" + value + "'", e);
                }
            default:
                throw new IllegalArgumentException("'" + text + "' has an unknown identifier type '"
                        + rest.charAt(0) + "=': expected i=, s=, g= or b=");
        }
    }

    static int parseUnsigned(String text, String digits, int max, String what) {
        long value = parseUnsignedLong(text, digits);
        if (value > max) {
            throw new IllegalArgumentException("'" + text + "' has " + what + " " + value + " above " + max);
        }
        return (int) value;
    }

    private static long parseUnsignedLong(String text, String digits) {
        if (digits.isEmpty() || digits.length() > 10) {
            throw new IllegalArgumentException("'" + text + "' has an invalid number '" + digits + "'");
        }
        long value = 0;
        for (int i = 0; i < digits.length(); i++) {
            char c = digits.charAt(i);
            if (c < '0' || c > '9') {
                throw new IllegalArgumentException("'" + text + "' has an invalid number '" + digits + "'");
            }
            value = value * 10 + (c - '0');
        }
        if (value > 0xFFFFFFFFL) {
            throw new IllegalArgumentException("'" + text + "' has number " + value + " above UInt32 range");
        }
        return value;
    }

    public int namespaceIndex() {
        return namespaceIndex;
    }

    /** This identifier in another namespace. */
    public NodeId withNamespaceIndex(int namespaceIndex) {
        if (namespaceIndex == this.namespaceIndex) {
            return this;
        }
        checkNamespace(namespaceIndex);
        if (identifier == null) {
            return numeric(namespaceIndex, numericId());
        }
        return new NodeId(namespaceIndex, 0, identifier);
    }

    public IdType idType() {
        Object id = identifier;
        if (id == null) {
            return IdType.Numeric;
        }
        if (id instanceof String || id == NULL_STRING) {
            return IdType.String;
        }
        return id instanceof UUID ? IdType.Guid : IdType.Opaque;
    }

    /** The numeric identifier (UInt32); 0 for other id types. */
    public long numericId() {
        return numeric & 0xFFFFFFFFL;
    }

    /** The identifier: Long for numeric ids, String (or null), UUID or ByteString otherwise. */
    public Object identifier() {
        Object id = identifier;
        if (id == null) {
            return Long.valueOf(numericId());
        }
        return id == NULL_STRING ? null : id;
    }

    /** The string identifier of a String NodeId (possibly null); null for other id types. */
    public String stringId() {
        return identifier instanceof String ? (String) identifier : null;
    }

    /** Whether this is a null NodeId (Part 6, 5.2.2.9: namespace 0 and a null or empty identifier). */
    public boolean isNull() {
        if (namespaceIndex != 0) {
            return false;
        }
        switch (idType()) {
            case Numeric:
                return numeric == 0;
            case String:
                return identifier == NULL_STRING || ((String) identifier).isEmpty();
            case Guid:
                return ((UUID) identifier).getMostSignificantBits() == 0 && ((UUID) identifier).getLeastSignificantBits() == 0;
            default:
                return ((ByteString) identifier).length() <= 0;
        }
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof NodeId)) {
            return false;
        }
        NodeId other = (NodeId) o;
        return namespaceIndex == other.namespaceIndex && numeric == other.numeric
                && Objects.equals(identifier, other.identifier);
    }

    @Override
    public int hashCode() {
        return 31 * namespaceIndex + (identifier == null ? numeric : identifier.hashCode());
    }

    /** The text form of Part 6, 5.3.1.10; {@link #parse} reads it back. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(24);
        if (namespaceIndex != 0) {
            sb.append("ns=").append(namespaceIndex).append(';');
        }
        appendIdentifier(sb);
        return sb.toString();
    }

    void appendIdentifier(StringBuilder sb) {
        IdType idType = idType();
        sb.append(idType.prefix());
        switch (idType) {
            case Numeric:
                sb.append(numericId());
                break;
            case Opaque:
                byte[] bytes = ((ByteString) identifier).unsafeBytes();
                sb.append(bytes == null ? "" : Base64.getEncoder().encodeToString(bytes));
                break;
            case String:
                sb.append(identifier == NULL_STRING ? "" : identifier);
                break;
            default:
                sb.append(identifier);
        }
    }
}
