package dev.opcua.stack.server.addressspace;

import dev.opcua.stack.core.types.builtin.NodeId;
import java.util.Collection;
import java.util.Collections;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Nodes by NodeId: the storage of an in-memory namespace. Lookups take no lock; adding a node with
 * an id already present is refused.
 */
public final class NodeStore {

    private final ConcurrentHashMap<NodeId, UaNode> nodes;

    public NodeStore(int expectedSize) {
        this.nodes = new ConcurrentHashMap<>(Math.max(16, expectedSize * 4 / 3 + 1));
    }

    /** The node with this id, or null. */
    public UaNode get(NodeId nodeId) {
        return nodes.get(nodeId);
    }

    /** Adds a node; throws IllegalArgumentException naming the id when one with the same id exists. */
    public void add(UaNode node) {
        UaNode previous = nodes.putIfAbsent(node.nodeId(), node);
        if (previous != null) {
            throw new IllegalArgumentException("a node with id " + node.nodeId() + " exists already: " + previous);
        }
    }

    /** Removes a node, which then says {@link UaNode#isRemoved()}; returns it, or null when absent. */
    public UaNode remove(NodeId nodeId) {
        UaNode removed = nodes.remove(nodeId);
        if (removed != null) {
            removed.markRemoved();
        }
        return removed;
    }

    public int size() {
        return nodes.size();
    }

    /** A live, unmodifiable view of the nodes. */
    public Collection<UaNode> nodes() {
        return Collections.unmodifiableCollection(nodes.values());
    }
}
