package dev.opcua.stack.server.services.view;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.ReferenceTypeNode;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.addressspace.UaReference;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The ReferenceType hierarchy (Part 3, 5.3 and 7): which reference types are subtypes of which,
 * computed once from the HasSubtype references of the ReferenceType nodes, so that a Browse with
 * includeSubtypes tests each reference in constant time.
 */
public final class ReferenceTypeTree {

    private final Map<NodeId, Set<NodeId>> selfAndSubtypes;

    private ReferenceTypeTree(Map<NodeId, Set<NodeId>> selfAndSubtypes) {
        this.selfAndSubtypes = selfAndSubtypes;
    }

    /** Builds the tree from the ReferenceType nodes of a store (namespace 0 holds the standard ones). */
    public static ReferenceTypeTree of(NodeStore store) {
        return of(List.of(store));
    }

    /** Builds the tree from the ReferenceType nodes of several stores (namespace 0 and imported models). */
    public static ReferenceTypeTree of(Collection<NodeStore> stores) {
        NodeId hasSubtype = NodeId.ns0(NodeIds.HasSubtype);
        Map<NodeId, Set<NodeId>> children = new HashMap<>();
        for (UaNode node : (Iterable<UaNode>) stores.stream().flatMap(s -> s.nodes().stream())::iterator) {
            if (node instanceof ReferenceTypeNode) {
                Set<NodeId> direct = children.computeIfAbsent(node.nodeId(), k -> new HashSet<>());
                for (UaReference r : node.references()) {
                    if (r.forward() && r.referenceTypeId().equals(hasSubtype) && r.targetId().isLocal()) {
                        direct.add(r.targetId().nodeId());
                    }
                }
            }
        }
        Map<NodeId, Set<NodeId>> closure = new HashMap<>();
        for (NodeId type : children.keySet()) {
            Set<NodeId> all = new HashSet<>();
            ArrayDeque<NodeId> pending = new ArrayDeque<>();
            pending.add(type);
            while (!pending.isEmpty()) {
                NodeId next = pending.poll();
                if (all.add(next)) {
                    pending.addAll(children.getOrDefault(next, Set.of()));
                }
            }
            closure.put(type, Set.copyOf(all));
        }
        return new ReferenceTypeTree(Map.copyOf(closure));
    }

    /** Whether the id names a known ReferenceType. */
    public boolean isReferenceType(NodeId id) {
        return selfAndSubtypes.containsKey(id);
    }

    /** Whether {@code type} is {@code base} or, when {@code includeSubtypes}, one of its subtypes. */
    public boolean matches(NodeId type, NodeId base, boolean includeSubtypes) {
        if (type.equals(base)) {
            return true;
        }
        if (!includeSubtypes) {
            return false;
        }
        Set<NodeId> subtypes = selfAndSubtypes.get(base);
        return subtypes != null && subtypes.contains(type);
    }
}
