package dev.opcua.stack.server.nodeset;

import static org.assertj.core.api.Assertions.assertThat;
import static dev.opcua.stack.server.nodeset.MiloBrowsing.browse;
import static dev.opcua.stack.server.nodeset.MiloBrowsing.id;
import static dev.opcua.stack.server.nodeset.MiloBrowsing.local;
import static dev.opcua.stack.server.nodeset.MiloBrowsing.names;
import static dev.opcua.stack.server.nodeset.MiloBrowsing.structureDefinition;

import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.testing.MiloClients;
import java.util.Arrays;
import java.util.List;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.stack.core.Identifiers;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.ExtensionObject;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.EnumValueType;
import org.eclipse.milo.opcua.stack.core.types.structured.ReferenceDescription;
import org.eclipse.milo.opcua.stack.core.types.structured.StructureDefinition;
import org.eclipse.milo.opcua.stack.core.types.structured.StructureField;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Eclipse Milo 1.1.2's client on a server that imported the standard's own DI, Machinery, Machinery
 * examples and PackML nodesets ({@link SchemaFiles}): it finds the models in the NamespaceArray,
 * browses the imported types and instances, reads their values (strings, texts, EnumValueType
 * arrays) and the DataTypeDefinition of a PackML structure.
 */
class MiloOnCompanionNodeSetsSchemaIT {

    private static OpcUaServer server;
    private static OpcUaClient client;

    @BeforeAll
    static void start() throws Exception {
        server = NodeSetFixtures.start(b -> b
                .nodeSet(SchemaFiles.di())
                .nodeSet(SchemaFiles.machinery())
                .nodeSet(SchemaFiles.machineryExamples())
                .nodeSet(SchemaFiles.packMl()));
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
    void the_namespace_array_lists_the_imported_models() throws Exception {
        DataValue namespaces = client.readValue(0, TimestampsToReturn.Both, Identifiers.Server_NamespaceArray);
        assertThat((String[]) namespaces.getValue().getValue()).contains(NodeSetFixtures.DI, NodeSetFixtures.MACHINERY,
                SchemaFiles.MACHINERY_EXAMPLE, SchemaFiles.PACKML);
    }

    @Test
    void milo_browses_the_packml_types_below_the_standard_ones() throws Exception {
        assertThat(names(browse(client, Identifiers.BaseObjectType, Identifiers.HasSubtype)))
                .contains("TopologyElementType", "PackMLBaseObjectType");
    }

    @Test
    void milo_browses_the_example_machine_and_reads_its_nameplate() throws Exception {
        List<ReferenceDescription> objects = browse(client, Identifiers.ObjectsFolder,
                Identifiers.HierarchicalReferences);
        assertThat(names(objects)).contains("Machines", "DeviceSet");
        NodeId machines = id(client, NodeSetFixtures.MACHINERY, 1001);
        List<ReferenceDescription> machineList = browse(client, machines, Identifiers.HierarchicalReferences);
        assertThat(names(machineList)).contains("ExampleMachine01");
        NodeId machine = local(client, machineList.stream()
                .filter(r -> r.getBrowseName().getName().equals("ExampleMachine01")).findFirst().orElseThrow()
                .getNodeId());
        assertThat(names(browse(client, machine, Identifiers.HierarchicalReferences)))
                .contains("Identification", "Components");

        DataValue manufacturer = client.readValue(0, TimestampsToReturn.Both,
                id(client, SchemaFiles.MACHINERY_EXAMPLE, 6038));
        assertThat(((LocalizedText) manufacturer.getValue().getValue()).getText()).isEqualTo("ENGEL AUSTRIA GMBH");
        DataValue month = client.readValue(0, TimestampsToReturn.Both,
                id(client, SchemaFiles.MACHINERY_EXAMPLE, 6024));
        assertThat(month.getValue().getValue()).isEqualTo(org.eclipse.milo.opcua.stack.core.types.builtin.unsigned
                .UByte.valueOf(3));
    }

    @Test
    void milo_decodes_enum_value_arrays_from_the_xml_values() throws Exception {
        DataValue enumValues = client.readValue(0, TimestampsToReturn.Both, id(client, SchemaFiles.PACKML, 194));
        ExtensionObject[] values = (ExtensionObject[]) enumValues.getValue().getValue();
        assertThat(Arrays.stream(values).map(v -> (EnumValueType) v.decode(client.getStaticEncodingContext()))
                .map(v -> v.getDisplayName().getText())).startsWith("Invalid", "Produce");
    }

    @Test
    void milo_reads_the_data_type_definition_of_an_imported_structure() throws Exception {
        NodeId alarmDataType = id(client, SchemaFiles.PACKML, 15);
        StructureDefinition definition = structureDefinition(client, alarmDataType);
        assertThat(Arrays.stream(definition.getFields()).map(StructureField::getName))
                .containsExactly("ID", "Value", "Message", "Category", "DateTime", "AckDateTime", "Trigger");
        assertThat(definition.getFields()[4].getDataType()).isEqualTo(Identifiers.UtcTime);
        assertThat(definition.getBaseDataType()).isEqualTo(Identifiers.Structure);
        assertThat(definition.getDefaultEncodingId().getNamespaceIndex().intValue())
                .isEqualTo(client.getNamespaceTable().getIndex(SchemaFiles.PACKML).intValue());
    }
}
