package dev.opcua.cli.values;

import dev.opcua.cli.CliException;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.NodeId;

/**
 * Node ids as typed: {@code ns=<index>;<i|s|g|b>=<identifier>} or {@code nsu=<namespace URI>;<i|s|g|b>=<identifier>}
 * (Part 6, 5.3.1.10), checked before connecting and resolved against the server's namespace table after.
 */
public final class NodeIdText {

    /** What a node id looks like, for error messages. */
    public static final String EXPECTED = "expected ns=<index>;<i|s|g|b>=<id> or nsu=<namespace URI>;<i|s|g|b>=<id>,"
            + " e.g. ns=2;s=Line1.Speed, nsu=urn:acme:line1;s=Speed or i=2253";

    private NodeIdText() {
    }

    /** Checks the syntax only (no server needed). */
    public static void check(String text) {
        try {
            if (text.startsWith("nsu=") || text.startsWith("svr=")) {
                ExpandedNodeId.parse(text);
            } else {
                NodeId.parse(text);
            }
        } catch (IllegalArgumentException e) {
            throw CliException.usage("'" + text + "' is not a node id: " + e.getMessage() + "; " + EXPECTED);
        }
    }

    /** The node id, {@code nsu=} resolved through the server's namespace table. */
    public static NodeId resolve(OpcUaClient client, String text) {
        check(text);
        try {
            return client.nodeId(text);
        } catch (UaException e) {
            throw CliException.usage(e.getMessage());
        } catch (IllegalArgumentException e) {
            throw CliException.usage("'" + text + "' is not a node id: " + e.getMessage() + "; " + EXPECTED);
        }
    }

    /** The node id as text with its namespace URI ({@code nsu=}) when the server's table knows it. */
    public static String format(OpcUaClient client, NodeId id) {
        if (id == null) {
            return "null";
        }
        if (id.namespaceIndex() == 0) {
            return id.toString();
        }
        String uri = client.namespaces().uri(id.namespaceIndex());
        if (uri == null) {
            return id.toString();
        }
        String text = id.toString();
        int semicolon = text.indexOf(';');
        return "nsu=" + uri + ";" + (text.startsWith("ns=") && semicolon > 0 ? text.substring(semicolon + 1) : text);
    }

    /** An expanded node id of a reference, as {@link #format(OpcUaClient, NodeId)} when it is on this server. */
    public static String format(OpcUaClient client, ExpandedNodeId id) {
        if (id.serverIndex() != 0) {
            return id.toString();
        }
        try {
            return format(client, client.namespaces().toNodeId(id));
        } catch (UaException e) {
            return id.toString();
        }
    }
}
