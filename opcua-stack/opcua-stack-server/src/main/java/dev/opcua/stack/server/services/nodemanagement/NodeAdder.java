package dev.opcua.stack.server.services.nodemanagement;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.IdType;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.enumerated.NodeClass;
import dev.opcua.stack.core.types.structured.AddNodesItem;
import dev.opcua.stack.core.types.structured.AddNodesResult;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.ObjectTypeNode;
import dev.opcua.stack.server.addressspace.ReferenceTypeNode;
import dev.opcua.stack.server.addressspace.TypeNode;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.addressspace.VariableTypeNode;
import dev.opcua.stack.server.nodeset.TypeInstantiator;
import dev.opcua.stack.server.roles.Permission;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * One item of AddNodes (Part 4, 5.7.2): checks it, makes the node, links it below its parent and
 * creates the Mandatory children its type declares (Part 3, 6.4.4.4.3), with NodeIds in the new node's
 * namespace.
 *
 * <p>The checks, in order, and their statuses (Part 4, 5.7.2.4, Table 24): a parent that is no node of
 * this server is BadParentNodeIdInvalid; a ReferenceTypeId that names no ReferenceType
 * BadReferenceTypeIdInvalid, an abstract or non-hierarchical one (Part 3, 7.3) BadReferenceNotAllowed;
 * a NodeClass other than Object, Variable, ObjectType and VariableType BadNodeClassInvalid; a BrowseName
 * without a name BadBrowseNameInvalid; a requested NodeId of another server, an unknown namespace or
 * without identifier BadNodeIdRejected, one in use BadNodeIdExists; a namespace that takes no changes
 * BadUserAccessDenied (namespace 0) or BadNotSupported; a session without AddNode on the parent
 * (Part 3, 8.55) BadUserAccessDenied; HasSubtype for an instance, or another reference than HasSubtype
 * from a type of the same class for a type, BadReferenceNotAllowed; a TypeDefinition that is no
 * concrete ObjectType (for an Object) or VariableType (for a Variable), or one given for a type,
 * BadTypeDefinitionInvalid; attributes that do not fit (see {@link NewNodeAttributes})
 * BadNodeAttributesInvalid; a BrowseName a hierarchical child of the parent has already
 * BadBrowseNameDuplicated.
 *
 * <p>Without a requested NodeId the node gets a string NodeId in the parent's namespace: the parent's
 * identifier, a dot and the BrowseName when the parent is in that namespace, else the BrowseName
 * ("FillingLine.Setpoint"), with "~2", "~3" ... appended when that is taken.
 */
final class NodeAdder {

    private static final NodeId HAS_TYPE_DEFINITION = NodeId.ns0(NodeIds.HasTypeDefinition);
    private static final NodeId BASE_OBJECT_TYPE = NodeId.ns0(NodeIds.BaseObjectType);
    private static final NodeId BASE_DATA_VARIABLE_TYPE = NodeId.ns0(NodeIds.BaseDataVariableType);
    /** How many "~n" suffixes are tried for a generated NodeId before one of random identifier. */
    private static final int MAX_SUFFIX = 1000;

    private final EditableNodes nodes;
    private final NewNodeAttributes attributes;
    private final TypeInstantiator instances;

    NodeAdder(EditableNodes nodes, TypeInstantiator instances) {
        this.nodes = nodes;
        this.attributes = new NewNodeAttributes(nodes);
        this.instances = instances;
    }

    /**
     * Adds the node of one item.
     *
     * @param roles the session's role mask, -1 for the server itself
     * @param changes where the model changes of a node added go
     */
    AddNodesResult add(long roles, AddNodesItem item, ModelChangeList changes) {
        try {
            return new AddNodesResult(StatusCode.GOOD, addChecked(roles, item, changes));
        } catch (UaException e) {
            return new AddNodesResult(e.statusCode(), NodeId.NULL);
        }
    }

