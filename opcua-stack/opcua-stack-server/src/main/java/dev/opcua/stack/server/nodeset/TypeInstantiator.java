package dev.opcua.stack.server.nodeset;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.IdType;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.server.addressspace.MethodNode;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.ObjectNode;
import dev.opcua.stack.server.addressspace.ObjectTypeNode;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.addressspace.VariableNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Creates an Object of an ObjectType (imported or standard) with the children its type requires
 * (Part 3, 6.4: the InstanceDeclarations with ModellingRule Mandatory), recursively.
 *
 * <p>The declarations come from the type, its supertypes, and the Interfaces it and they implement
 * (HasInterface, Part 3, 6.9) with their supertypes; a declaration of a subtype overrides the one of
 * the same BrowseName further up. A child Object or Variable is a copy of its declaration (name,
 * texts, DataType, ValueRank, access, the declared value as the initial one) with the declaration's
 * type definition and its own Mandatory children; Methods are not copied, the instance references
 * the declared Method (Part 3, 5.7 lets Objects share one). Children get string NodeIds in the
 * instance's namespace: the instance's identifier, a dot, the child's BrowseName ("Line1.Identification.Manufacturer").
 * The nodes go into the store of the node manager that owns that namespace.
 */
public final class TypeInstantiator {

    private static final NodeId HAS_TYPE_DEFINITION = NodeId.ns0(NodeIds.HasTypeDefinition);
    private static final NodeId HAS_MODELLING_RULE = NodeId.ns0(NodeIds.HasModellingRule);
    private static final NodeId MANDATORY = NodeId.ns0(NodeIds.ModellingRule_Mandatory);
    private static final NodeId OPTIONAL = NodeId.ns0(NodeIds.ModellingRule_Optional);
    private static final NodeId HAS_INTERFACE = NodeId.ns0(NodeIds.HasInterface);
    /** Deeper than any real model: guards against a type that (indirectly) contains itself. */
    private static final int MAX_DEPTH = 16;

    private final Function<NodeId, UaNode> nodes;
    private final Function<NodeId, NodeStore> stores;
    private final Predicate<NodeId> isAggregate;

    /**
     * @param nodes finds any node of the server
     * @param stores the store of the in-memory node manager owning a NodeId's namespace, or null
     * @param isAggregate whether a reference type is Aggregates or one of its subtypes (HasComponent, HasProperty ...)
     */
    public TypeInstantiator(Function<NodeId, UaNode> nodes, Function<NodeId, NodeStore> stores,
            Predicate<NodeId> isAggregate) {
        this.nodes = nodes;
        this.stores = stores;
        this.isAggregate = isAggregate;
    }

    /**
     * Creates the object and its mandatory children.
     *
     * @param type a concrete ObjectType
     * @param instanceId the new object's NodeId, in a namespace of an in-memory node manager
     * @param browseName the new object's BrowseName
     * @param parent the node that references it (a folder or an object)
     * @param referenceType the reference from the parent (Organizes, HasComponent, HasAddIn ...)
     * @return the new object
     * @throws IllegalArgumentException naming the id when the type is not a concrete ObjectType, the
     *     parent is unknown, the namespace has no in-memory node manager, or a node id exists already
     */
    public ObjectNode instantiate(NodeId type, NodeId instanceId, QualifiedName browseName, NodeId parent,
            NodeId referenceType) {
        return instantiate(type, instanceId, browseName, parent, referenceType, Set.of());
    }

