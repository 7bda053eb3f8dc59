package dev.opcua.stack.server.nodeset;

import static org.assertj.core.api.Assertions.assertThat;
import static dev.opcua.stack.server.nodeset.MiloBrowsing.browse;
import static dev.opcua.stack.server.nodeset.MiloBrowsing.id;
import static dev.opcua.stack.server.nodeset.MiloBrowsing.names;
import static dev.opcua.stack.server.nodeset.MiloBrowsing.structureDefinition;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;

import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.testing.MiloClients;
import java.util.Arrays;
import java.util.List;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.stack.core.Identifiers;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.ExtensionObject;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.enumerated.BrowseDirection;
import org.eclipse.milo.opcua.stack.core.types.enumerated.BrowseResultMask;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.Argument;
import org.eclipse.milo.opcua.stack.core.types.structured.BrowseDescription;
import org.eclipse.milo.opcua.stack.core.types.structured.BrowseResult;
import org.eclipse.milo.opcua.stack.core.types.structured.ReferenceDescription;
import org.eclipse.milo.opcua.stack.core.types.structured.StructureDefinition;
import org.eclipse.milo.opcua.stack.core.types.structured.StructureField;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Eclipse Milo 1.1.2's client on a server that imported DI and Machinery from NodeSet2 files (this
 * project's export of them, {@link NodeSetFixtures}): it finds the models in the NamespaceArray,
 * browses the imported types and folders, reads Argument arrays from the XML values and the
 * DataTypeDefinition of a DI structure.
 */
class MiloOnImportedNodeSetsIT {

    private static OpcUaServer server;
    private static OpcUaClient client;

    @BeforeAll
    static void start() throws Exception {
        server = NodeSetFixtures.start(b -> b
                .nodeSet(NodeSetFixtures.di())
                .nodeSet(NodeSetFixtures.machinery()));
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
        assertThat((String[]) namespaces.getValue().getValue()).contains(NodeSetFixtures.DI, NodeSetFixtures.MACHINERY);
    }

    @Test
    void milo_browses_imported_types_below_the_standard_ones() throws Exception {
        assertThat(names(browse(client, Identifiers.BaseObjectType, Identifiers.HasSubtype)))
                .contains("TopologyElementType");
        NodeId topologyElementType = id(client, NodeSetFixtures.DI, 1001);
        assertThat(names(browse(client, topologyElementType, Identifiers.HasSubtype))).contains("ComponentType");
        // the inverse reference, held by namespace 0's BaseObjectType as well
        BrowseResult up = client.browse(new BrowseDescription(topologyElementType, BrowseDirection.Inverse,
                Identifiers.HasSubtype, false, uint(0), uint(BrowseResultMask.All.getValue())));
        assertThat(up.getReferences()).extracting(r -> r.getBrowseName().getName()).containsExactly("BaseObjectType");
    }

    @Test
    void milo_browses_the_folders_the_models_put_below_objects() throws Exception {
        List<ReferenceDescription> objects = browse(client, Identifiers.ObjectsFolder,
                Identifiers.HierarchicalReferences);
        assertThat(names(objects)).contains("Machines", "DeviceSet");
    }

    @Test
    void milo_decodes_argument_arrays_from_the_xml_values() throws Exception {
        DataValue arguments = client.readValue(0, TimestampsToReturn.Both, id(client, NodeSetFixtures.DI, 6167));
        Argument first = (Argument) ((ExtensionObject[]) arguments.getValue().getValue())[0]
                .decode(client.getStaticEncodingContext());
        assertThat(first.getName()).isEqualTo("Context");
        assertThat(first.getDataType()).isEqualTo(Identifiers.String);
    }

    @Test
    void milo_reads_the_data_type_definition_of_an_imported_structure() throws Exception {
        NodeId parameterResult = id(client, NodeSetFixtures.DI, 6525);
        StructureDefinition definition = structureDefinition(client, parameterResult);
        assertThat(Arrays.stream(definition.getFields()).map(StructureField::getName))
                .containsExactly("NodePath", "StatusCode", "Diagnostics");
        assertThat(definition.getFields()[0].getDataType()).isEqualTo(Identifiers.QualifiedName);
        assertThat(definition.getBaseDataType()).isEqualTo(Identifiers.Structure);
        assertThat(definition.getDefaultEncodingId().getNamespaceIndex().intValue())
                .isEqualTo(client.getNamespaceTable().getIndex(NodeSetFixtures.DI).intValue());
    }
}
