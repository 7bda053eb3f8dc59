package dev.opcua.stack.server.services.nodemanagement;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.structured.DeleteNodesItem;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.roles.Permission;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One item of DeleteNodes (Part 4, 5.7.4): removes the node and, as the service lets a server do, the
 * children its type gave it (the targets of its Aggregates references in the same namespace that no other
 * node holds as a hierarchical child), so no orphaned instance declarations stay behind. Monitored items
 * of a removed variable then report BadNodeIdUnknown.
 *
 * <p>References: the reverse of each reference a removed node holds goes from the node at its other end
 * when the removed node is the source (a forward reference); the references other nodes hold to a removed
 * node (the parent's HasComponent, say) go only when deleteTargetReferences is true, else they are left
 * unresolved, as Part 4, 5.7.4 says.
 *
 * <p>Statuses (Part 4, 5.7.4.4, Table 30): a null NodeId is BadNodeIdInvalid, one no node has
 * BadNodeIdUnknown; a node of namespace 0 BadUserAccessDenied, of a namespace that takes no changes
 * BadNotSupported; a session without DeleteNode on the node (Part 3, 8.55) BadUserAccessDenied.
 */
final class NodeDeleter {

    private static final NodeId AGGREGATES = NodeId.ns0(NodeIds.Aggregates);

    private final EditableNodes nodes;

    NodeDeleter(EditableNodes nodes) {
        this.nodes = nodes;
    }

    /**
     * Deletes the node of one item.
     *
     * @param roles the session's role mask, -1 for the server itself
     */
    StatusCode delete(long roles, DeleteNodesItem item, ModelChangeList changes) {
        NodeId id = item.nodeId();
        if (id == null || id.isNull()) {
            return StatusCode.of(StatusCodes.BadNodeIdInvalid);
        }
        UaNode node = nodes.find(id);
        if (node == null) {
            return StatusCode.of(StatusCodes.BadNodeIdUnknown);
        }
        int editable = nodes.editable(id);
        if (editable != StatusCodes.Good) {
            return StatusCode.of(editable);
        }
        if (!nodes.allows(roles, node, Permission.DELETE_NODE)) {
            return StatusCode.of(StatusCodes.BadUserAccessDenied);
        }
        Map<NodeId, UaNode> removed = withTypeChildren(node);
        NodeStore store = nodes.store(id);
        for (UaNode gone : removed.values()) {
            store.remove(gone.nodeId());
            changes.nodeDeleted(gone);
        }
        for (UaNode gone : removed.values()) {
            for (UaReference reference : gone.references()) {
                if (!reference.targetId().isLocal() || removed.containsKey(reference.targetId().nodeId())) {
                    continue;
                }
                UaNode other = nodes.find(reference.targetId().nodeId());
                if (other != null && (reference.forward() || item.deleteTargetReferences())
                        && other.removeReference(reference.reversed(gone.nodeId()))) {
                    changes.referenceDeleted(other);
                }
            }
        }
        return StatusCode.GOOD;
    }

    /** The node and, recursively, its aggregated children in its namespace that have no other parent. */
    private Map<NodeId, UaNode> withTypeChildren(UaNode node) {
        Map<NodeId, UaNode> found = new LinkedHashMap<>();
        Deque<UaNode> pending = new ArrayDeque<>();
        pending.add(node);
        while (!pending.isEmpty()) {
            UaNode next = pending.poll();
            if (found.putIfAbsent(next.nodeId(), next) != null) {
                continue;
            }
            for (UaReference r : next.references()) {
                if (!r.forward() || !r.targetId().isLocal()
                        || !nodes.referenceTypes().matches(r.referenceTypeId(), AGGREGATES, true)) {
                    continue;
                }
                NodeId childId = r.targetId().nodeId();
                UaNode child = childId.namespaceIndex() == node.nodeId().namespaceIndex() ? nodes.find(childId) : null;
                if (child != null && !hasOtherParent(child, next.nodeId())) {
                    pending.add(child);
                }
            }
        }
        return found;
    }

    private boolean hasOtherParent(UaNode child, NodeId parent) {
        for (UaReference r : child.references()) {
            if (!r.forward() && r.targetId().isLocal() && !parent.equals(r.targetId().nodeId())
                    && nodes.isHierarchical(r.referenceTypeId())) {
                return true;
            }
        }
        return false;
    }
}