    /**
     * Creates the object, its mandatory children and those of its Optional children (Part 3, 6.4.4.4.3)
     * whose BrowseNames are given, e.g. the ones an application has values for.
     *
     * @param optionalChildren BrowseNames (name part) of Optional InstanceDeclarations of the type to create too
     * @see #instantiate(NodeId, NodeId, QualifiedName, NodeId, NodeId)
     */
    public ObjectNode instantiate(NodeId type, NodeId instanceId, QualifiedName browseName, NodeId parent,
            NodeId referenceType, Set<String> optionalChildren) {
        Objects.requireNonNull(browseName, "browseName");
        if (!(nodes.apply(type) instanceof ObjectTypeNode objectType) || objectType.isAbstract()) {
            throw new IllegalArgumentException(type + " is not a concrete ObjectType of this server");
        }
        UaNode parentNode = nodes.apply(parent);
        if (parentNode == null) {
            throw new IllegalArgumentException("parent " + parent + " is not a node of this server");
        }
        NodeStore store = stores.apply(instanceId);
        if (store == null) {
            throw new IllegalArgumentException("namespace " + instanceId.namespaceIndex() + " of " + instanceId
                    + " has no in-memory node manager to hold the instance");
        }
        ObjectNode instance = new ObjectNode(instanceId, browseName, null, null, 0, 0, (short) 0);
        instance.addReferences(new UaReference[] {UaReference.forward(HAS_TYPE_DEFINITION, type),
            UaReference.inverse(referenceType, parent)});
        store.add(instance);
        parentNode.addReference(UaReference.forward(referenceType, instanceId));
        addChildren(store, instance, declarations(objectType, null, optionalChildren), 0, null);
        return instance;
    }

    /**
     * Creates the Mandatory children (Part 3, 6.4.4.4.3) of an Object or Variable already in the store of
     * its namespace's in-memory node manager, as its type definition declares them, recursively: what
     * AddNodes does for a node of a type (Part 4, 5.7.2).
     *
     * @param instance the new node, holding its HasTypeDefinition reference
     * @param type its ObjectType or VariableType
     * @param created where each node created goes, parents before children: what to remove again when
     *     this throws half way
     * @throws IllegalArgumentException naming the id when a child's NodeId is taken, or the namespace has
     *     no in-memory node manager
     */
    public void addMandatoryChildren(UaNode instance, UaNode type, List<UaNode> created) {
        NodeStore store = stores.apply(instance.nodeId());
        if (store == null) {
            throw new IllegalArgumentException("namespace " + instance.nodeId().namespaceIndex() + " of "
                    + instance.nodeId() + " has no in-memory node manager to hold the children");
        }
        addChildren(store, instance, declarations(type, null, Set.of()), 0, created);
    }

    /**
     * The BrowseNames (name part) of the Object and Variable InstanceDeclarations an instance of the type
     * may have directly below it, Mandatory or Optional, from the type, its supertypes and interfaces.
     *
     * @throws IllegalArgumentException when the type is not an ObjectType of this server
     */
    public Set<String> declaredChildren(NodeId type) {
        if (!(nodes.apply(type) instanceof ObjectTypeNode objectType)) {
            throw new IllegalArgumentException(type + " is not an ObjectType of this server");
        }
        Set<String> names = new LinkedHashSet<>();
        declarations(objectType, null, null).forEach((name, declaration) -> {
            if (!(declaration.node() instanceof MethodNode)) {
                names.add(name);
            }
        });
        return names;
    }

    /** One InstanceDeclaration: the reference type from its parent and the declaring node. */
    private record Declaration(NodeId referenceType, UaNode node) {
    }

    /**
     * The mandatory declarations of a declaring node (own children first), then of its type definition;
     * and the Optional ones named in {@code optional} (every one when it is null).
     */
    private Map<String, Declaration> declarations(UaNode declaring, Map<String, Declaration> into,
            Set<String> optional) {
        Map<String, Declaration> found = into != null ? into : new LinkedHashMap<>();
        if (declaring instanceof ObjectTypeNode || declaring instanceof dev.opcua.stack.server.addressspace.VariableTypeNode) {
            List<UaNode> types = new ArrayList<>();
            for (UaNode t = declaring; t != null && types.size() < MAX_DEPTH; t = supertype(t)) {
                types.add(t);
            }
            for (UaNode t : types) {
                own(t, found, optional);
                for (UaReference r : t.references()) {
                    if (r.forward() && r.referenceTypeId().equals(HAS_INTERFACE) && r.targetId().isLocal()) {
                        for (UaNode i = nodes.apply(r.targetId().nodeId()); i != null; i = supertype(i)) {
                            own(i, found, optional);
                        }
                    }
                }
            }
            return found;
        }
        own(declaring, found, optional);
        UaNode typeDefinition = typeDefinition(declaring);
        return typeDefinition == null ? found : declarations(typeDefinition, found, optional);
    }

