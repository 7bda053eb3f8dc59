package dev.opcua.stack.codegen.schema;

import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.NodeId;
import java.util.Objects;

/**
 * One {@code <Reference>} of a node in a UANodeSet, as written there (Part 6, Annex F).
 *
 * @param referenceTypeId the ReferenceType, its alias resolved
 * @param targetId the target node
 * @param forward false when the file says {@code IsForward="false"}: the reference points from the target
 *     to the node that lists it
 */
public record ReferenceDef(NodeId referenceTypeId, ExpandedNodeId targetId, boolean forward) {

    public ReferenceDef {
        Objects.requireNonNull(referenceTypeId, "referenceTypeId");
        Objects.requireNonNull(targetId, "targetId");
    }
}
