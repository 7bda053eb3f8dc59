package dev.opcua.stack.server.redundancy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.ServerState;
import dev.opcua.stack.core.types.structured.ModelChangeStructureDataType;
import dev.opcua.stack.core.types.structured.RedundantServerDataType;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.addressspace.ValueAttributes;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.nodes.NamespaceTable;
import dev.opcua.stack.server.nodes.NodeStoreNodeManager;
import dev.opcua.stack.server.subscriptions.events.ModelChanges;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two servers of a Hot pair in one JVM watch each other with the {@link PartnerMonitor} (Part 4, 6.6.2; Part 5,
 * 6.3.9): RedundantServerArray shows the partner as it is, a partner serving another address space (Part 4,
 * 6.6.2.2) lowers this server's ServiceLevel (also after a node added to one of them only, until the other has it
 * too), a stopped partner shows ServiceLevel 0 and state Unknown.
 */
class PartnerMonitorIT {

    private static final String A = "urn:test:partner:a";
    private static final String B = "urn:test:partner:b";
    private static final String PLANT = "urn:test:partner:plant";
    private static final Duration WAIT = Duration.ofSeconds(20);

    private OpcUaServer a;
    private OpcUaServer b;

    @AfterEach
    void stop() {
        if (a != null) {
            a.close();
        }
        if (b != null) {
            b.close();
        }
    }

    @Test
    void a_matching_pair_shows_each_other_healthy_in_redundant_server_array() throws Exception {
        startPair(List.of("Level", "Speed"), List.of("Level", "Speed"));

        await().atMost(WAIT).until(() -> entry(a, B) != null && entry(a, B).serviceLevel() == (short) 255
                && entry(b, A) != null && entry(b, A).serviceLevel() == (short) 255);
        assertThat(entry(a, B).serverState()).isEqualTo(ServerState.Running);
        assertThat(entry(b, A).serverState()).isEqualTo(ServerState.Running);
        assertThat(a.redundancy().redundantServers()).extracting(RedundantServerDataType::serverId)
                .containsExactly(A, B);
        assertThat((int) a.serviceLevel().level()).isEqualTo(255);
        assertThat((int) b.serviceLevel().level()).isEqualTo(255);
        assertThat(a.partnerMonitor().partners()).singleElement().satisfies(status -> {
            assertThat(status.reachable()).isTrue();
            assertThat(status.mismatch()).isNull();
        });
    }

    @Test
    void a_partner_with_another_address_space_lowers_the_service_level_and_is_named() throws Exception {
        startPair(List.of("Level", "Speed"), List.of("Level", "Speed", "Extra"));

        await().atMost(WAIT).until(() -> a.serviceLevel().level() == PartnerMonitor.MISMATCH_LEVEL
                && b.serviceLevel().level() == PartnerMonitor.MISMATCH_LEVEL);
        assertThat(a.partnerMonitor().partners().get(0).mismatch()).contains("address space differs");
        assertThat(a.serviceLevel().assess().reason()).contains("address space differs");
        assertThat(entry(a, B).serviceLevel()).as("the partner's own level, as it reports it")
                .isEqualTo((short) PartnerMonitor.MISMATCH_LEVEL);
    }

    @Test
    void a_node_added_to_one_server_only_is_a_mismatch_until_the_partner_has_it_too() throws Exception {
        startPair(List.of("Level"), List.of("Level"));
        await().atMost(WAIT).until(() -> entry(a, B) != null && entry(a, B).serviceLevel() == (short) 255);

        addVariable(a, "Added"); // as NodeManagement's AddNodes does: the node, then the model change event
        await().atMost(WAIT).until(() -> a.serviceLevel().level() == PartnerMonitor.MISMATCH_LEVEL
                && b.serviceLevel().level() == PartnerMonitor.MISMATCH_LEVEL);

        addVariable(b, "Added");
        await().atMost(WAIT).until(() -> a.serviceLevel().level() == 255 && b.serviceLevel().level() == 255);
        assertThat(a.partnerMonitor().partners().get(0).mismatch()).isNull();
    }

    @Test
    void a_stopped_partner_shows_service_level_0_and_state_unknown() throws Exception {
        startPair(List.of("Level"), List.of("Level"));
        await().atMost(WAIT).until(() -> entry(a, B) != null && entry(a, B).serviceLevel() == (short) 255);

        b.close();
        b = null;
        await().atMost(WAIT).until(() -> entry(a, B).serviceLevel() == 0);
        assertThat(entry(a, B).serverState()).isEqualTo(ServerState.Unknown);
        assertThat(a.partnerMonitor().partners().get(0).reachable()).isFalse();
        assertThat((int) a.serviceLevel().level()).as("an absent partner does not lower this server").isEqualTo(255);
    }

    private void startPair(List<String> variablesOfA, List<String> variablesOfB) throws IOException {
        int portA = freePort();
        int portB = freePort();
        a = server(A, portA, B, portB, variablesOfA);
        b = server(B, portB, A, portA, variablesOfB);
    }

    private static OpcUaServer server(String uri, int port, String partnerUri, int partnerPort,
            List<String> variables) {
        return OpcUaServer.builder()
                .applicationUri(uri)
                .bindAddress("127.0.0.1").port(port).hostnames(List.of("localhost"))
                .security(List.of(EndpointSecurity.NONE))
                .redundancy(RedundancySettings.of(RedundancyMode.Hot,
                        new RedundancyPartner(partnerUri, "opc.tcp://localhost:" + partnerPort)))
                .partnerMonitor(PartnerMonitorSettings.DEFAULT.withInterval(Duration.ofMillis(200)))
                .nodeManager(new Plant(variables))
                .build()
                .start();
    }

    private static void addVariable(OpcUaServer server, String name) {
        Plant plant = (Plant) server.config().nodeManagers().stream().filter(Plant.class::isInstance).findFirst()
                .orElseThrow();
        NodeId added = plant.add(name);
        server.modelChanges().report(List.of(new ModelChangeStructureDataType(added,
                NodeId.ns0(NodeIds.BaseDataVariableType), ModelChanges.NODE_ADDED)));
    }

    private static RedundantServerDataType entry(OpcUaServer server, String uri) {
        return server.redundancy().redundantServers().stream().filter(s -> s.serverId().equals(uri)).findFirst()
                .orElse(null);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** A namespace with Double variables under Objects, added at start. */
    static final class Plant extends NodeStoreNodeManager {

        private final List<String> variables;
        private volatile int namespaceIndex;

        Plant(List<String> variables) {
            super(List.of(PLANT), new NodeStore(4));
            this.variables = variables;
        }

        @Override
        public void startup(NamespaceTable namespaces) {
            super.startup(namespaces);
            namespaceIndex = namespaces.indexOf(PLANT);
            variables.forEach(this::add);
        }

        NodeId add(String name) {
            NodeId id = NodeId.string(namespaceIndex, name);
            VariableNode node = new VariableNode(id, QualifiedName.of(namespaceIndex, name), LocalizedText.of(name),
                    null, 0, 0, DataValue.of(Variant.ofDouble(0)), ValueAttributes.scalar(NodeId.ns0(NodeIds.Double)),
                    (short) 1, (short) 1, 0, false, 1);
            node.addReference(UaReference.inverse(NodeId.ns0(NodeIds.Organizes), NodeId.ns0(NodeIds.ObjectsFolder)));
            store().add(node);
            return id;
        }
    }
}
