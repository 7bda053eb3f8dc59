package dev.opcua.stack.server.nodeset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;

import dev.opcua.stack.core.encoding.generic.GenericStructure;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.nodes.NodeStoreNodeManager;
import dev.opcua.stack.server.testing.MiloClients;
import java.util.LinkedHashMap;
import java.util.List;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.core.types.DynamicStructType;
import org.eclipse.milo.opcua.sdk.core.types.DynamicUnionType;
import org.eclipse.milo.opcua.stack.core.AttributeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.ExtensionObject;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.QualifiedName;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.EnumDefinition;
import org.eclipse.milo.opcua.stack.core.types.structured.EnumField;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadValueId;
import org.eclipse.milo.opcua.stack.core.types.structured.StructureDefinition;
import org.eclipse.milo.opcua.stack.core.types.enumerated.StructureType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Structures no generated class knows, from a model of our own (Test.Structures.NodeSet2.xml):
 * Milo 1.1.2's client reads their DataTypeDefinitions, builds its dynamic codecs from them, decodes
 * the values the server encodes generically (optional fields, nested structure, enumeration, array,
 * union), and writes changed values back, which the server decodes with the same generic codecs.
 */
class MiloOnImportedStructuresIT {

    private static final String NS = "urn:test:structures";
    private static OpcUaServer server;
    private static OpcUaClient client;

    @BeforeAll
    static void start() throws Exception {
        server = OpcUaServer.builder()
                .applicationUri("urn:test:structures:server")
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("localhost"))
                .nodeSet(MiloOnImportedStructuresIT.class.getResource("Test.Structures.NodeSet2.xml"))
                .build();
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

    private static NodeId id(int id) {
        return new NodeId(client.getNamespaceTable().getIndex(NS), uint(id));
    }

    @Test
    void milo_reads_the_definitions_of_a_structure_with_optional_fields_and_of_an_enumeration() throws Exception {
        StructureDefinition valve = (StructureDefinition) definition(id(3003));
        assertThat(valve.getStructureType()).isEqualTo(StructureType.StructureWithOptionalFields);
        assertThat(valve.getDefaultEncodingId()).isEqualTo(id(5003));
        assertThat(valve.getFields()[4].getIsOptional()).isTrue();
        assertThat(valve.getFields()[1].getDataType()).isEqualTo(id(3001));
        EnumDefinition state = (EnumDefinition) definition(id(3001));
        assertThat(state.getFields()).extracting(EnumField::getName).containsExactly("Closed", "Open", "Fault");
        assertThat(((StructureDefinition) definition(id(3004))).getStructureType()).isEqualTo(StructureType.Union);
    }

    @Test
    void milo_decodes_a_generic_structure_value_and_writes_a_changed_one_back() throws Exception {
        DataValue read = client.readValue(0, TimestampsToReturn.Both, id(6001));
        DynamicStructType valve = (DynamicStructType) ((ExtensionObject) read.getValue().getValue())
                .decode(client.getDynamicEncodingContext());
        LinkedHashMap<String, Object> members = valve.getMembers();
        assertThat(members.get("Name")).isEqualTo("V1");
        assertThat(members.get("Note")).isEqualTo("checked");
        assertThat((Double[]) members.get("Readings")).containsExactly(1.5, 2.5);
        assertThat(((DynamicStructType) members.get("Limits")).getMembers()).containsEntry("High", 9.5);
        assertThat(members.get("State").toString()).contains("Open");

        members.put("Name", "V1-renamed");
        members.put("Note", null); // the optional field becomes absent
        StatusCode written = write(6001, new Variant(ExtensionObject.encode(client.getDynamicEncodingContext(), valve)));
        assertThat(written.isGood()).as("write status %s", written).isTrue();

        GenericStructure stored = (GenericStructure) ((dev.opcua.stack.core.types.builtin.ExtensionObject)
                serverValue(6001)).decoded();
        assertThat(stored.get("Name")).isEqualTo("V1-renamed");
        assertThat(stored.get("Note")).isNull();
        assertThat(stored.get("Readings")).isEqualTo(new double[] {1.5, 2.5});
        assertThat(stored.get("State")).isEqualTo(1);
    }

    @Test
    void milo_decodes_a_union_and_an_enumeration_variable_takes_an_int32() throws Exception {
        DataValue read = client.readValue(0, TimestampsToReturn.Both, id(6002));
        DynamicUnionType setpoint = (DynamicUnionType) ((ExtensionObject) read.getValue().getValue())
                .decode(client.getDynamicEncodingContext());
        assertThat(setpoint.is("Position")).isTrue();
        assertThat(setpoint.getValue().orElseThrow().fieldValue()).isEqualTo(42);

        assertThat(write(6003, new Variant(1)).isGood()).isTrue();
        assertThat(write(6003, new Variant("Open")).getValue())
                .isEqualTo(org.eclipse.milo.opcua.stack.core.StatusCodes.Bad_TypeMismatch);
        assertThat(serverValue(6003)).isEqualTo(1);
    }

    private static StatusCode write(int id, Variant value) throws Exception {
        return client.writeValues(List.of(id(id)), List.of(new DataValue(value))).get(0);
    }

    private static Object definition(NodeId dataType) throws Exception {
        DataValue value = client.read(0, TimestampsToReturn.Neither, List.of(new ReadValueId(dataType,
                AttributeId.DataTypeDefinition.uid(), null, QualifiedName.NULL_VALUE))).getResults()[0];
        assertThat(value.getStatusCode().isGood()).isTrue();
        return ((ExtensionObject) value.getValue().getValue()).decode(client.getStaticEncodingContext());
    }

    private static Object serverValue(int id) {
        dev.opcua.stack.core.types.builtin.NodeId nodeId = dev.opcua.stack.core.types.builtin.NodeId.numeric(
                server.namespaces().indexOf(NS), id);
        VariableNode node = (VariableNode) ((NodeStoreNodeManager) server.nodeManagers().managerOf(nodeId)).store()
                .get(nodeId);
        return node.value().value().value();
    }
}