    private NodeId addChecked(long roles, AddNodesItem item, ModelChangeList changes) {
        NodeId parentId = nodes.local(item.parentNodeId());
        UaNode parent = nodes.find(parentId);
        if (parent == null) {
            throw new UaException(StatusCodes.BadParentNodeIdInvalid, "parent " + item.parentNodeId() + " is unknown");
        }
        NodeId referenceType = item.referenceTypeId();
        if (referenceType == null || !nodes.referenceTypes().isReferenceType(referenceType)) {
            throw new UaException(StatusCodes.BadReferenceTypeIdInvalid, referenceType + " is no ReferenceType");
        }
        if (nodes.find(referenceType) instanceof ReferenceTypeNode r && r.isAbstract()
                || !nodes.isHierarchical(referenceType)) {
            throw new UaException(StatusCodes.BadReferenceNotAllowed,
                    referenceType + " is abstract or not hierarchical (Part 4, 5.7.2)");
        }
        NodeClass nodeClass = item.nodeClass();
        if (nodeClass != NodeClass.Object && nodeClass != NodeClass.Variable && nodeClass != NodeClass.ObjectType
                && nodeClass != NodeClass.VariableType) {
            throw new UaException(StatusCodes.BadNodeClassInvalid, "NodeClass " + nodeClass
                    + ": this server adds Objects, Variables, ObjectTypes and VariableTypes");
        }
        QualifiedName browseName = item.browseName();
        if (browseName == null || browseName.name() == null || browseName.name().isBlank()) {
            throw new UaException(StatusCodes.BadBrowseNameInvalid, "the BrowseName has no name");
        }
        NodeId requested = requestedId(item);
        int namespaceStatus = nodes.editable(requested != null ? requested : parentId);
        if (namespaceStatus != StatusCodes.Good) {
            throw new UaException(namespaceStatus, "namespace " + (requested != null ? requested : parentId)
                    .namespaceIndex() + " takes no new nodes");
        }
        if (!nodes.allows(roles, parent, Permission.ADD_NODE)) {
            throw new UaException(StatusCodes.BadUserAccessDenied, "no AddNode permission on " + parentId);
        }
        boolean isType = nodeClass == NodeClass.ObjectType || nodeClass == NodeClass.VariableType;
        boolean subtypeReference = nodes.referenceTypes().matches(referenceType, EditableNodes.HAS_SUBTYPE, true);
        if (isType != subtypeReference || isType && parent.nodeClass() != nodeClass) {
            throw new UaException(StatusCodes.BadReferenceNotAllowed, isType
                    ? "a " + nodeClass + " is added as HasSubtype of a " + nodeClass + " (Part 3, 7.10)"
                    : "HasSubtype is for types, not for a " + nodeClass);
        }
        UaNode type = isType ? parent : typeDefinition(item, nodeClass);
        duplicateCheck(parent, browseName);
        NodeId id = requested != null ? requested : generatedId(parent, browseName);
        UaNode node = attributes.create(nodeClass, id, browseName, item.nodeAttributes(), type);
        List<UaReference> own = new ArrayList<>(2);
        own.add(UaReference.inverse(referenceType, parentId));
        if (!isType) {
            own.add(UaReference.forward(HAS_TYPE_DEFINITION, type.nodeId()));
        }
        node.addReferences(own.toArray(new UaReference[0]));
        NodeStore store = nodes.store(id);
        try {
            store.add(node);
        } catch (IllegalArgumentException e) {
            throw new UaException(StatusCodes.BadNodeIdExists, "NodeId " + id + " is in use");
        }
        parent.addReference(UaReference.forward(referenceType, id));
        List<UaNode> children = new ArrayList<>();
        if (!isType) {
            try {
                instances.addMandatoryChildren(node, type, children);
            } catch (IllegalArgumentException e) {
                undo(store, parent, referenceType, node, children);
                throw new UaException(StatusCodes.BadNodeIdExists,
                        "a child of " + id + " declared by " + type.nodeId() + " cannot be created: " + e.getMessage());
            }
        }
        changes.nodeAdded(node, isType ? NodeId.NULL : type.nodeId());
        changes.referenceAdded(parent);
        for (UaNode child : children) {
            changes.nodeAdded(child, ModelChangeList.typeDefinition(child));
        }
        return id;
    }

