package dev.opcua.stack.server.nodeset;

import dev.opcua.stack.core.encoding.generic.GenericStructure;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.structured.Argument;
import dev.opcua.stack.core.types.structured.StructureDefinition;
import dev.opcua.stack.core.types.structured.StructureField;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.nodes.NamespaceTable;
import dev.opcua.stack.server.nodes.NodeStoreNodeManager;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The nodes of one namespace described attribute by attribute, reference by reference and value by
 * value, with namespace URIs where the server has indexes: two servers whose tables number the
 * namespaces differently compare node for node.
 */
final class NamespaceSnapshot {

    private final NamespaceTable namespaces;

    private NamespaceSnapshot(NamespaceTable namespaces) {
        this.namespaces = namespaces;
    }

    /** Node (by its id) to its description, for every node of the namespace in its in-memory node manager. */
    static Map<String, String> of(OpcUaServer server, String namespaceUri) {
        int ns = server.namespaces().indexOf(namespaceUri);
        if (!(server.nodeManagers().managerOf(NodeId.numeric(ns, 0)) instanceof NodeStoreNodeManager manager)) {
            throw new IllegalArgumentException(namespaceUri + " has no in-memory node manager");
        }
        List<UaNode> nodes = manager.store().nodes().stream().filter(n -> n.nodeId().namespaceIndex() == ns).toList();
        return of(server.namespaces(), nodes);
    }

    static Map<String, String> of(NamespaceTable namespaces, Collection<UaNode> nodes) {
        NamespaceSnapshot snapshot = new NamespaceSnapshot(namespaces);
        Map<String, String> described = new TreeMap<>();
        for (UaNode node : nodes) {
            described.put(snapshot.text(node.nodeId()), snapshot.describe(node));
        }
        return described;
    }

    /** The nodes that differ, each with both descriptions; empty when the snapshots are equal. */
    static List<String> differences(Map<String, String> expected, Map<String, String> actual) {
        List<String> differences = new ArrayList<>();
        TreeSet<String> ids = new TreeSet<>(expected.keySet());
        ids.addAll(actual.keySet());
        for (String id : ids) {
            String e = expected.get(id);
            String a = actual.get(id);
            if (!java.util.Objects.equals(e, a)) {
                differences.add(id + ":\n  expected " + e + "\n  actual   " + a);
            }
        }
        return differences;
    }

    private String describe(UaNode node) {
        StringBuilder s = new StringBuilder(node.nodeClass().name());
        for (int attribute = AttributeIds.NodeId; attribute <= AttributeIds.AccessLevelEx; attribute++) {
            Variant value = attribute == AttributeIds.Value && node instanceof VariableNode variable
                    ? variable.value().value() : node.attribute(attribute);
            if (value != null) {
                s.append(' ').append(attribute).append('=').append(text(value));
            }
        }
        TreeSet<String> references = new TreeSet<>();
        for (UaReference r : node.references()) {
            references.add((r.forward() ? "" : "inverse ") + text(r.referenceTypeId()) + " " + text(r.targetId()));
        }
        return s.append(" references=").append(references).toString();
    }

    private String text(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof Variant v) {
            return v.isNull() ? "null" : v.type() + ":" + text(v.value());
        }
        if (value instanceof NodeId id) {
            return id.namespaceIndex() == 0 ? id.toString()
                    : ExpandedNodeId.of(id, namespaces.uri(id.namespaceIndex()), 0).toString();
        }
        if (value instanceof ExpandedNodeId id) {
            return id.isLocal() ? text(id.nodeId()) : id.toString();
        }
        if (value instanceof QualifiedName name) {
            return name.namespaceIndex() == 0 ? name.name() : namespaces.uri(name.namespaceIndex()) + ":" + name.name();
        }
        if (value.getClass().isArray()) {
            StringJoiner items = new StringJoiner(", ", "[", "]");
            for (int i = 0; i < Array.getLength(value); i++) {
                items.add(text(Array.get(value, i)));
            }
            return items.toString();
        }
        if (value instanceof ExtensionObject eo) {
            return eo.isDecoded() ? text(eo.decoded()) : "ExtensionObject{" + text(eo.encodingId()) + ", " + eo.bodyType()
                    + ", " + (eo.xmlBody() != null ? eo.xmlBody() : eo.rawBody()) + "}";
        }
        if (value instanceof GenericStructure g) {
            StringJoiner fields = new StringJoiner(", ", g.layout().name() + "{", "}");
            for (int i = 0; i < g.layout().fields().size(); i++) {
                if (g.isPresent(i)) {
                    fields.add(g.layout().fields().get(i).name() + "=" + text(g.get(i)));
                }
            }
            return fields.toString();
        }
        if (value instanceof StructureDefinition d) {
            StringJoiner fields = new StringJoiner(", ", "StructureDefinition{" + text(d.defaultEncodingId()) + " "
                    + text(d.baseDataType()) + " " + d.structureType() + " [", "]}");
            for (StructureField f : d.fields() == null ? new StructureField[0] : d.fields()) {
                fields.add(f.name() + " " + f.description() + " " + text(f.dataType()) + " " + f.valueRank() + " "
                        + Arrays.toString(f.arrayDimensions()) + " " + f.maxStringLength() + " " + f.isOptional());
            }
            return fields.toString();
        }
        if (value instanceof Argument a) {
            return "Argument{" + a.name() + " " + text(a.dataType()) + " " + a.valueRank() + " "
                    + Arrays.toString(a.arrayDimensions()) + " " + a.description() + "}";
        }
        if (value instanceof UaStructure) {
            return value.toString(); // the other structures in these tests hold no namespace indexes
        }
        return String.valueOf(value);
    }
}
