package dev.opcua.stack.server.addressspace;

import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.roles.NodePermissions;
import java.util.Collection;
import java.util.Collections;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Nodes by NodeId: the storage of an in-memory namespace. Lookups take no lock; adding a node with
 * an id already present is refused.
 */
public final class NodeStore {

    private final ConcurrentHashMap<NodeId, UaNode> nodes;
    private volatile NodePermissions defaultPermissions = NodePermissions.ALL;
    /** Whether any node or the default restricts a role: while not, Browse filters nothing. */
    private volatile boolean restricted;

    public NodeStore(int expectedSize) {
        this.nodes = new ConcurrentHashMap<>(Math.max(16, expectedSize * 4 / 3 + 1));
    }

    /**
     * The permissions of nodes without their own (the namespace's DefaultRolePermissions, Part 3,
     * 5.2.9); every role has every permission unless set.
     */
    public void setDefaultPermissions(NodePermissions value) {
        defaultPermissions = Objects.requireNonNull(value, "defaultPermissions");
        restricted |= !value.isUnrestricted();
    }

    public NodePermissions defaultPermissions() {
        return defaultPermissions;
    }

    /** The permission table that applies to {@code node}: its own, or the default. */
    public NodePermissions permissionsOf(UaNode node) {
        NodePermissions own = node.permissions();
        return own != null ? own : defaultPermissions;
    }

    /** Gives a node of this store its own permissions, see {@link UaNode#setPermissions}. */
    public void setPermissions(UaNode node, NodePermissions value) {
        node.setPermissions(value);
        restricted |= value != null && !value.isUnrestricted();
    }

    /** Whether some node may be hidden from or refused to some role. */
    public boolean isRestricted() {
        return restricted;
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
