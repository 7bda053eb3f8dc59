package dev.opcua.stack.server.services.nodemanagement;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.nodes.NodeManager;
import dev.opcua.stack.server.nodes.NodeManagers;
import dev.opcua.stack.server.nodes.NodeStoreNodeManager;
import dev.opcua.stack.server.roles.Permission;
import dev.opcua.stack.server.services.view.ReferenceTypeTree;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The address space as the NodeManagement services see it: any node of an in-memory node manager,
 * whether a namespace takes changes (its manager {@link NodeStoreNodeManager#acceptsNodeManagement()
 * accepts them} and the settings name it), the permission checks of the session's roles, and the
 * type hierarchies the checks of AddNodes need.
 */
final class EditableNodes {

    static final NodeId HAS_SUBTYPE = NodeId.ns0(NodeIds.HasSubtype);
    static final NodeId HIERARCHICAL_REFERENCES = NodeId.ns0(NodeIds.HierarchicalReferences);
    /** Deeper than any real type hierarchy: guards against a HasSubtype loop. */
    private static final int MAX_TYPE_DEPTH = 64;

    private final NodeManagers managers;
    private final Supplier<ReferenceTypeTree> referenceTypes;
    private final Set<String> namespaces;

    /**
     * @param referenceTypes the server's ReferenceType hierarchy, asked on each use (imported models add to it at start)
     * @param namespaces the URIs of the namespaces that take changes; empty for all whose managers accept them
     */
    EditableNodes(NodeManagers managers, Supplier<ReferenceTypeTree> referenceTypes, Set<String> namespaces) {
        this.managers = managers;
        this.referenceTypes = referenceTypes;
        this.namespaces = Set.copyOf(namespaces);
    }

    /** A node of any in-memory node manager, or null. */
    UaNode find(NodeId id) {
        return id != null && managers.managerOf(id) instanceof NodeStoreNodeManager m ? m.store().get(id) : null;
    }

    /**
     * The local NodeId an ExpandedNodeId names (its namespace given by index or by URI), or null when it
     * is null, names another server, or a namespace URI this server does not know.
     */
    NodeId local(ExpandedNodeId id) {
        if (id == null || id.isNull() || id.serverIndex() != 0) {
            return null;
        }
        if (id.namespaceUri() == null) {
            return id.nodeId();
        }
        int index = managers.namespaces().indexOf(id.namespaceUri());
        return index < 0 ? null : id.nodeId().withNamespaceIndex(index);
    }

    /**
     * Whether the namespace of {@code id} takes changes: Good, or BadUserAccessDenied for namespace 0 (the
     * standard's nodes are nobody's to change), BadNotSupported for a namespace whose manager keeps no
     * store or does not accept changes, or that the settings leave out, BadNodeIdUnknown for a namespace
     * without a manager.
     */
    int editable(NodeId id) {
        if (id.namespaceIndex() == 0) {
            return StatusCodes.BadUserAccessDenied;
        }
        NodeManager manager = managers.managerOf(id);
        if (manager == null) {
            return StatusCodes.BadNodeIdUnknown;
        }
        if (!(manager instanceof NodeStoreNodeManager m) || !m.acceptsNodeManagement()) {
            return StatusCodes.BadNotSupported;
        }
        if (!namespaces.isEmpty() && !namespaces.contains(managers.namespaces().uri(id.namespaceIndex()))) {
            return StatusCodes.BadNotSupported;
        }
        return StatusCodes.Good;
    }

    /** The store that holds the nodes of {@code id}'s namespace; call after {@link #editable} said Good. */
    NodeStore store(NodeId id) {
        return ((NodeStoreNodeManager) managers.managerOf(id)).store();
    }

    /**
     * Whether a session with the role mask {@code roles} (-1 for the server itself) has {@code permission}
     * on {@code node}, after the node's own table or its namespace's default (Part 3, 5.2.9).
     */
    boolean allows(long roles, UaNode node, Permission permission) {
        if (roles == -1L) {
            return true;
        }
        NodeManager manager = managers.managerOf(node.nodeId());
        return manager instanceof NodeStoreNodeManager m && m.store().permissionsOf(node).allows(roles, permission);
    }

    ReferenceTypeTree referenceTypes() {
        return referenceTypes.get();
    }

    /** Whether {@code type} is a ReferenceType subtype of HierarchicalReferences (Part 3, 7.3) or it. */
    boolean isHierarchical(NodeId type) {
        return referenceTypes().matches(type, HIERARCHICAL_REFERENCES, true);
    }

    /** Whether {@code type} is {@code base} or one of its subtypes, by the inverse HasSubtype references. */
    boolean isSubtypeOf(NodeId type, NodeId base) {
        NodeId current = type;
        for (int depth = 0; current != null && depth < MAX_TYPE_DEPTH; depth++) {
            if (current.equals(base)) {
                return true;
            }
            current = supertype(find(current));
        }
        return false;
    }

    private static NodeId supertype(UaNode type) {
        if (type == null) {
            return null;
        }
        for (UaReference r : type.references()) {
            if (!r.forward() && HAS_SUBTYPE.equals(r.referenceTypeId()) && r.targetId().isLocal()) {
                return r.targetId().nodeId();
            }
        }
        return null;
    }
}
