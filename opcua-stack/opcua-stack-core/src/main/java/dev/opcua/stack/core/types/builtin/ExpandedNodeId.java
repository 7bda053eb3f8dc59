package dev.opcua.stack.core.types.builtin;

import java.util.Objects;

/**
 * A NodeId that may name its namespace by URI and its server by index in the ServerArray
 * (Part 3, 8.2; binary encoding Part 6, 5.2.2.10; text form Part 6, 5.3.1.11:
 * {@code [svr=<index>;][nsu=<uri>;|ns=<index>;]<type>=<id>}).
 */
public final class ExpandedNodeId {

    public static final ExpandedNodeId NULL = new ExpandedNodeId(NodeId.NULL, null, 0);

    private final NodeId nodeId;
    private final String namespaceUri;
    private final long serverIndex;

    private ExpandedNodeId(NodeId nodeId, String namespaceUri, long serverIndex) {
        this.nodeId = Objects.requireNonNull(nodeId, "nodeId");
        this.namespaceUri = namespaceUri;
        this.serverIndex = serverIndex;
    }

    /** A local ExpandedNodeId (server 0, namespace by index). */
    public static ExpandedNodeId of(NodeId nodeId) {
        return new ExpandedNodeId(nodeId, null, 0);
    }

    /**
     * An ExpandedNodeId with all parts. When a namespace URI is given, the NodeId's namespace index is
     * set to 0, as it is encoded (Part 6, 5.2.2.10); an empty URI counts as none.
     *
     * @param nodeId identifier
     * @param namespaceUri namespace URI, or null
     * @param serverIndex UInt32 index in the ServerArray, 0 for the local server
     */
    public static ExpandedNodeId of(NodeId nodeId, String namespaceUri, long serverIndex) {
        if (serverIndex < 0 || serverIndex > 0xFFFFFFFFL) {
            throw new IllegalArgumentException("server index " + serverIndex + " is outside UInt32 range");
        }
        Objects.requireNonNull(nodeId, "nodeId");
        if (namespaceUri != null && namespaceUri.isEmpty()) {
            namespaceUri = null;
        }
        return new ExpandedNodeId(namespaceUri == null ? nodeId : nodeId.withNamespaceIndex(0), namespaceUri,
                serverIndex);
    }

    /** Parses the text form of Part 6, 5.3.1.11; see {@link NodeId#parse} for the identifier part. */
    public static ExpandedNodeId parse(String text) {
        Objects.requireNonNull(text, "text");
        String rest = text;
        long serverIndex = 0;
        if (rest.startsWith("svr=")) {
            int semicolon = rest.indexOf(';');
            if (semicolon < 0) {
                throw new IllegalArgumentException("'" + text + "' has no ';' after the server index");
            }
            String digits = rest.substring(4, semicolon);
            try {
                serverIndex = Long.parseLong(digits);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + text + "' has an invalid server index '" + digits + "'", e);
            }
            if (serverIndex < 0 || serverIndex > 0xFFFFFFFFL) {
                throw new IllegalArgumentException("'" + text + "' has server index " + digits + " outside UInt32 range");
            }
            rest = rest.substring(semicolon + 1);
        }
        if (rest.startsWith("nsu=")) {
            int semicolon = findUnescapedSemicolon(rest, 4);
            if (semicolon < 0) {
                throw new IllegalArgumentException("'" + text + "' has no ';' after the namespace URI");
            }
            String uri = unescape(rest.substring(4, semicolon));
            return of(NodeId.parseIdentifier(text, 0, rest.substring(semicolon + 1)), uri, serverIndex);
        }
        return new ExpandedNodeId(NodeId.parse(text, rest), null, serverIndex);
    }

    private static int findUnescapedSemicolon(String s, int from) {
        for (int i = from; i < s.length(); i++) {
            if (s.charAt(i) == ';') {
                return i;
            }
        }
        return -1;
    }

    // Part 6, 5.3.1.11: ';' and '%' inside the URI are percent-escaped.
    private static String unescape(String uri) {
        return uri.replace("%3B", ";").replace("%3b", ";").replace("%25", "%");
    }

    private static String escape(String uri) {
        return uri.replace("%", "%25").replace(";", "%3B");
    }

    public NodeId nodeId() {
        return nodeId;
    }

    /** Namespace URI, or null when the namespace is given by index. */
    public String namespaceUri() {
        return namespaceUri;
    }

    /** Index of the server in the ServerArray (UInt32); 0 for the local server. */
    public long serverIndex() {
        return serverIndex;
    }

    /** Whether this ExpandedNodeId refers to the local server and names its namespace by index. */
    public boolean isLocal() {
        return serverIndex == 0 && namespaceUri == null;
    }

    public boolean isNull() {
        return nodeId.isNull() && namespaceUri == null && serverIndex == 0;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ExpandedNodeId)) {
            return false;
        }
        ExpandedNodeId other = (ExpandedNodeId) o;
        return serverIndex == other.serverIndex && nodeId.equals(other.nodeId)
                && Objects.equals(namespaceUri, other.namespaceUri);
    }

    @Override
    public int hashCode() {
        return Objects.hash(nodeId, namespaceUri, serverIndex);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(32);
        if (serverIndex != 0) {
            sb.append("svr=").append(serverIndex).append(';');
        }
        if (namespaceUri != null) {
            sb.append("nsu=").append(escape(namespaceUri)).append(';');
            nodeId.appendIdentifier(sb);
            return sb.toString();
        }
        return sb.append(nodeId).toString();
    }
}
