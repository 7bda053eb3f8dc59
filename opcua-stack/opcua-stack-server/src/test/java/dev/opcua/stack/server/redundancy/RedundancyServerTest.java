package dev.opcua.stack.server.redundancy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.ServerState;
import dev.opcua.stack.core.types.structured.ReferenceDescription;
import dev.opcua.stack.core.types.structured.RedundantServerDataType;
import dev.opcua.stack.server.OpcUaServer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Our own {@link OpcUaClient} reads what a Hot pair's server publishes (Part 5, 6.3.7 and 6.3.9): RedundancySupport,
 * ServerUriArray, RedundantServerArray and a ServiceLevel that follows the override, the health checks and the
 * shutdown.
 */
class RedundancyServerTest {

    private static final String A = "urn:test:redundancy:a";
    private static final String B = "urn:test:redundancy:b";

    private OpcUaServer server;
    private OpcUaClient client;

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private void start(RedundancySettings redundancy, ServiceLevelContributor... checks) throws Exception {
        OpcUaServer.Builder builder = OpcUaServer.builder().applicationUri(A).bindAddress("127.0.0.1").port(0)
                .hostnames(List.of("localhost")).redundancy(redundancy)
                .partnerMonitor(PartnerMonitorSettings.DISABLED); // what reportPartner publishes, alone
        for (ServiceLevelContributor check : checks) {
            builder.serviceLevelContributor(check);
        }
        server = builder.build().start();
        client = OpcUaClient.create(OpcUaClientConfig.builder(server.endpointUrl()).build());
        client.connect().get(10, TimeUnit.SECONDS);
    }

    private Object read(int id) throws Exception {
        DataValue value = client.readValue(NodeId.ns0(id)).get(10, TimeUnit.SECONDS);
        assertThat(value.statusCode().isGood()).as("status of i=%s: %s", id, value.statusCode()).isTrue();
        return value.value().value();
    }

    @Test
    void a_hot_server_publishes_its_redundant_set() throws Exception {
        start(RedundancySettings.of(RedundancyMode.Hot, new RedundancyPartner(B, "opc.tcp://localhost:4842")));

        assertThat(read(NodeIds.Server_ServerRedundancy_RedundancySupport)).isEqualTo(3); // HOT_3
        assertThat((String[]) read(NodeIds.Server_ServerRedundancy_ServerUriArray)).containsExactly(A, B);
        assertThat(((Number) read(NodeIds.Server_ServiceLevel)).intValue()).isEqualTo(255);
        // the server's own entry; the partner's once someone reports it
        assertThat(redundantServers()).extracting(RedundantServerDataType::serverId).containsExactly(A);
        server.redundancy().reportPartner(B, 180, ServerState.Running);
        List<RedundantServerDataType> servers = redundantServers();
        assertThat(servers).extracting(RedundantServerDataType::serverId).containsExactly(A, B);
        assertThat(servers.get(0).serviceLevel()).isEqualTo((short) 255);
        assertThat(servers.get(1).serviceLevel()).isEqualTo((short) 180);

        // ServerRedundancy is a NonTransparentRedundancyType with the three properties
        List<ReferenceDescription> children = client.browse(NodeId.ns0(NodeIds.Server)).get(10, TimeUnit.SECONDS);
        ReferenceDescription redundancy = children.stream()
                .filter(r -> r.browseName().name().equals("ServerRedundancy")).findFirst().orElseThrow();
        assertThat(redundancy.typeDefinition().toString()).contains("i=" + NodeIds.NonTransparentRedundancyType);
        assertThat(client.browse(NodeId.ns0(NodeIds.Server_ServerRedundancy)).get(10, TimeUnit.SECONDS))
                .extracting(r -> r.browseName().name())
                .contains("RedundancySupport", "ServerUriArray", "RedundantServerArray");
        // ServerArray stays the server table (Part 5, 6.3.1): this server only
        assertThat((String[]) read(NodeIds.Server_ServerArray)).containsExactly(A);
    }

    @Test
    void service_level_follows_the_override_and_the_health_checks() throws Exception {
        ServiceLevelStatus[] plc = {ServiceLevelStatus.healthy()};
        start(RedundancySettings.of(RedundancyMode.Warm, new RedundancyPartner(B, "opc.tcp://localhost:4842")),
                () -> plc[0]);
        assertThat(read(NodeIds.Server_ServerRedundancy_RedundancySupport)).isEqualTo(2);

        server.serviceLevel().degrade("test");
        assertThat(((Number) read(NodeIds.Server_ServiceLevel)).intValue()).isEqualTo(100);
        assertThat(redundantServers().get(0).serviceLevel()).isEqualTo((short) 100);
        server.serviceLevel().clear();
        plc[0] = ServiceLevelStatus.noData("PLC unreachable");
        assertThat(((Number) read(NodeIds.Server_ServiceLevel)).intValue()).isEqualTo(1);
        plc[0] = ServiceLevelStatus.healthy();
        assertThat(((Number) read(NodeIds.Server_ServiceLevel)).intValue()).isEqualTo(255);
    }