    /** The requested NodeId, local and unused, or null when none was requested. */
    private NodeId requestedId(AddNodesItem item) {
        if (item.requestedNewNodeId() == null || item.requestedNewNodeId().isNull()) {
            return null;
        }
        NodeId requested = nodes.local(item.requestedNewNodeId());
        if (requested == null) {
            throw new UaException(StatusCodes.BadNodeIdRejected, "requested NodeId " + item.requestedNewNodeId()
                    + " names another server or an unknown namespace");
        }
        if (requested.isNull() || requested.idType() == IdType.String && requested.stringId().isBlank()) {
            throw new UaException(StatusCodes.BadNodeIdRejected, "requested NodeId " + requested + " has no identifier");
        }
        if (nodes.editable(requested) == StatusCodes.BadNodeIdUnknown) {
            throw new UaException(StatusCodes.BadNodeIdRejected,
                    "requested NodeId " + requested + ": no node manager owns its namespace");
        }
        if (nodes.find(requested) != null) {
            throw new UaException(StatusCodes.BadNodeIdExists, "requested NodeId " + requested + " is in use");
        }
        return requested;
    }

    /** The TypeDefinition of an Object or Variable: the one given (or the base type when none), concrete. */
    private UaNode typeDefinition(AddNodesItem item, NodeClass nodeClass) {
        boolean object = nodeClass == NodeClass.Object;
        NodeId typeId = item.typeDefinition() == null || item.typeDefinition().isNull()
                ? (object ? BASE_OBJECT_TYPE : BASE_DATA_VARIABLE_TYPE) : nodes.local(item.typeDefinition());
        UaNode type = nodes.find(typeId);
        boolean fits = object ? type instanceof ObjectTypeNode : type instanceof VariableTypeNode;
        if (!fits || ((TypeNode) type).isAbstract()) {
            throw new UaException(StatusCodes.BadTypeDefinitionInvalid, "TypeDefinition " + item.typeDefinition()
                    + " is no concrete " + (object ? "ObjectType" : "VariableType") + " of this server");
        }
        return type;
    }

    /**
     * Refuses a BrowseName one of the parent's hierarchical children has already: the children's names are
     * what browse paths (Part 4, 5.8.4) tell them apart by.
     */
    private void duplicateCheck(UaNode parent, QualifiedName browseName) {
        for (UaReference r : parent.references()) {
            if (r.forward() && r.targetId().isLocal() && nodes.isHierarchical(r.referenceTypeId())) {
                UaNode child = nodes.find(r.targetId().nodeId());
                if (child != null && browseName.equals(child.browseName())) {
                    throw new UaException(StatusCodes.BadBrowseNameDuplicated,
                            parent.nodeId() + " has a child " + browseName + " already: " + child.nodeId());
                }
            }
        }
    }

    private NodeId generatedId(UaNode parent, QualifiedName browseName) {
        NodeId parentId = parent.nodeId();
        int ns = parentId.namespaceIndex();
        String base = parentId.idType() == IdType.String ? parentId.stringId() + "." + browseName.name()
                : parentId.idType() == IdType.Numeric && ns != 0 ? parentId.numericId() + "." + browseName.name()
                : browseName.name();
        NodeId id = NodeId.string(ns, base);
        for (int n = 2; nodes.find(id) != null && n <= MAX_SUFFIX; n++) {
            id = NodeId.string(ns, base + "~" + n);
        }
        return nodes.find(id) == null ? id : NodeId.guid(ns, UUID.randomUUID());
    }

    /** Removes a node whose children could not all be created, and what was created of them. */
    private static void undo(NodeStore store, UaNode parent, NodeId referenceType, UaNode node, List<UaNode> children) {
        for (UaNode child : children) {
            store.remove(child.nodeId());
        }
        store.remove(node.nodeId());
        parent.removeReference(UaReference.forward(referenceType, node.nodeId()));
    }
}
