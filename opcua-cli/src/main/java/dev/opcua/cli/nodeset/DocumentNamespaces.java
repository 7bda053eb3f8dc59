package dev.opcua.cli.nodeset;

import dev.opcua.stack.client.services.NamespaceTable;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.NodeId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The namespace table of a NodeSet2 document (Part 6, F.2): namespace 0 stays 0, the exported namespace is 1, every
 * other namespace the nodes refer to gets the next index when first met; node ids are written with these indices.
 */
final class DocumentNamespaces {

    private final NamespaceTable server;
    private final Map<Integer, Integer> serverToDocument = new LinkedHashMap<>();

    DocumentNamespaces(NamespaceTable server, int exported) {
        this.server = server;
        serverToDocument.put(exported, 1);
    }

    /** The document index of a server namespace index. */
    int index(int serverIndex) {
        if (serverIndex == 0) {
            return 0;
        }
        return serverToDocument.computeIfAbsent(serverIndex, i -> serverToDocument.size() + 1);
    }

    /** The node id as the document writes it. */
    String text(NodeId id) {
        return id.withNamespaceIndex(index(id.namespaceIndex())).toString();
    }

    /** The server's id of a reference target; null for a node of another server or an unknown namespace. */
    NodeId local(ExpandedNodeId target) {
        if (!target.isLocal()) {
            return null;
        }
        try {
            return server.toNodeId(target);
        } catch (UaException e) {
            return null;
        }
    }

    /** The URIs of document indices 1, 2, ... in order. */
    List<String> uris() {
        List<String> uris = new ArrayList<>();
        for (int serverIndex : serverToDocument.keySet()) {
            uris.add(server.uri(serverIndex));
        }
        return uris;
    }
}