    @Test
    void an_announced_shutdown_drops_service_level_to_0_before_the_server_goes() throws Exception {
        start(RedundancySettings.NONE);
        assertThat(read(NodeIds.Server_ServerRedundancy_RedundancySupport)).isEqualTo(0);
        Thread closer = new Thread(() -> server.close(Duration.ofSeconds(2), "maintenance"));
        closer.start();
        await().atMost(Duration.ofSeconds(2))
                .until(() -> ((Number) read(NodeIds.Server_ServiceLevel)).intValue() == 0);
        assertThat(server.serviceLevel().assess().reason()).contains("Shutdown");
        closer.join(10_000);
    }

    @Test
    void maintenance_sets_service_level_0_and_estimated_return_time_until_it_ends() throws Exception {
        start(RedundancySettings.of(RedundancyMode.Warm, new RedundancyPartner(B, "opc.tcp://localhost:4842")));
        assertThat(read(NodeIds.Server_EstimatedReturnTime)).as("no return planned: the null DateTime")
                .isEqualTo(dev.opcua.stack.core.types.builtin.DateTime.MIN_VALUE);

        java.time.Instant back = java.time.Instant.parse("2030-01-01T12:30:00Z");
        server.startMaintenance("firmware update", back);
        assertThat(((Number) read(NodeIds.Server_ServiceLevel)).intValue()).isZero();
        assertThat(((dev.opcua.stack.core.types.builtin.DateTime) read(NodeIds.Server_EstimatedReturnTime))
                .toInstant()).isEqualTo(back);
        assertThat(server.estimatedReturnTime()).isEqualTo(back);

        server.endMaintenance();
        assertThat(((Number) read(NodeIds.Server_ServiceLevel)).intValue()).isEqualTo(255);
        assertThat(read(NodeIds.Server_EstimatedReturnTime)).isEqualTo(dev.opcua.stack.core.types.builtin.DateTime.MIN_VALUE);
        assertThat(server.estimatedReturnTime()).isNull();
        assertThat(client.browse(NodeId.ns0(NodeIds.Server)).get(10, TimeUnit.SECONDS))
                .extracting(r -> r.browseName().name()).contains("EstimatedReturnTime");
    }

    @Test
    void an_announced_shutdown_with_a_planned_return_publishes_it_during_the_countdown() throws Exception {
        start(RedundancySettings.NONE);
        java.time.Instant back = java.time.Instant.now().plusSeconds(60).truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        Thread closer = new Thread(() -> server.close(Duration.ofSeconds(2), "restart", back));
        closer.start();
        await().atMost(Duration.ofSeconds(2)).until(() -> read(NodeIds.Server_EstimatedReturnTime)
                instanceof dev.opcua.stack.core.types.builtin.DateTime time && time.toInstant().equals(back));
        closer.join(10_000);
    }

    @Test
    void a_stand_alone_server_keeps_the_standard_server_redundancy_type() throws Exception {
        start(RedundancySettings.NONE);
        List<ReferenceDescription> children = client.browse(NodeId.ns0(NodeIds.Server)).get(10, TimeUnit.SECONDS);
        ReferenceDescription redundancy = children.stream()
                .filter(r -> r.browseName().name().equals("ServerRedundancy")).findFirst().orElseThrow();
        assertThat(redundancy.typeDefinition().toString()).contains("i=" + NodeIds.ServerRedundancyType);
        assertThat(client.browse(NodeId.ns0(NodeIds.Server_ServerRedundancy)).get(10, TimeUnit.SECONDS))
                .extracting(r -> r.browseName().name()).containsExactly("RedundancySupport");
    }

    private List<RedundantServerDataType> redundantServers() throws Exception {
        Object[] array = (Object[]) read(NodeIds.Server_ServerRedundancy_RedundantServerArray);
        return java.util.Arrays.stream(array).map(o -> o instanceof ExtensionObject e
                ? e.decoded(RedundantServerDataType.class) : (RedundantServerDataType) o).toList();
    }
}
