package dev.opcua.stack.server.addressspace;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.NodeClass;
import dev.opcua.stack.server.roles.NodePermissions;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A node of the address space with the attributes every node class has (Part 3, 5.2) and its
 * references.
 *
 * <p>Attributes are fixed at construction except where a subclass says otherwise (a variable's
 * value). References are kept in an array replaced on change (copy on write): adding happens while
 * the address space is built or changes, reading on every Browse, which takes no lock.
 */
public abstract class UaNode {

    private static final UaReference[] NO_REFERENCES = {};

    private final NodeId nodeId;
    private final QualifiedName browseName;
    private final LocalizedText displayName;
    private final LocalizedText description;
    private final long writeMask;
    private final long userWriteMask;
    private volatile UaReference[] references = NO_REFERENCES;
    /** Set when the node leaves its {@link NodeStore}: holders of a reference (sample sources) see it. */
    private volatile boolean removed;
    /** The node's own RolePermissions (Part 3, 5.2.9), or null for its namespace's default. */
    private volatile NodePermissions permissions;

    protected UaNode(NodeId nodeId, QualifiedName browseName, LocalizedText displayName, LocalizedText description,
            long writeMask, long userWriteMask) {
        this.nodeId = Objects.requireNonNull(nodeId, "nodeId");
        this.browseName = Objects.requireNonNull(browseName, "browseName");
        this.displayName = displayName == null ? LocalizedText.of(browseName.name()) : displayName;
        this.description = description;
        this.writeMask = writeMask;
        this.userWriteMask = userWriteMask;
    }

    public abstract NodeClass nodeClass();

    /** Whether the node was removed from its {@link NodeStore}. */
    public boolean isRemoved() {
        return removed;
    }

    void markRemoved() {
        removed = true;
    }

    /** The node's own permission table, or null when its namespace's default applies. */
    public NodePermissions permissions() {
        return permissions;
    }

    /**
     * Gives the node its own permission table (null: the namespace's default); set while the address
     * space is built, read on every checked operation without a lock.
     */
    public void setPermissions(NodePermissions value) {
        permissions = value;
    }

    public NodeId nodeId() {
        return nodeId;
    }

    public QualifiedName browseName() {
        return browseName;
    }

    public LocalizedText displayName() {
        return displayName;
    }

    /** Description, or null when the node has none. */
    public LocalizedText description() {
        return description;
    }

    public long writeMask() {
        return writeMask;
    }

    public long userWriteMask() {
        return userWriteMask;
    }

    /** The references held by this node, in the order they were added. Not copied: do not modify. */
    public UaReference[] references() {
        return references;
    }

    /** The references as a list view. */
    public List<UaReference> referenceList() {
        return Arrays.asList(references);
    }

    /** Adds a reference unless an equal one is held already. */
    public void addReference(UaReference reference) {
        addReferences(new UaReference[] {reference});
    }

    /**
     * Adds references with one copy of the array, skipping any equal to one held or to an earlier one
     * of {@code added} (adding them one at a time would copy the array each time: quadratic for a node
     * that gets thousands, as when a namespace loads).
     */
    public synchronized void addReferences(UaReference[] added) {
        UaReference[] current = references;
        int total = current.length + added.length;
        Set<UaReference> seen = total > 16 ? new HashSet<>(Arrays.asList(current)) : null;
        UaReference[] next = Arrays.copyOf(current, total);
        int size = current.length;
        for (UaReference reference : added) {
            if (seen != null ? seen.add(reference) : !contains(next, size, reference)) {
                next[size++] = reference;
            }
        }
        if (size > current.length) {
            references = size == total ? next : Arrays.copyOf(next, size);
        }
    }

    private static boolean contains(UaReference[] references, int size, UaReference reference) {
        for (int i = 0; i < size; i++) {
            if (references[i].equals(reference)) {
                return true;
            }
        }
        return false;
    }

    /** Removes a reference; returns whether it was held. */
    public synchronized boolean removeReference(UaReference reference) {
        UaReference[] current = references;
        for (int i = 0; i < current.length; i++) {
            if (current[i].equals(reference)) {
                UaReference[] next = new UaReference[current.length - 1];
                System.arraycopy(current, 0, next, 0, i);
                System.arraycopy(current, i + 1, next, i, current.length - i - 1);
                references = next;
                return true;
            }
        }
        return false;
    }

    /**
     * The value of an attribute as a Variant (Part 3, 5 and Part 6, A.1 for the ids), or null when the
     * node class has no such attribute (the caller answers BadAttributeIdInvalid). A Description the
     * node lacks reads as a null Variant. The Value attribute of variables is read through
     * {@link VariableNode#value()} instead, with its status and timestamps.
     */
    public Variant attribute(int attributeId) {
        switch (attributeId) {
            case AttributeIds.NodeId:
                return Variant.of(nodeId);
            case AttributeIds.NodeClass:
                return Variant.ofInt32(nodeClass().value());
            case AttributeIds.BrowseName:
                return Variant.of(browseName);
            case AttributeIds.DisplayName:
                return Variant.of(displayName);
            case AttributeIds.Description:
                return description == null ? Variant.NULL : Variant.of(description);
            case AttributeIds.WriteMask:
                return Variant.ofUInt32(writeMask);
            case AttributeIds.UserWriteMask:
                return Variant.ofUInt32(userWriteMask);
            default:
                return null;
        }
    }

    @Override
    public String toString() {
        return nodeClass() + "[" + nodeId + " " + browseName + "]";
    }
}
