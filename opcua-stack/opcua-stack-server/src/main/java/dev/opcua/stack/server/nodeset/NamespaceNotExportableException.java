package dev.opcua.stack.server.nodeset;

/**
 * A NodeSet2 export (Part 6, Annex F) was asked for a namespace the server does not have, or one that
 * no in-memory node manager holds (a node manager that serves its nodes from elsewhere, such as a
 * device, has none to write). The message names the namespace and says which.
 */
public final class NamespaceNotExportableException extends NodeSetException {

    private static final long serialVersionUID = 1L;

    private final String namespaceUri;

    public NamespaceNotExportableException(String message, String namespaceUri) {
        super(message);
        this.namespaceUri = namespaceUri;
    }

    /** The namespace asked for. */
    public String namespaceUri() {
        return namespaceUri;
    }
}
