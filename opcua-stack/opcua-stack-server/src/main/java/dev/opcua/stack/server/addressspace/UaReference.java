package dev.opcua.stack.server.addressspace;

import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.NodeId;
import java.util.Objects;

/**
 * A reference from a node (Part 3, 4.4.4): its type, its target and its direction as seen from the
 * node that holds it.
 *
 * @param referenceTypeId NodeId of the ReferenceType
 * @param targetId target node, possibly in another server
 * @param forward whether the reference points from the holder to the target
 */
public record UaReference(NodeId referenceTypeId, ExpandedNodeId targetId, boolean forward) {

    public UaReference {
        Objects.requireNonNull(referenceTypeId, "referenceTypeId");
        Objects.requireNonNull(targetId, "targetId");
    }

    /** A forward reference to a local node. */
    public static UaReference forward(NodeId referenceTypeId, NodeId target) {
        return new UaReference(referenceTypeId, ExpandedNodeId.of(target), true);
    }

    /** An inverse reference to a local node. */
    public static UaReference inverse(NodeId referenceTypeId, NodeId target) {
        return new UaReference(referenceTypeId, ExpandedNodeId.of(target), false);
    }

    /** The same reference seen from its target. */
    public UaReference reversed(NodeId holder) {
        return new UaReference(referenceTypeId, ExpandedNodeId.of(holder), !forward);
    }
}
