package dev.opcua.stack.client.services;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadResponse;
import dev.opcua.stack.core.types.structured.ReadValueId;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The server's NamespaceArray (Part 5, 6.3.1; Part 3, 8.2.2), read at connect and again after every
 * reconnect, since a restarted server may order its namespaces differently. Turns node ids with a
 * namespace URI ({@code nsu=urn:acme;s=Speed}, Part 6, 5.3.1.11) into the server's indices.
 * Thread-safe: the table is replaced whole.
 */
public final class NamespaceTable {

    private static final ReadValueId[] NAMESPACE_ARRAY = {new ReadValueId(NodeId.ns0(NodeIds.Server_NamespaceArray),
            AttributeIds.Value, null, QualifiedName.NULL)};

    private volatile String[] uris = {"http://opcfoundation.org/UA/"};

    /** Reads the server's NamespaceArray and replaces the table with it. */
    public CompletableFuture<Void> refresh(ServiceInvoker services) {
        return services.send(h -> new ReadRequest(h, 0, TimestampsToReturn.Neither, NAMESPACE_ARRAY),
                ReadResponse.class).thenAccept(response -> {
                    DataValue v = Batches.checkedResults(response.results(), 1, "Read of the NamespaceArray")[0];
                    if (!v.statusCode().isGood() || !(v.value().value() instanceof String[] array)) {
                        throw new UaException(StatusCodes.BadTypeMismatch, "the server's NamespaceArray is not a"
                                + " String array: " + v);
                    }
                    uris = array.clone();
                });
    }

    /** The URIs by index, as last read. */
    public List<String> uris() {
        return List.of(uris);
    }

    /** The index of a namespace URI; -1 when the server has no such namespace. */
    public int indexOf(String uri) {
        String[] u = uris;
        for (int i = 0; i < u.length; i++) {
            if (uri.equals(u[i])) {
                return i;
            }
        }
        return -1;
    }

    /** The URI at an index; null beyond the table. */
    public String uri(int index) {
        String[] u = uris;
        return index >= 0 && index < u.length ? u[index] : null;
    }

    /**
     * A node id from its text form, with an index ({@code ns=2;s=A}) or a namespace URI
     * ({@code nsu=urn:acme;s=A}) resolved through this table.
     *
     * @throws IllegalArgumentException for text that is not a node id
     * @throws UaException BadNodeIdUnknown when the server has no namespace with that URI
     */
    public NodeId parse(String text) {
        if (text.startsWith("nsu=") || text.startsWith("svr=")) {
            return toNodeId(ExpandedNodeId.parse(text));
        }
        return NodeId.parse(text);
    }

    /**
     * The local node id of an expanded one: its namespace URI (when it has one) replaced by the
     * server's index for it.
     *
     * @throws UaException BadNodeIdUnknown for a namespace the server does not have, or a node on another server
     */
    public NodeId toNodeId(ExpandedNodeId id) {
        if (id.serverIndex() != 0) {
            throw new UaException(StatusCodes.BadNodeIdUnknown, id + " is on server " + id.serverIndex()
                    + ", not on this one");
        }
        String uri = id.namespaceUri();
        if (uri == null || uri.isEmpty()) {
            return id.nodeId();
        }
        int index = indexOf(uri);
        if (index < 0) {
            throw new UaException(StatusCodes.BadNodeIdUnknown, "the server has no namespace '" + uri + "' (for "
                    + id + "); its namespaces: " + List.of(uris));
        }
        return id.nodeId().withNamespaceIndex(index);
    }
}
