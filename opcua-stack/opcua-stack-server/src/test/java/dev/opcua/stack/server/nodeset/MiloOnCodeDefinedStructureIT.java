package dev.opcua.stack.server.nodeset;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.encoding.generic.FieldEncoding;
import dev.opcua.stack.core.encoding.generic.GenericStructure;
import dev.opcua.stack.core.encoding.generic.GenericStructureCodec;
import dev.opcua.stack.core.encoding.generic.StructureLayout;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.StructureType;
import dev.opcua.stack.core.types.structured.StructureDefinition;
import dev.opcua.stack.core.types.structured.StructureField;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.addressspace.DataTypeNode;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.ObjectNode;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.addressspace.ValueAttributes;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.nodes.NodeStoreNodeManager;
import dev.opcua.stack.server.testing.MiloClients;
import java.util.List;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.core.types.DynamicStructType;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A structure defined in code rather than in a nodeset: its DataType (with StructureDefinition) and
 * encoding nodes in the application's node manager, its generic codec given to the builder; Milo's
 * client decodes the value and writes a new one.
 */
class MiloOnCodeDefinedStructureIT {

    private static final String NS = "urn:test:code-structures";
    private static OpcUaServer server;
    private static OpcUaClient client;
    private static VariableNode position;

    @BeforeAll
    static void start() throws Exception {
        NodeStore store = new NodeStore(3);
        // the namespace index is that of the first application namespace: 2
        NodeId point = NodeId.numeric(2, 1);
        NodeId encoding = NodeId.numeric(2, 2);
        StructureDefinition definition = new StructureDefinition(encoding, NodeId.ns0(NodeIds.Structure),
                StructureType.Structure, new StructureField[] {
                    new StructureField("X", null, NodeId.ns0(NodeIds.Double), -1, null, 0, false),
                    new StructureField("Y", null, NodeId.ns0(NodeIds.Double), -1, null, 0, false)});
        StructureLayout layout = StructureLayout.of(point, "Point", definition,
                id -> new FieldEncoding.Builtin(BuiltinType.Double));
        DataTypeNode type = new DataTypeNode(point, QualifiedName.of(2, "Point"), null, null, 0, 0, false,
                ExtensionObject.of(definition));
        type.addReferences(new UaReference[] {UaReference.inverse(NodeId.ns0(NodeIds.HasSubtype),
                NodeId.ns0(NodeIds.Structure)), UaReference.forward(NodeId.ns0(NodeIds.HasEncoding), encoding)});
        ObjectNode binary = new ObjectNode(encoding, QualifiedName.of(0, "Default Binary"), null, null, 0, 0, (short) 0);
        binary.addReferences(new UaReference[] {UaReference.forward(NodeId.ns0(NodeIds.HasTypeDefinition),
                NodeId.ns0(NodeIds.DataTypeEncodingType)), UaReference.inverse(NodeId.ns0(NodeIds.HasEncoding), point)});
        position = new VariableNode(NodeId.string(2, "Position"), QualifiedName.of(2, "Position"), null, null, 0, 0,
                DataValue.of(Variant.of(ExtensionObject.of(GenericStructure.builder(layout).set("X", 1.0)
                        .set("Y", 2.0).build()))), ValueAttributes.scalar(point), (short) 3, (short) 3, 0, false, 3);
        position.addReference(UaReference.inverse(NodeId.ns0(NodeIds.Organizes), NodeId.ns0(NodeIds.ObjectsFolder)));
        store.add(type);
        store.add(binary);
        store.add(position);
        server = OpcUaServer.builder()
                .applicationUri("urn:test:code-structures:server")
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("localhost"))
                .nodeManager(new NodeStoreNodeManager(List.of(NS), store))
                .codec(new GenericStructureCodec(layout))
                .build();
        assertThat(server.namespaces().indexOf(NS)).isEqualTo(2);
        server.start();
        client = MiloClients.anonymousOverNone(server.endpointUrl());
    }

    @AfterAll
    static void stop() throws Exception {
        if (client != null) {
            client.disconnect();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void milo_decodes_the_value_and_writes_a_new_one() throws Exception {
        org.eclipse.milo.opcua.stack.core.types.builtin.NodeId id =
                new org.eclipse.milo.opcua.stack.core.types.builtin.NodeId(2, "Position");
        org.eclipse.milo.opcua.stack.core.types.builtin.DataValue read = client.readValue(0, TimestampsToReturn.Both, id);
        DynamicStructType value = (DynamicStructType) ((org.eclipse.milo.opcua.stack.core.types.builtin.ExtensionObject)
                read.getValue().getValue()).decode(client.getDynamicEncodingContext());
        assertThat(value.getMembers()).containsEntry("X", 1.0).containsEntry("Y", 2.0);

        value.getMembers().put("X", 5.0);
        org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode written = client.writeValues(List.of(id), List.of(
                new org.eclipse.milo.opcua.stack.core.types.builtin.DataValue(
                        new org.eclipse.milo.opcua.stack.core.types.builtin.Variant(
                                org.eclipse.milo.opcua.stack.core.types.builtin.ExtensionObject.encode(
                                        client.getDynamicEncodingContext(), value))))).get(0);
        assertThat(written.isGood()).as("write %s", written).isTrue();
        GenericStructure stored = ((ExtensionObject) position.value().value().value()).decoded(GenericStructure.class);
        assertThat(stored.get("X")).isEqualTo(5.0);
        assertThat(stored.get("Y")).isEqualTo(2.0);
    }
}
