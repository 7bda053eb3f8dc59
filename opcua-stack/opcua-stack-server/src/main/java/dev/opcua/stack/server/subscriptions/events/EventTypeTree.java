package dev.opcua.stack.server.subscriptions.events;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.ObjectNode;
import dev.opcua.stack.server.addressspace.ObjectTypeNode;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.addressspace.VariableNode;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The ObjectType hierarchy as events need it (Part 3, 6.4 and Part 5, 6.4): the supertype of each
 * ObjectType, to answer OfType and the typeDefinitionId of a SimpleAttributeOperand (Part 4, 7.7.3 and
 * 7.7.4.5), and the browse paths of the InstanceDeclarations each event type declares, to validate
 * select and where clauses.
 *
 * <p>A subtype test walks the cached parent map from the type upwards, so it costs O(depth) map
 * lookups and allocates nothing. Lookups take no lock; node managers {@link #register} their own
 * event types while the server runs.
 */
public final class EventTypeTree {

    public static final NodeId BASE_EVENT_TYPE = NodeId.ns0(NodeIds.BaseEventType);

    /** Bound on a walk up the hierarchy, so that a cycle in a faulty model cannot loop forever. */
    private static final int MAX_DEPTH = 64;
    /** Bound on the nesting of InstanceDeclarations collected below an event type. */
    private static final int MAX_FIELD_DEPTH = 6;

    private static final NodeId HAS_SUBTYPE = NodeId.ns0(NodeIds.HasSubtype);
    private static final NodeId HAS_MODELLING_RULE = NodeId.ns0(NodeIds.HasModellingRule);
    private static final Set<NodeId> AGGREGATES = Set.of(NodeId.ns0(NodeIds.HasComponent),
            NodeId.ns0(NodeIds.HasProperty), NodeId.ns0(NodeIds.HasOrderedComponent));

    /** An ObjectType: its supertype (null for the root) and the field paths it declares itself. */
    private record TypeEntry(NodeId supertype, Set<FieldPath> declaredFields) {
    }

    private final ConcurrentHashMap<NodeId, TypeEntry> types = new ConcurrentHashMap<>();

    /** An empty tree; {@link #addTypes} or {@link #register} fill it. */
    public EventTypeTree() {
    }

    /** The tree of the ObjectTypes of a store (namespace 0 holds BaseEventType and the standard event types). */
    public static EventTypeTree of(NodeStore store) {
        EventTypeTree tree = new EventTypeTree();
        tree.addTypes(store);
        return tree;
    }

    /**
     * Adds the ObjectTypes of a store, found through their HasSubtype references in either direction,
     * and for those that are event types the InstanceDeclarations below them (HasComponent,
     * HasProperty or HasOrderedComponent to Objects and Variables that have a modelling rule). A
     * supertype may be in the store or already in this tree. Types known already are kept.
     */
    public void addTypes(NodeStore store) {
        Map<NodeId, NodeId> supertypes = new HashMap<>();
        for (UaNode node : store.nodes()) {
            if (node instanceof ObjectTypeNode) {
                for (UaReference r : node.references()) {
                    if (r.referenceTypeId().equals(HAS_SUBTYPE) && r.targetId().isLocal()) {
                        NodeId other = r.targetId().nodeId();
                        if (!r.forward()) {
                            supertypes.put(node.nodeId(), other);
                        } else if (store.get(other) instanceof ObjectTypeNode) {
                            supertypes.put(other, node.nodeId());
                        }
                    }
                }
                supertypes.putIfAbsent(node.nodeId(), null);
            }
        }
        for (Map.Entry<NodeId, NodeId> e : supertypes.entrySet()) {
            types.putIfAbsent(e.getKey(), new TypeEntry(e.getValue(), Set.of()));
        }
        for (NodeId type : supertypes.keySet()) {
            if (isEventType(type)) {
                Set<FieldPath> declared = new HashSet<>();
                collectDeclarations(store, store.get(type), FieldPath.EMPTY, 1, declared);
                TypeEntry entry = types.get(type);
                if (entry.declaredFields().isEmpty() && !declared.isEmpty()) {
                    types.replace(type, entry, new TypeEntry(entry.supertype(), Set.copyOf(declared)));
                }
            }
        }
    }

    private static void collectDeclarations(NodeStore store, UaNode parent, FieldPath prefix, int depth,
            Set<FieldPath> out) {
        for (UaReference r : parent.references()) {
            if (!r.forward() || !AGGREGATES.contains(r.referenceTypeId()) || !r.targetId().isLocal()) {
                continue;
            }
            UaNode child = store.get(r.targetId().nodeId());
            if ((child instanceof VariableNode || child instanceof ObjectNode) && hasModellingRule(child)) {
                FieldPath path = prefix.append(child.browseName());
                out.add(path);
                if (depth < MAX_FIELD_DEPTH) {
                    collectDeclarations(store, child, path, depth + 1, out);
                }
            }
        }
    }

    private static boolean hasModellingRule(UaNode node) {
        for (UaReference r : node.references()) {
            if (r.forward() && r.referenceTypeId().equals(HAS_MODELLING_RULE)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Registers an ObjectType of a node manager, typically an event type, with the fields it declares
     * itself (those of its supertypes are inherited).
     *
     * @throws IllegalArgumentException when the type is known already or the supertype is unknown
     */
    public void register(NodeId type, NodeId supertype, Collection<FieldPath> declaredFields) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(supertype, "supertype");
        if (!types.containsKey(supertype)) {
            throw new IllegalArgumentException("supertype " + supertype + " of " + type + " is not a known ObjectType");
        }
        TypeEntry previous = types.putIfAbsent(type, new TypeEntry(supertype, Set.copyOf(declaredFields)));
        if (previous != null) {
            throw new IllegalArgumentException("ObjectType " + type + " is registered already");
        }
    }

    /** Whether the id names a known ObjectType. */
    public boolean isKnown(NodeId type) {
        return types.containsKey(type);
    }

    /** The number of known ObjectTypes. */
    public int size() {
        return types.size();
    }

    /** The supertype, or null for the root or an unknown type. */
    public NodeId supertypeOf(NodeId type) {
        TypeEntry entry = types.get(type);
        return entry == null ? null : entry.supertype();
    }

    /** Whether the type is BaseEventType or one of its subtypes. */
    public boolean isEventType(NodeId type) {
        return isSubtypeOf(type, BASE_EVENT_TYPE);
    }

    /** Whether {@code type} is {@code base} or one of its subtypes; O(depth), no allocation. */
    public boolean isSubtypeOf(NodeId type, NodeId base) {
        NodeId current = type;
        for (int i = 0; i < MAX_DEPTH && current != null; i++) {
            if (current.equals(base)) {
                return true;
            }
            TypeEntry entry = types.get(current);
            current = entry == null ? null : entry.supertype();
        }
        return false;
    }

    /**
     * Whether an event of type {@code eventType} counts as an instance of {@code base}. An event type
     * this tree does not know (a node manager did not register it) counts as a direct subtype of
     * BaseEventType, so that its events still pass {@code OfType(BaseEventType)}.
     */
    boolean isEventOfType(NodeId eventType, NodeId base) {
        return isSubtypeOf(eventType, base) || base.equals(BASE_EVENT_TYPE) && !types.containsKey(eventType);
    }

    /** Whether the type or one of its supertypes declares a field with this browse path. */
    public boolean declares(NodeId type, FieldPath path) {
        NodeId current = type;
        for (int i = 0; i < MAX_DEPTH && current != null; i++) {
            TypeEntry entry = types.get(current);
            if (entry == null) {
                return false;
            }
            if (entry.declaredFields().contains(path)) {
                return true;
            }
            current = entry.supertype();
        }
        return false;
    }
}
