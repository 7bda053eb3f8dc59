package dev.opcua.stack.server.nodeset;

/**
 * A nodeset that cannot be imported: the message names the file, the line and the node where it
 * can, and the problem, e.g. {@code Opc.Ua.Di.NodeSet2.xml:120: node ns=1;i=15001: unknown alias 'Foo'}.
 */
public class NodeSetException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public NodeSetException(String message) {
        super(message);
    }

    public NodeSetException(String message, Throwable cause) {
        super(message, cause);
    }

    static NodeSetException at(String file, int line, String nodeId, String problem, Throwable cause) {
        StringBuilder s = new StringBuilder(file);
        if (line > 0) {
            s.append(':').append(line);
        }
        if (nodeId != null) {
            s.append(": node ").append(nodeId);
        }
        s.append(": ").append(problem);
        return new NodeSetException(s.toString(), cause);
    }
}
