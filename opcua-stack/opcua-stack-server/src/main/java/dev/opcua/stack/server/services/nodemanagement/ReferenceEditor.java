package dev.opcua.stack.server.services.nodemanagement;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.enumerated.NodeClass;
import dev.opcua.stack.core.types.structured.AddReferencesItem;
import dev.opcua.stack.core.types.structured.DeleteReferencesItem;
import dev.opcua.stack.server.addressspace.ReferenceTypeNode;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.roles.Permission;

/**
 * One item of AddReferences (Part 4, 5.7.3) or DeleteReferences (Part 4, 5.7.5). A reference is kept at
 * both ends, so that Browse finds it from either: AddReferences adds it to the source and its reverse to
 * the target; DeleteReferences removes it from the source and, with deleteBidirectional, its reverse from
 * the target. At least one end must be in a namespace that takes changes: a reference from a standard
 * folder (Objects) to an added node may be added and deleted, one between two nodes of namespace 0 not.
 *
 * <p>AddReferences statuses (Table 27): an unknown source BadSourceNodeIdInvalid; a ReferenceTypeId that
 * names no ReferenceType BadReferenceTypeIdInvalid, an abstract one BadReferenceNotAllowed; a target on
 * another server BadReferenceLocalOnly; an unknown target BadTargetNodeIdInvalid; a targetNodeClass that
 * is not the target's BadNodeClassInvalid; source and target the same node BadInvalidSelfReference;
 * neither end in a namespace that takes changes BadUserAccessDenied (namespace 0) or BadNotSupported; a
 * session without AddReference on the source (Part 3, 8.55) BadUserAccessDenied; a reference held
 * already BadDuplicateReferenceNotAllowed.
 *
 * <p>DeleteReferences statuses (Table 33): an unknown source BadSourceNodeIdInvalid, a ReferenceTypeId
 * that names no ReferenceType BadReferenceTypeIdInvalid, a target on another server
 * BadServerIndexInvalid, a null or unresolvable target BadTargetNodeIdInvalid, the namespace rule as above,
 * a session without RemoveReference on the source BadUserAccessDenied, and a reference the source does
 * not hold BadNotFound.
 */
final class ReferenceEditor {

    private final EditableNodes nodes;

    ReferenceEditor(EditableNodes nodes) {
        this.nodes = nodes;
    }

    /** Adds the reference of one item; {@code roles} is the session's role mask, -1 for the server itself. */
    StatusCode add(long roles, AddReferencesItem item, ModelChangeList changes) {
        UaNode source = nodes.find(item.sourceNodeId());
        NodeId type = item.referenceTypeId();
        StatusCode invalid = sourceAndTypeCheck(source, type);
        if (invalid != null) {
            return invalid;
        }
        if (nodes.find(type) instanceof ReferenceTypeNode r && r.isAbstract()) {
            return StatusCode.of(StatusCodes.BadReferenceNotAllowed);
        }
        ExpandedNodeId targetId = item.targetNodeId();
        if (item.targetServerUri() != null && !item.targetServerUri().isEmpty()
                || targetId != null && targetId.serverIndex() != 0) {
            return StatusCode.of(StatusCodes.BadReferenceLocalOnly);
        }
        UaNode target = nodes.find(nodes.local(targetId));
        if (target == null) {
            return StatusCode.of(StatusCodes.BadTargetNodeIdInvalid);
        }
        NodeClass targetClass = item.targetNodeClass();
        if (targetClass != null && targetClass != NodeClass.Unspecified && targetClass != target.nodeClass()) {
            return StatusCode.of(StatusCodes.BadNodeClassInvalid);
        }
        if (source == target) {
            return StatusCode.of(StatusCodes.BadInvalidSelfReference);
        }
        StatusCode refused = refused(roles, source, target, Permission.ADD_REFERENCE);
        if (refused != null) {
            return refused;
        }
        UaReference reference = new UaReference(type, ExpandedNodeId.of(target.nodeId()), item.isForward());
        if (source.referenceList().contains(reference)) {
            return StatusCode.of(StatusCodes.BadDuplicateReferenceNotAllowed);
        }
        source.addReference(reference);
        target.addReference(reference.reversed(source.nodeId()));
        changes.referenceAdded(source);
        changes.referenceAdded(target);
        return StatusCode.GOOD;
    }

    /** Deletes the reference of one item; {@code roles} is the session's role mask, -1 for the server itself. */
    StatusCode delete(long roles, DeleteReferencesItem item, ModelChangeList changes) {
        UaNode source = nodes.find(item.sourceNodeId());
        NodeId type = item.referenceTypeId();
        StatusCode invalid = sourceAndTypeCheck(source, type);
        if (invalid != null) {
            return invalid;
        }
        if (item.targetNodeId() != null && item.targetNodeId().serverIndex() != 0) {
            return StatusCode.of(StatusCodes.BadServerIndexInvalid);
        }
        NodeId targetId = nodes.local(item.targetNodeId());
        if (targetId == null) {
            return StatusCode.of(StatusCodes.BadTargetNodeIdInvalid);
        }
        UaNode target = nodes.find(targetId);
        StatusCode refused = refused(roles, source, target, Permission.REMOVE_REFERENCE);
        if (refused != null) {
            return refused;
        }
        UaReference reference = new UaReference(type, ExpandedNodeId.of(targetId), item.isForward());
        if (!source.removeReference(reference)) {
            return StatusCode.of(StatusCodes.BadNotFound);
        }
        changes.referenceDeleted(source);
        if (item.deleteBidirectional() && target != null && target.removeReference(reference.reversed(source.nodeId()))) {
            changes.referenceDeleted(target);
        }
        return StatusCode.GOOD;
    }

    /** Null when the source is a node and the type a ReferenceType; else the status that refuses the item. */
    private StatusCode sourceAndTypeCheck(UaNode source, NodeId type) {
        if (source == null) {
            return StatusCode.of(StatusCodes.BadSourceNodeIdInvalid);
        }
        if (type == null || !nodes.referenceTypes().isReferenceType(type)) {
            return StatusCode.of(StatusCodes.BadReferenceTypeIdInvalid);
        }
        return null;
    }

    /**
     * Null when one end is in a namespace that takes changes and the session has the permission on the
     * source; else the status that refuses the item.
     */
    private StatusCode refused(long roles, UaNode source, UaNode target, Permission permission) {
        int sourceStatus = nodes.editable(source.nodeId());
        if (sourceStatus != StatusCodes.Good && (target == null || nodes.editable(target.nodeId()) != StatusCodes.Good)) {
            return StatusCode.of(sourceStatus);
        }
        if (!nodes.allows(roles, source, permission)) {
            return StatusCode.of(StatusCodes.BadUserAccessDenied);
        }
        return null;
    }
}
