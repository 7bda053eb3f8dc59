package dev.opcua.stack.server.nodeset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.testing.MiloClients;
import java.util.List;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.stack.core.Identifiers;
import org.eclipse.milo.opcua.stack.core.types.enumerated.BrowseDirection;
import org.eclipse.milo.opcua.stack.core.types.enumerated.BrowseResultMask;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.BrowseDescription;
import org.eclipse.milo.opcua.stack.core.types.structured.BrowseResult;
import org.eclipse.milo.opcua.stack.core.types.structured.ReferenceDescription;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An object of an imported ObjectType created from code: Machinery's MachineIdentificationType gets
 * the Mandatory properties its Interfaces declare (Manufacturer, SerialNumber, ProductInstanceUri),
 * not the Optional ones, and Milo's client browses and reads it.
 */
class TypeInstantiatorIT {

    private static final String PLANT = "urn:test:plant";
    private static OpcUaServer server;
    private static OpcUaClient client;
    private static int ns;
    private static int machinery;
    private static int di;

    @BeforeAll
    static void start() throws Exception {
        server = OpcUaServer.builder()
                .applicationUri("urn:test:instances:server")
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("localhost"))
                .nodeSet(NodeSetFixtures.di())
                .nodeSet(NodeSetFixtures.machinery())
                .nodeManager(InMemoryNodeManager.builder(PLANT).folder("Line1").build())
                .build();
        server.start();
        ns = server.namespaces().indexOf(PLANT);
        machinery = server.namespaces().indexOf(NodeSetFixtures.MACHINERY);
        di = server.namespaces().indexOf(NodeSetFixtures.DI);
        server.instances().instantiate(NodeId.numeric(machinery, 1012), NodeId.string(ns, "Line1.Identification"),
                QualifiedName.of(di, "Identification"), NodeId.string(ns, "Line1"), NodeId.ns0(NodeIds.HasAddIn));
        VariableNode manufacturer = (VariableNode) ((dev.opcua.stack.server.nodes.NodeStoreNodeManager) server
                .nodeManagers().managerOf(NodeId.string(ns, "x"))).store()
                .get(NodeId.string(ns, "Line1.Identification.Manufacturer"));
        manufacturer.setValue(DataValue.of(Variant.of(LocalizedText.of("ACME Bottling"))));
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
    void the_instance_has_the_mandatory_children_of_its_type_and_interfaces_and_milo_reads_them() throws Exception {
        org.eclipse.milo.opcua.stack.core.types.builtin.NodeId line = new org.eclipse.milo.opcua.stack.core.types
                .builtin.NodeId(ns, "Line1");
        List<ReferenceDescription> lineChildren = browse(line, Identifiers.HierarchicalReferences);
        assertThat(lineChildren).extracting(r -> r.getBrowseName().getName()).contains("Identification");
        assertThat(lineChildren).allSatisfy(r -> assertThat(r.getTypeDefinition().getIdentifier())
                .isEqualTo(uint(1012)));

        org.eclipse.milo.opcua.stack.core.types.builtin.NodeId identification = new org.eclipse.milo.opcua.stack
                .core.types.builtin.NodeId(ns, "Line1.Identification");
        assertThat(browse(identification, Identifiers.HasProperty)).extracting(r -> r.getBrowseName().getName())
                .containsExactlyInAnyOrder("Manufacturer", "SerialNumber", "ProductInstanceUri");
        org.eclipse.milo.opcua.stack.core.types.builtin.DataValue manufacturer = client.readValue(0,
                TimestampsToReturn.Both, new org.eclipse.milo.opcua.stack.core.types.builtin.NodeId(ns,
                        "Line1.Identification.Manufacturer"));
        assertThat(((org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText) manufacturer.getValue()
                .getValue()).getText()).isEqualTo("ACME Bottling");
    }

    @Test
    void abstract_types_and_namespaces_without_an_in_memory_manager_are_refused() {
        NodeId abstractType = NodeId.ns0(NodeIds.BaseInterfaceType);
        assertThatThrownBy(() -> server.instances().instantiate(abstractType, NodeId.string(ns, "X"),
                QualifiedName.of(ns, "X"), NodeId.ns0(NodeIds.ObjectsFolder), NodeId.ns0(NodeIds.Organizes)))
                .hasMessageContaining("is not a concrete ObjectType");
        assertThatThrownBy(() -> server.instances().instantiate(NodeId.numeric(machinery, 1012),
                NodeId.string(99, "X"), QualifiedName.of(ns, "X"), NodeId.ns0(NodeIds.ObjectsFolder),
                NodeId.ns0(NodeIds.Organizes))).hasMessageContaining("has no in-memory node manager");
    }

    @Test
    void named_optional_children_are_created_and_the_type_lists_all_it_declares() throws Exception {
        NodeId type = NodeId.numeric(machinery, 1012);
        assertThat(server.instances().declaredChildren(type)).contains("Manufacturer", "SerialNumber",
                "ProductInstanceUri", "YearOfConstruction", "Location", "Model").doesNotContain("Line1");
        server.instances().instantiate(type, NodeId.string(ns, "Line1.Nameplate"), QualifiedName.of(ns, "Nameplate"),
                NodeId.string(ns, "Line1"), NodeId.ns0(NodeIds.HasComponent), java.util.Set.of("YearOfConstruction"));
        org.eclipse.milo.opcua.stack.core.types.builtin.NodeId nameplate = new org.eclipse.milo.opcua.stack.core
                .types.builtin.NodeId(ns, "Line1.Nameplate");
        assertThat(browse(nameplate, Identifiers.HasProperty)).extracting(r -> r.getBrowseName().getName())
                .containsExactlyInAnyOrder("Manufacturer", "SerialNumber", "ProductInstanceUri", "YearOfConstruction");
        assertThatThrownBy(() -> server.instances().declaredChildren(NodeId.ns0(NodeIds.Int32)))
                .hasMessageContaining("is not an ObjectType");
    }

    private static List<ReferenceDescription> browse(org.eclipse.milo.opcua.stack.core.types.builtin.NodeId node,
            org.eclipse.milo.opcua.stack.core.types.builtin.NodeId type) throws Exception {
        BrowseResult result = client.browse(new BrowseDescription(node, BrowseDirection.Forward, type, true, uint(0),
                uint(BrowseResultMask.All.getValue())));
        assertThat(result.getStatusCode().isGood()).isTrue();
        return result.getReferences() == null ? List.of() : List.of(result.getReferences());
    }
}
