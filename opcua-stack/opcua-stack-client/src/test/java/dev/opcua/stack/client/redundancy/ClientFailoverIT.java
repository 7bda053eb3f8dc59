package dev.opcua.stack.client.redundancy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.client.ClientState;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.client.subscriptions.ClientSubscription;
import dev.opcua.stack.client.subscriptions.DataItemRequest;
import dev.opcua.stack.client.subscriptions.SubscriptionParameters;
import dev.opcua.stack.client.testing.FaultProxy;
import dev.opcua.stack.client.testing.MiloPeerServer;
import dev.opcua.stack.core.config.InvalidSettingException;
import dev.opcua.stack.core.types.builtin.NodeId;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Client failover in a non-transparent redundant pair (Part 4, 6.6.2.4) against two real Eclipse Milo
 * 1.1.2 servers serving the same variable: the same {@link OpcUaClient} and the same data change
 * listener go on receiving after the active server is stopped, cut off by the {@link FaultProxy}, or
 * reports a lower ServiceLevel than its partner.
 */
class ClientFailoverIT {

    private static final NodeId INT32 = NodeId.string(MiloPeerServer.NAMESPACE_INDEX, MiloPeerServer.INT32);
    private static final Duration BOUND = Duration.ofSeconds(10);

    private MiloPeerServer a;
    private MiloPeerServer b;
    private FaultProxy proxy;
    private OpcUaClient client;
    private final BlockingQueue<Integer> received = new LinkedBlockingQueue<>();
    private final List<FailoverEvent> failovers = new CopyOnWriteArrayList<>();

    @BeforeEach
    void startPair() throws Exception {
        a = MiloPeerServer.builder().manyVariables(0).start();
        b = MiloPeerServer.builder().manyVariables(0).start();
    }

    @AfterEach
    void stopAll() {
        try {
            if (client != null) {
                client.close();
            }
        } finally {
            if (proxy != null) {
                proxy.close();
            }
            a.close();
            b.close();
        }
    }

    private OpcUaClient connect(String first, String second, RedundancyMode mode) throws Exception {
        client = OpcUaClient.create(OpcUaClientConfig.builder(first)
                .applicationUri("urn:dev.opcua:test:failover").requestTimeout(Duration.ofSeconds(2))
                .keepAliveInterval(Duration.ofMillis(300)).keepAliveFailuresAllowed(1)
                .reconnectDelays(Duration.ofMillis(50), Duration.ofMillis(300))
                .redundancy(RedundancyConfig.builder().endpoints(second).mode(mode)
                        .failoverTimeout(Duration.ofSeconds(1)).serviceLevelInterval(Duration.ofMillis(200)).build())
                .build());
        client.addFailoverListener(failovers::add);
        client.connect().get(10, TimeUnit.SECONDS);
        ClientSubscription s = client.createSubscription(SubscriptionParameters.ofInterval(100)).get(5, TimeUnit.SECONDS);
        s.createDataItem(DataItemRequest.of(INT32, 50, (item, value) -> received.add((Integer) value.value().value())))
                .get(5, TimeUnit.SECONDS);
        return client;
    }

    /** Both servers serve the same variable: the value is set on each, as a redundant pair's source would. */
    private void setBoth(int v) {
        for (MiloPeerServer s : List.of(a, b)) {
            if (s.isRunning()) {
                s.setValue(MiloPeerServer.INT32, v);
            }
        }
    }

    private void awaitValue(int v) {
        awaitTrue(() -> {
            setBoth(v); // a recreated item reports the current value first; set again until seen
            return received.contains(v);
        });
    }

    @Test
    void warm_the_client_fails_over_when_the_active_server_stops_and_the_same_listener_keeps_receiving()
            throws Exception {
        connect(a.endpointUrl(), b.endpointUrl(), RedundancyMode.WARM);
        assertThat(client.activeServer()).isEqualTo(a.endpointUrl());
        awaitValue(1);
        awaitTrue(() -> client.redundancy().servers().stream().allMatch(s -> s.serviceLevel() == 255));

        long stopped = System.nanoTime();
        a.stop();
        awaitTrue(() -> client.activeServer().equals(b.endpointUrl()) && client.state() == ClientState.CONNECTED);
        Duration measured = Duration.ofNanos(System.nanoTime() - stopped);
        awaitValue(2);
        Duration toData = Duration.ofNanos(System.nanoTime() - stopped);

        awaitTrue(() -> failovers.size() == 1);
        FailoverEvent e = failovers.get(0);
        System.out.printf("warm, server stopped: CONNECTED on the partner after %d ms (event duration %d ms), "
                + "first value after %d ms%n", measured.toMillis(), e.duration().toMillis(), toData.toMillis());
        assertThat(e.from()).isEqualTo(a.endpointUrl());
        assertThat(e.to()).isEqualTo(b.endpointUrl());
        assertThat(e.reason()).isEqualTo(FailoverReason.SERVER_LOST);
        assertThat(toData).isLessThan(BOUND);
        assertThat(client.redundancy().failovers()).isEqualTo(1);
        assertThat(client.redundancy().lastFailoverDuration()).isEqualTo(e.duration());
        assertThat(client.subscriptions().list()).hasSize(1);
    }

