package dev.opcua.stack.server.services.nodemanagement;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.NodeClass;
import dev.opcua.stack.core.types.structured.ModelChangeStructureDataType;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.subscriptions.events.ModelChanges;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The changes one NodeManagement request made, one entry per affected node with the verbs of all its
 * changes ORed together (the compression of Part 3, 9.32.7), for one GeneralModelChangeEvent (Part 5,
 * 12.16 ModelChangeStructureDataType: the node, its TypeDefinition for an Object or Variable, the verb).
 */
final class ModelChangeList {

    private static final NodeId HAS_TYPE_DEFINITION = NodeId.ns0(NodeIds.HasTypeDefinition);

    private record Entry(NodeId type, short verb) {
    }

    private final Map<NodeId, Entry> entries = new LinkedHashMap<>();

    void nodeAdded(UaNode node, NodeId type) {
        add(node.nodeId(), type, (short) (ModelChanges.NODE_ADDED | ModelChanges.REFERENCE_ADDED));
    }

    void nodeDeleted(UaNode node) {
        add(node.nodeId(), typeDefinition(node), ModelChanges.NODE_DELETED);
    }

    void referenceAdded(UaNode node) {
        add(node.nodeId(), typeDefinition(node), ModelChanges.REFERENCE_ADDED);
    }

    void referenceDeleted(UaNode node) {
        add(node.nodeId(), typeDefinition(node), ModelChanges.REFERENCE_DELETED);
    }

    boolean isEmpty() {
        return entries.isEmpty();
    }

    /** The nodes added, in the order they were added. */
    List<NodeId> added() {
        return withVerb(ModelChanges.NODE_ADDED);
    }

    /** The nodes deleted. */
    List<NodeId> deleted() {
        return withVerb(ModelChanges.NODE_DELETED);
    }

    private List<NodeId> withVerb(short verb) {
        List<NodeId> nodes = new ArrayList<>();
        entries.forEach((node, entry) -> {
            if ((entry.verb() & verb) != 0) {
                nodes.add(node);
            }
        });
        return nodes;
    }

    /** The entries in the order the nodes were first affected. */
    List<ModelChangeStructureDataType> changes() {
        List<ModelChangeStructureDataType> changes = new ArrayList<>(entries.size());
        entries.forEach((node, entry) -> changes.add(new ModelChangeStructureDataType(node, entry.type(), entry.verb())));
        return changes;
    }

    private void add(NodeId node, NodeId type, short verb) {
        entries.merge(node, new Entry(type, verb), (old, added) -> new Entry(old.type(), (short) (old.verb() | verb)));
    }

    /** The TypeDefinition of an Object or Variable, NodeId.NULL for other node classes (Part 5, 12.16). */
    static NodeId typeDefinition(UaNode node) {
        if (node.nodeClass() != NodeClass.Object && node.nodeClass() != NodeClass.Variable) {
            return NodeId.NULL;
        }
        for (UaReference r : node.references()) {
            if (r.forward() && HAS_TYPE_DEFINITION.equals(r.referenceTypeId()) && r.targetId().isLocal()) {
                return r.targetId().nodeId();
            }
        }
        return NodeId.NULL;
    }
}
