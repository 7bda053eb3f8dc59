package dev.opcua.stack.client.redundancy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.client.ClientState;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.client.session.ClientIdentity;
import dev.opcua.stack.client.subscriptions.ClientSubscription;
import dev.opcua.stack.client.subscriptions.DataItemRequest;
import dev.opcua.stack.client.subscriptions.EventFilters;
import dev.opcua.stack.client.subscriptions.EventItemRequest;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.client.subscriptions.SubscriptionParameters;
import dev.opcua.stack.client.testing.MiloPeerServer;
import dev.opcua.stack.core.config.InvalidSettingException;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.testing.FaultProxy;
import java.time.Duration;
import java.util.List;
import java.util.Set;
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
        return connect(first, second, mode, null);
    }

    /**
     * A user's session: TransferSubscriptions of an anonymous session's subscriptions needs the same
     * client certificate, which a channel without security does not prove (Part 4, 5.13.7; Milo answers
     * BadUserAccessDenied), so Hot takes its mirrors over only for a user or on a secured channel.
     */
    private OpcUaClient connectAsUser(String first, String second, RedundancyMode mode) throws Exception {
        // warm-up: the first password encryption of the JVM takes longer than the 1 s failoverTimeout, which
        // would count as the first server being unreachable
        OpcUaClient warmUp = OpcUaClient.create(OpcUaClientConfig.builder(second).acceptAnyServerCertificate(true)
                .identity(ClientIdentity.userName(MiloPeerServer.USER, MiloPeerServer.PASSWORD)).build());
        warmUp.connect().get(10, TimeUnit.SECONDS);
        warmUp.close();
        return connect(first, second, mode, ClientIdentity.userName(MiloPeerServer.USER, MiloPeerServer.PASSWORD));
    }

    private OpcUaClient connect(String first, String second, RedundancyMode mode, ClientIdentity identity)
            throws Exception {
        OpcUaClientConfig.Builder builder = OpcUaClientConfig.builder(first);
        if (identity != null) {
            // the password is encrypted with the server's certificate: these throwaway servers' are accepted
            builder.identity(identity).acceptAnyServerCertificate(true);
        }
        client = OpcUaClient.create(builder
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

    /** Hot's bound from the trigger (ServiceLevel seen low, or server stopped + failoverTimeout) to the first value. */
    private static final Duration HOT_BOUND = Duration.ofSeconds(2);

    @Test
    void hot_a_lower_service_level_hands_over_the_mirrored_subscription_without_recreating_it() throws Exception {
        connectAsUser(a.endpointUrl(), b.endpointUrl(), RedundancyMode.HOT);
        awaitValue(1);
        // the mirror on B: a subscription of the monitor session, publishing disabled
        awaitTrue(() -> b.subscriptionCount() == 1);
        Thread.sleep(300); // its item too (created right after the subscription)
        int receivedBefore = received.size();
        Thread.sleep(500);
        assertThat(received).as("the mirror on B publishes nothing").hasSize(receivedBefore);

        Set<Long> mirrorIds = b.subscriptionIds();
        setBoth(7); // changes while B's mirror is not publishing: queued there
        long lowered = System.nanoTime();
        a.setServiceLevel(100);
        awaitTrue(() -> client.activeServer().equals(b.endpointUrl()) && client.state() == ClientState.CONNECTED);
        awaitTrue(() -> received.contains(7) || failovers.size() == 1 && received.size() > receivedBefore);
        Duration toFirst = Duration.ofNanos(System.nanoTime() - lowered);
        awaitValue(2);
        Duration toData = Duration.ofNanos(System.nanoTime() - lowered);

        awaitTrue(() -> failovers.size() == 1);
        FailoverEvent e = failovers.get(0);
        System.out.printf("hot, ServiceLevel 255 -> 100: first value from the partner after %d ms, a new value after"
                + " %d ms (event %d ms)%n", toFirst.toMillis(), toData.toMillis(), e.duration().toMillis());
        assertThat(e.reason()).isEqualTo(FailoverReason.SERVICE_LEVEL);
        assertThat(toData).isLessThan(HOT_BOUND);
        // taken over, not re-created: B holds the same subscription (the transferred mirror), now the client's
        assertThat(b.subscriptionIds()).isEqualTo(mirrorIds);
        assertThat(client.subscriptions().list().get(0).subscriptionId()).isEqualTo(mirrorIds.iterator().next());
        // A, now the backup, gets a mirror of it
        awaitTrue(() -> a.subscriptionCount() == 1 && a.sessionCount() == 1);
        assertThat(client.subscriptions().list()).hasSize(1);
    }

    @Test
    void hot_the_client_fails_over_when_the_active_server_stops() throws Exception {
        connectAsUser(a.endpointUrl(), b.endpointUrl(), RedundancyMode.HOT);
        awaitValue(1);
        awaitTrue(() -> b.subscriptionCount() == 1);
        Thread.sleep(300);
        Set<Long> mirrorIds = b.subscriptionIds();

        long stopped = System.nanoTime();
        a.stop();
        awaitTrue(() -> client.activeServer().equals(b.endpointUrl()) && client.state() == ClientState.CONNECTED);
        Duration measured = Duration.ofNanos(System.nanoTime() - stopped);
        awaitValue(2);
        Duration toData = Duration.ofNanos(System.nanoTime() - stopped);

        awaitTrue(() -> failovers.size() == 1);
        FailoverEvent e = failovers.get(0);
        System.out.printf("hot, server stopped: CONNECTED on the partner after %d ms (event duration %d ms), "
                + "first value after %d ms%n", measured.toMillis(), e.duration().toMillis(), toData.toMillis());
        assertThat(e.reason()).isEqualTo(FailoverReason.SERVER_LOST);
        // failoverTimeout (1 s) and the keep-alive that notices the loss come first
        assertThat(toData).isLessThan(HOT_BOUND.plusSeconds(1));
        assertThat(b.subscriptionIds()).as("the mirror taken over, not re-created").isEqualTo(mirrorIds);
    }

    /**
     * Warm against Hot, the same way: {@value #HOPS} ServiceLevel failovers back and forth on the same pair;
     * each measured from the ServiceLevel drop to the first value that only the partner serves.
     */
    @Test
    void hot_fails_over_faster_than_warm_on_a_service_level_drop() throws Exception {
        long[] warm = hops(RedundancyMode.WARM);
        client.close();
        client = null;
        received.clear();
        failovers.clear();
        long[] hot = hops(RedundancyMode.HOT);
        System.out.printf("ServiceLevel failover, trigger to first value from the partner (ms): warm %s (median %d),"
                + " hot %s (median %d)%n", java.util.Arrays.toString(warm), median(warm),
                java.util.Arrays.toString(hot), median(hot));
        assertThat(java.util.Arrays.stream(hot).max().orElseThrow()).isLessThan(HOT_BOUND.toMillis());
    }

    private static final int HOPS = 4;

    /**
     * Warm against Hot when the active server stops, 2 failovers each (the stopped server restarted after
     * each): from the stop to the first value only the partner serves. The 1 s failoverTimeout and the
     * keep-alive that notices the loss come first in both.
     */
    @Test
    void hot_and_warm_when_the_active_server_stops() throws Exception {
        long[] warm = stops(RedundancyMode.WARM);
        client.close();
        client = null;
        received.clear();
        failovers.clear();
        long[] hot = stops(RedundancyMode.HOT);
        System.out.printf("server stopped, stop to first value from the partner (ms): warm %s, hot %s%n",
                java.util.Arrays.toString(warm), java.util.Arrays.toString(hot));
        assertThat(java.util.Arrays.stream(hot).max().orElseThrow()).isLessThan(HOT_BOUND.plusSeconds(1).toMillis());
    }

    private long[] stops(RedundancyMode mode) throws Exception {
        connectAsUser(a.endpointUrl(), b.endpointUrl(), mode);
        awaitValue(1);
        long[] times = new long[2];
        int value = 1000 * (mode.ordinal() + 1);
        for (int i = 0; i < times.length; i++) {
            MiloPeerServer from = i % 2 == 0 ? a : b;
            MiloPeerServer to = i % 2 == 0 ? b : a;
            awaitTrue(() -> client.activeServer().equals(from.endpointUrl())
                    && client.redundancy().servers().stream().allMatch(s -> s.serviceLevel() == 255 && s.reachable()));
            if (mode == RedundancyMode.HOT) {
                awaitTrue(() -> to.subscriptionCount() == 1);
                Thread.sleep(300);
            }
            int v = ++value;
            long t0 = System.nanoTime();
            from.stop();
            awaitTrue(() -> {
                to.setValue(MiloPeerServer.INT32, v);
                return received.contains(v);
            });
            times[i] = (System.nanoTime() - t0) / 1_000_000;
            int hop = i + 1;
            awaitTrue(() -> failovers.size() == hop);
            from.start();
        }
        return times;
    }

    private long[] hops(RedundancyMode mode) throws Exception {
        connectAsUser(a.endpointUrl(), b.endpointUrl(), mode);
        awaitValue(1);
        long[] times = new long[HOPS];
        int value = 100 * (mode.ordinal() + 1);
        for (int i = 0; i < HOPS; i++) {
            MiloPeerServer from = i % 2 == 0 ? a : b;
            MiloPeerServer to = i % 2 == 0 ? b : a;
            awaitTrue(() -> client.activeServer().equals(from.endpointUrl())
                    && client.redundancy().servers().stream().allMatch(s -> s.serviceLevel() == 255));
            if (mode == RedundancyMode.HOT) {
                awaitTrue(() -> to.subscriptionCount() == 1);
                Thread.sleep(300); // the mirror's item
            }
            int v = ++value;
            long t0 = System.nanoTime();
            from.setServiceLevel(100);
            awaitTrue(() -> {
                to.setValue(MiloPeerServer.INT32, v); // only the partner has it
                return received.contains(v);
            });
            times[i] = (System.nanoTime() - t0) / 1_000_000;
            int hop = i + 1;
            awaitTrue(() -> failovers.size() == hop);
            from.setServiceLevel(255);
        }
        return times;
    }

    private static long median(long[] values) {
        long[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    @Test
    void after_a_failover_condition_refresh_is_called_for_a_subscription_with_an_event_item() throws Exception {
        connect(a.endpointUrl(), b.endpointUrl(), RedundancyMode.HOT);
        List<Object> eventTypes = new CopyOnWriteArrayList<>();
        ClientSubscription s = client.subscriptions().list().get(0);
        s.createEventItem(EventItemRequest.of(NodeId.ns0(NodeIds.Server), EventFilters.select("EventType", "Message"),
                (item, fields) -> eventTypes.add(fields[0].value()))).get(5, TimeUnit.SECONDS);
        awaitValue(1);
        awaitTrue(() -> b.subscriptionCount() == 1);
        Thread.sleep(300);

        a.setServiceLevel(100);
        awaitTrue(() -> failovers.size() == 1);
        // Part 9, 5.5.7: the server answers ConditionRefresh with RefreshStartEvent ... RefreshEndEvent
        awaitTrue(() -> eventTypes.contains(NodeId.ns0(NodeIds.RefreshEndEventType)));
        assertThat(eventTypes).contains(NodeId.ns0(NodeIds.RefreshStartEventType));
        b.emitEvent(500, "after the failover");
        awaitTrue(() -> eventTypes.size() >= 3);
        // an anonymous session on a channel without security: the mirror could not be taken over, the
        // subscription was re-created instead and goes on
        awaitValue(2);
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