    @Test
    void cold_the_client_fails_over_when_the_network_to_the_active_server_is_cut() throws Exception {
        proxy = FaultProxy.start("127.0.0.1", a.port());
        String viaProxy = proxy.endpointUrl(MiloPeerServer.PATH);
        connect(viaProxy, b.endpointUrl(), RedundancyMode.COLD);
        assertThat(client.activeServer()).isEqualTo(viaProxy);
        awaitValue(1);
        assertThat(b.sessionCount()).as("Cold: no session on the backup").isZero();

        long cut = System.nanoTime();
        proxy.refuseNew(true);
        proxy.stall();
        awaitTrue(() -> client.activeServer().equals(b.endpointUrl()) && client.state() == ClientState.CONNECTED);
        awaitValue(2);
        Duration toData = Duration.ofNanos(System.nanoTime() - cut);

        awaitTrue(() -> failovers.size() == 1);
        System.out.printf("cold, network cut: first value from the partner after %d ms (event duration %d ms)%n",
                toData.toMillis(), failovers.get(0).duration().toMillis());
        assertThat(failovers.get(0).reason()).isEqualTo(FailoverReason.SERVER_LOST);
        assertThat(toData).isLessThan(BOUND);
    }

    @Test
    void warm_a_lower_service_level_on_the_active_server_moves_the_client_to_its_partner() throws Exception {
        connect(a.endpointUrl(), b.endpointUrl(), RedundancyMode.WARM);
        awaitValue(1);
        awaitTrue(() -> client.redundancy().servers().stream().allMatch(s -> s.serviceLevel() == 255));

        long lowered = System.nanoTime();
        a.setServiceLevel(100); // Degraded (Part 4, Table 109) while the partner is Healthy
        awaitTrue(() -> client.activeServer().equals(b.endpointUrl()) && client.state() == ClientState.CONNECTED);
        awaitValue(2);
        Duration toData = Duration.ofNanos(System.nanoTime() - lowered);

        awaitTrue(() -> failovers.size() == 1);
        FailoverEvent e = failovers.get(0);
        System.out.printf("warm, ServiceLevel 255 -> 100: first value from the partner after %d ms (event %d ms)%n",
                toData.toMillis(), e.duration().toMillis());
        assertThat(e.reason()).isEqualTo(FailoverReason.SERVICE_LEVEL);
        assertThat(toData).isLessThan(BOUND);
        // A is now the backup: the client's session there is closed, a monitor session reads its ServiceLevel
        awaitTrue(() -> client.redundancy().servers().stream()
                .anyMatch(s -> s.endpointUrl().equals(a.endpointUrl()) && s.serviceLevel() == 100 && !s.active()));
        awaitTrue(() -> a.sessionCount() == 1);
    }

    @Test
    void the_first_connect_goes_to_the_server_with_the_highest_service_level() throws Exception {
        a.setServiceLevel(150);
        connect(a.endpointUrl(), b.endpointUrl(), RedundancyMode.COLD);
        assertThat(client.activeServer()).isEqualTo(b.endpointUrl());
        awaitValue(3);
        assertThat(failovers).isEmpty();
    }

    @Test
    void a_redundant_set_of_one_server_is_refused_naming_the_option() {
        assertThatThrownBy(() -> OpcUaClientConfig.builder("opc.tcp://localhost:4840/")
                .redundancy(RedundancyConfig.builder().endpoints("opc.tcp://localhost:4840/").build()).build())
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("opcUaClientConfig.redundancy.endpoints");
        assertThatThrownBy(() -> RedundancyConfig.builder().endpoints("http://x/").build())
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("opcUaClientConfig.redundancy.endpoints[0]");
    }

    private static void awaitTrue(Callable<Boolean> condition) {
        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(20)).until(condition);
    }
}
