package dev.opcua.spring.boot.server.annotation;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StandardDataTypes;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.nodes.NamespaceTable;
import dev.opcua.stack.server.nodeset.TypeInstantiator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Makes the objects of a {@link UaObject#type()} instances of their ObjectType (Part 3, 6.4: the type's
 * Mandatory children and the Optional ones the object binds) in the node manager's namespace, and binds
 * the object's variables to the instance's children: reads and writes go to the bean's members.
 */
final class UaTypedObjects {

    private static final NodeId HAS_COMPONENT = NodeId.ns0(NodeIds.HasComponent);
    /** CurrentWrite of AccessLevel and UserAccessLevel (Part 3, 8.57). */
    private static final int CURRENT_WRITE = 0x02;

    private final InMemoryNodeManager nodes;
    private final Map<String, UaObjectModel> typedObjects;
    private final List<UaVariableBinding> variables;
    private final UaBeanMemberAccess access;

    /**
     * @param typedObjects the objects of a type by their paths
     * @param variables every variable of the namespace; those of typed objects are bound
     */
    UaTypedObjects(InMemoryNodeManager nodes, Map<String, UaObjectModel> typedObjects,
            List<UaVariableBinding> variables, UaBeanMemberAccess access) {
        this.nodes = nodes;
        this.typedObjects = typedObjects;
        this.variables = variables;
        this.access = access;
    }

    /**
     * Instantiates every typed object and binds its variables.
     *
     * @param namespaces where the types' namespaces are looked up
     * @throws OpcUaAnnotationException naming the bean, the member and the type when the type is unknown, or a
     *     variable names no child of the type or does not fit its DataType
     */
    void instantiate(TypeInstantiator instances, NamespaceTable namespaces) {
        int ns = nodes.namespaceIndex();
        for (Map.Entry<String, UaObjectModel> typed : typedObjects.entrySet()) {
            String path = typed.getKey();
            UaObjectModel object = typed.getValue();
            NodeId type = resolve(object, namespaces);
            Set<String> children;
            try {
                children = instances.declaredChildren(type);
            } catch (IllegalArgumentException e) {
                throw new OpcUaAnnotationException(object.where() + ": @UaObject type " + object.type()
                        + " is no ObjectType of the server (" + e.getMessage() + ")");
            }
            Set<String> bound = new LinkedHashSet<>();
            for (UaVariableModel variable : object.variables()) {
                if (!children.contains(variable.browseName())) {
                    throw new OpcUaAnnotationException(variable.member() + ": names no child of the type "
                            + object.type() + " (" + object.where() + "); its children are " + children);
                }
                bound.add(variable.browseName());
            }
            int dot = path.lastIndexOf('.');
            NodeId instanceId = NodeId.string(ns, path);
            try {
                instances.instantiate(type, instanceId, QualifiedName.of(ns, object.browseName()),
                        nodes.nodeId(path.substring(0, dot)), HAS_COMPONENT, bound);
            } catch (IllegalArgumentException e) {
                throw new OpcUaAnnotationException(object.where() + ": instantiating the type " + object.type()
                        + " failed: " + e.getMessage());
            }
        }
        for (UaVariableBinding binding : variables) {
            if (binding.typed) {
                bind(binding);
            }
        }
    }

    /** The NodeId of a typed object's type, with the server's namespace index. */
    private static NodeId resolve(UaObjectModel object, NamespaceTable namespaces) {
        ExpandedNodeId type = object.type();
        if (type.namespaceUri() == null) {
            return type.nodeId();
        }
        int index = namespaces.indexOf(type.namespaceUri());
        if (index < 0) {
            throw new OpcUaAnnotationException(object.where() + ": @UaObject type " + type + " is in the namespace "
                    + type.namespaceUri() + ", which the server does not have; load its NodeSet2 file "
                    + "(opcua.server.nodesets)");
        }
        return type.nodeId().withNamespaceIndex(index);
    }

    /** Makes an instance's child Variable read (and write) the bean's member. */
    private void bind(UaVariableBinding binding) {
        UaVariableModel variable = binding.model;
        if (!(nodes.store().get(binding.nodeId) instanceof VariableNode child)) {
            throw new OpcUaAnnotationException(variable.member() + ": the child " + variable.browseName()
                    + " of its object's type is no Variable");
        }
        BuiltinType expected = StandardDataTypes.encodingOf(child.valueAttributes().dataType());
        int rank = child.valueAttributes().valueRank();
        boolean rankFits = rank == -1 ? variable.valueRank() == -1 : rank < 1 || variable.valueRank() != -1;
        if (expected != null && expected != BuiltinType.Variant && (expected != variable.builtinType() || !rankFits)) {
            throw new OpcUaAnnotationException(variable.member() + ": holds " + variable.builtinType()
                    + (variable.valueRank() == -1 ? "" : " array") + ", but the child " + variable.browseName()
                    + " of its object's type has the DataType " + expected + " and ValueRank " + rank
                    + "; use a Java type that maps to it (see @UaVariable dataType)");
        }
        VariableNode bound = child;
        // CurrentWrite as the member allows: a value the bean never sees must not be writable
        int write = variable.writable() ? CURRENT_WRITE : 0;
        if ((child.accessLevel() & CURRENT_WRITE) != write || (child.userAccessLevel() & CURRENT_WRITE) != write) {
            bound = new VariableNode(child.nodeId(), child.browseName(), child.displayName(), child.description(),
                    child.writeMask(), child.userWriteMask(), child.value(), child.valueAttributes(),
                    (short) (child.accessLevel() & ~CURRENT_WRITE | write),
                    (short) (child.userAccessLevel() & ~CURRENT_WRITE | write),
                    child.minimumSamplingInterval(), child.historizing(),
                    child.accessLevelEx() & ~(long) CURRENT_WRITE | write);
            bound.addReferences(child.references());
            nodes.store().remove(child.nodeId());
            nodes.store().add(bound);
        }
        bound.setValueSource(() -> access.readValue(variable));
        if (variable.writable()) {
            nodes.onWrite(bound.nodeId(), (context, value) -> access.write(binding, value));
        }
    }
}