    /** Adds the node's own mandatory (and chosen optional) aggregated children whose names are not taken yet. */
    private void own(UaNode node, Map<String, Declaration> found, Set<String> optional) {
        for (UaReference r : node.references()) {
            if (!r.forward() || !r.targetId().isLocal() || !isAggregate.test(r.referenceTypeId())) {
                continue;
            }
            UaNode child = nodes.apply(r.targetId().nodeId());
            if (child != null && (hasRule(child, MANDATORY) || hasRule(child, OPTIONAL)
                    && (optional == null || optional.contains(child.browseName().name())))) {
                found.putIfAbsent(child.browseName().name(), new Declaration(r.referenceTypeId(), child));
            }
        }
    }

    private void addChildren(NodeStore store, UaNode parent, Map<String, Declaration> declarations, int depth,
            List<UaNode> created) {
        if (depth >= MAX_DEPTH) {
            throw new IllegalArgumentException("instance declarations nest deeper than " + MAX_DEPTH + " below "
                    + parent.nodeId() + ": does a type contain itself?");
        }
        for (Declaration declaration : declarations.values()) {
            UaNode node = declaration.node();
            NodeId referenceType = declaration.referenceType();
            if (node instanceof MethodNode) {
                parent.addReference(UaReference.forward(referenceType, node.nodeId()));
                continue;
            }
            NodeId childId = NodeId.string(parent.nodeId().namespaceIndex(),
                    identifier(parent.nodeId()) + "." + node.browseName().name());
            UaNode child = copy(node, childId);
            if (child == null) {
                continue; // a declaration of another node class (a View): nothing an instance holds
            }
            UaNode typeDefinition = typeDefinition(node);
            List<UaReference> references = new ArrayList<>(2);
            references.add(UaReference.inverse(referenceType, parent.nodeId()));
            if (typeDefinition != null) {
                references.add(UaReference.forward(HAS_TYPE_DEFINITION, typeDefinition.nodeId()));
            }
            child.addReferences(references.toArray(new UaReference[0]));
            store.add(child);
            if (created != null) {
                created.add(child);
            }
            parent.addReference(UaReference.forward(referenceType, childId));
            addChildren(store, child, declarations(node, null, Set.of()), depth + 1, created);
        }
    }

    private static UaNode copy(UaNode declaration, NodeId id) {
        if (declaration instanceof ObjectNode o) {
            return new ObjectNode(id, o.browseName(), o.displayName(), o.description(), o.writeMask(),
                    o.userWriteMask(), o.eventNotifier());
        }
        if (declaration instanceof VariableNode v) {
            return new VariableNode(id, v.browseName(), v.displayName(), v.description(), v.writeMask(),
                    v.userWriteMask(), v.value(), v.valueAttributes(), v.accessLevel(), v.userAccessLevel(),
                    v.minimumSamplingInterval(), v.historizing(), v.accessLevelEx());
        }
        return null;
    }

    private static String identifier(NodeId id) {
        return id.idType() == IdType.String ? id.stringId() : String.valueOf(id.identifier());
    }

    private static boolean hasRule(UaNode node, NodeId rule) {
        for (UaReference r : node.references()) {
            if (r.forward() && r.referenceTypeId().equals(HAS_MODELLING_RULE) && r.targetId().isLocal()
                    && r.targetId().nodeId().equals(rule)) {
                return true;
            }
        }
        return false;
    }

    private UaNode typeDefinition(UaNode node) {
        for (UaReference r : node.references()) {
            if (r.forward() && r.referenceTypeId().equals(HAS_TYPE_DEFINITION) && r.targetId().isLocal()) {
                return nodes.apply(r.targetId().nodeId());
            }
        }
        return null;
    }

    private UaNode supertype(UaNode type) {
        for (UaReference r : type.references()) {
            if (!r.forward() && r.referenceTypeId().equals(DataTypes.HAS_SUBTYPE) && r.targetId().isLocal()) {
                return nodes.apply(r.targetId().nodeId());
            }
        }
        return null;
    }
}
