package dev.opcua.stack.client;

import static dev.opcua.stack.client.OpcUaClientMiloInteropIT.assertFailsWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.client.OpcUaClientConfig.WhileReconnecting;
import dev.opcua.stack.client.subscriptions.ClientSubscription;
import dev.opcua.stack.client.subscriptions.SubscriptionParameters;
import dev.opcua.stack.client.testing.MiloPeer;
import dev.opcua.stack.client.testing.MiloPeerServer;
import dev.opcua.stack.client.testing.ThreadLeaks;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.testing.FaultProxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link OpcUaClient} reconnecting to Eclipse Milo through a {@link FaultProxy} that makes the faults
 * real: dropped connections, a stalled link the keep-alive must notice, a Milo restart that loses the
 * session, a host that refuses connections for a while; what requests do meanwhile; and a thousand
 * reconnects without thread or ByteBuf growth.
 *
 * <p>The client is configured with the proxy's URL; Milo's endpoints name Milo's own port, and the
 * client keeps connecting to the configured URL (see {@code Connector}), so every channel, the
 * reconnects' included, goes through the proxy. The channel is None: the faults, not the crypto,
 * are under test here (the crypto is in {@link OpcUaClientMiloInteropIT}).
 */
class OpcUaClientReconnectIT {

    private static final NodeId READ_ONLY = NodeId.string(MiloPeerServer.NAMESPACE_INDEX, MiloPeerServer.READ_ONLY);
    private static final Duration PATIENCE = Duration.ofSeconds(15);
    /** Polls often: a reconnect through the loopback proxy takes a few milliseconds. */
    private static final Duration POLL = Duration.ofMillis(1);

    @RegisterExtension
    static final MiloPeer PEER = MiloPeer.server()
            .resources(r -> r.timerTick(Duration.ofMillis(5))) // reconnect delays of 1..5 ms
            .watchingLeaks();

    private FaultProxy proxy;
    private OpcUaClient client;
    private final List<String> changes = Collections.synchronizedList(new ArrayList<>());
    private final List<Throwable> causes = Collections.synchronizedList(new ArrayList<>());

    @BeforeEach
    void startProxy() throws Exception {
        PEER.milo().start(); // a no-op unless a test stopped it and failed before starting it again
        proxy = FaultProxy.start("127.0.0.1", PEER.milo().port());
    }

    @AfterEach
    void closeClientAndProxy() {
        try {
            if (client != null) {
                client.close();
            }
        } finally {
            proxy.close();
        }
    }

    private OpcUaClientConfig.Builder config() {
        return OpcUaClientConfig.builder(proxy.endpointUrl(MiloPeerServer.PATH))
                .applicationName("opcua-java reconnect client")
                .resources(PEER.clientResources())
                .requestTimeout(Duration.ofSeconds(5))
                .reconnectDelays(Duration.ofMillis(20), Duration.ofMillis(200));
    }

    private OpcUaClient connected(OpcUaClientConfig config) throws Exception {
        client = OpcUaClient.create(config);
        client.addStateListener((previous, current, cause) -> {
            changes.add(previous + "->" + current);
            if (cause != null) {
                causes.add(cause);
            }
        });
        client.connect().get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        return client;
    }

    private int readOnlyValue() {
        return (Integer) client.blocking().readValue(READ_ONLY).value().value();
    }

    @Test
    void a_dropped_connection_is_reestablished_with_the_same_session_reactivated() throws Exception {
        connected(config().build());
        NodeId sessionId = client.session().sessionId();
        int sessions = PEER.milo().sessionCount();

        proxy.dropAll();

        waitUntil("reconnected", () -> client.reconnects() == 1 && client.state() == ClientState.CONNECTED);
        assertThat(client.session().sessionId()).isEqualTo(sessionId);
        assertThat(PEER.milo().sessionCount()).isEqualTo(sessions);
        assertThat(readOnlyValue()).isEqualTo(MiloPeerServer.READ_ONLY_VALUE);
        waitUntil("the states told", () -> changes.size() == 4);
        assertThat(changes).containsExactly("DISCONNECTED->CONNECTING", "CONNECTING->CONNECTED",
                "CONNECTED->RECONNECTING", "RECONNECTING->CONNECTED");
        assertThat(causes).singleElement().satisfies(c -> assertThat(((UaException) c).statusCode().value())
                .isEqualTo(StatusCodes.BadConnectionClosed));
    }

    @Test
    void a_stalled_link_is_noticed_by_the_keep_alive_and_reconnected_once_the_bytes_flow_again() throws Exception {
        connected(config().keepAliveInterval(Duration.ofMillis(200)).keepAliveFailuresAllowed(0)
                .requestTimeout(Duration.ofSeconds(1)).build());
        NodeId sessionId = client.session().sessionId();

        proxy.stall();

        // keep-alive interval 200 ms + the keep-alive Read's timeout 1 s, and room for a loaded machine
        await("the keep-alive noticed").atMost(Duration.ofSeconds(5)).pollInterval(POLL)
                .until(() -> client.state() == ClientState.RECONNECTING);
        assertThat(client.lastError()).hasMessageContaining("keep-alive");
        proxy.resume();
        waitUntil("reconnected", () -> client.state() == ClientState.CONNECTED);
        assertThat(client.reconnects()).isEqualTo(1);
        assertThat(client.session().sessionId()).isEqualTo(sessionId);
        assertThat(readOnlyValue()).isEqualTo(MiloPeerServer.READ_ONLY_VALUE);
    }

    @Test
    void while_publish_responses_arrive_the_keep_alive_sends_no_read_and_without_a_subscription_it_reads_again()
            throws Exception {
        AtomicInteger reads = new AtomicInteger();
        // an interval of 2 s: on a loaded machine a Publish answer may be late by a second without a Read being due
        connected(config().keepAliveInterval(Duration.ofSeconds(2))
                .requestObserver(service -> {
                    if (service.equals("Read")) {
                        reads.incrementAndGet();
                    }
                    return null;
                }).build());
        // a Publish answered at least every 2 x 50 ms (Part 4, 5.13.1.1), data or keep-alive
        ClientSubscription subscription = client.createSubscription(SubscriptionParameters.ofInterval(50)
                .withCounts(60, 2)).get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        int before = reads.get();

        Thread.sleep(5_000); // two and a half keep-alive intervals

        assertThat(reads.get() - before).as("keep-alive Reads while Publish responses arrived").isZero();
        assertThat(client.state()).isEqualTo(ClientState.CONNECTED);

        subscription.delete().get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        waitUntil("a keep-alive Read without Publish responses", () -> reads.get() > before);
        assertThat(client.state()).isEqualTo(ClientState.CONNECTED);
    }

    @Test
    void a_stalled_link_is_noticed_while_a_subscription_published_and_reconnected_once_the_bytes_flow_again()
            throws Exception {
        connected(config().keepAliveInterval(Duration.ofMillis(200)).keepAliveFailuresAllowed(0)
                .requestTimeout(Duration.ofSeconds(1)).build());
        client.createSubscription(SubscriptionParameters.ofInterval(50).withCounts(60, 2))
                .get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        Thread.sleep(300); // Publish responses arrive: the keep-alive relies on them instead of its Read

        proxy.stall();

        // at most 200 ms after the last answer the keep-alive reads, and its Read times out after 1 s (or the
        // subscription's watchdog finds the server silent), with room for a loaded machine
        await("the stall noticed").atMost(Duration.ofSeconds(5)).pollInterval(POLL)
                .until(() -> client.state() == ClientState.RECONNECTING);
        proxy.resume();
        waitUntil("reconnected", () -> client.state() == ClientState.CONNECTED);
        assertThat(readOnlyValue()).isEqualTo(MiloPeerServer.READ_ONLY_VALUE);
    }

    @Test
    void after_milo_restarts_the_client_creates_a_new_session_and_reads_again() throws Exception {
        connected(config().build());
        NodeId sessionId = client.session().sessionId();

        PEER.milo().stop();
        try {
            waitUntil("the loss noticed", () -> client.state() == ClientState.RECONNECTING);
        } finally {
            PEER.milo().start();
        }

        waitUntil("reconnected", () -> client.state() == ClientState.CONNECTED);
        assertThat(client.reconnects()).isEqualTo(1);
        assertThat(client.session().sessionId()).isNotEqualTo(sessionId);
        assertThat(PEER.milo().sessionCount()).isEqualTo(1);
        assertThat(readOnlyValue()).isEqualTo(MiloPeerServer.READ_ONLY_VALUE);
    }

    @Test
    void while_connections_are_refused_the_delays_between_attempts_grow_and_the_client_connects_once_they_are_accepted()
            throws Exception {
        connected(config().reconnectDelays(Duration.ofMillis(50), Duration.ofSeconds(2)).build());
        proxy.refuseNew(true);
        long before = proxy.acceptedTotal();

        proxy.dropAll();
        List<Long> attempts = attemptTimes(before, 5);
        proxy.refuseNew(false);

        List<Long> gaps = new ArrayList<>();
        for (int i = 1; i < attempts.size(); i++) {
            gaps.add(attempts.get(i) - attempts.get(i - 1));
        }
        // delays of 50, 50..100, 100..200, 200..400 ms (doubling steps with jitter in their upper half)
        assertThat(gaps.get(2)).as("gaps %s", gaps).isGreaterThan(gaps.get(0));
        assertThat(gaps.get(3)).as("gaps %s", gaps).isGreaterThan(gaps.get(1)).isGreaterThanOrEqualTo(180);
        assertThat(client.state()).isEqualTo(ClientState.RECONNECTING);
        assertThat(client.lastError()).isInstanceOf(UaException.class);
        waitUntil("connected once accepted", () -> client.state() == ClientState.CONNECTED);
        assertThat(client.reconnects()).isEqualTo(1);
        assertThat(readOnlyValue()).isEqualTo(MiloPeerServer.READ_ONLY_VALUE);
    }

    @Test
    void requests_wait_while_reconnecting_and_complete_once_reconnected() throws Exception {
        connected(config().whileReconnecting(WhileReconnecting.WAIT).build());
        lose();

        CompletableFuture<DataValue> waiting = client.readValue(READ_ONLY);
        // a request that did not wait would fail at once or at a refused attempt: one comes at least every
        // 200 ms, the longest reconnect delay
        await("the request waiting").during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(5))
                .until(() -> !waiting.isDone());
        proxy.refuseNew(false);

        assertThat(waiting.get(PATIENCE.toSeconds(), TimeUnit.SECONDS).value().value())
                .isEqualTo(MiloPeerServer.READ_ONLY_VALUE);
        assertThat(client.state()).isEqualTo(ClientState.CONNECTED);
    }

    @Test
    void requests_fail_fast_with_bad_not_connected_while_reconnecting_when_configured() throws Exception {
        connected(config().whileReconnecting(WhileReconnecting.FAIL_FAST).build());
        lose();

        CompletableFuture<DataValue> refused = client.readValue(READ_ONLY);

        assertThat(refused).as("failed fast").failsWithin(Duration.ofSeconds(1));
        assertFailsWith(refused, StatusCodes.BadNotConnected, "RECONNECTING");
        proxy.refuseNew(false);
        waitUntil("reconnected", () -> client.state() == ClientState.CONNECTED);
        assertThat(readOnlyValue()).isEqualTo(MiloPeerServer.READ_ONLY_VALUE);
    }

    @Test
    void requests_beyond_max_waiting_requests_fail_with_bad_not_connected_and_the_others_complete() throws Exception {
        connected(config().maxWaitingRequests(2).build());
        lose();

        CompletableFuture<DataValue> first = client.readValue(READ_ONLY);
        CompletableFuture<DataValue> second = client.readValue(READ_ONLY);
        CompletableFuture<DataValue> third = client.readValue(READ_ONLY);

        assertFailsWith(third, StatusCodes.BadNotConnected, "maxWaitingRequests");
        proxy.refuseNew(false);
        assertThat(first.get(PATIENCE.toSeconds(), TimeUnit.SECONDS).statusCode().isGood()).isTrue();
        assertThat(second.get(PATIENCE.toSeconds(), TimeUnit.SECONDS).statusCode().isGood()).isTrue();
    }

    @Test
    void a_client_that_keeps_trying_connects_once_the_server_is_up_and_the_first_failure_is_not_final() throws Exception {
        proxy.refuseNew(true); // the server is down when the application starts
        client = OpcUaClient.create(config().keepTryingToConnect(true).build());
        CompletableFuture<OpcUaClient> connecting = client.connect();
        CompletableFuture<DataValue> waiting = client.readValue(READ_ONLY);
        long before = proxy.acceptedTotal();
        waitUntil("two refused attempts", () -> proxy.acceptedTotal() >= before + 2);
        assertThat(connecting).isNotDone();
        assertThat(client.state()).isEqualTo(ClientState.CONNECTING);

        proxy.refuseNew(false);

        assertThat(connecting.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isSameAs(client);
        assertThat(client.state()).isEqualTo(ClientState.CONNECTED);
        assertThat(client.reconnects()).as("the first connect, not a reconnect").isZero();
        assertThat((Integer) waiting.get(PATIENCE.toSeconds(), TimeUnit.SECONDS).value().value())
                .isEqualTo(MiloPeerServer.READ_ONLY_VALUE);
    }

    @Test
    void disconnect_while_reconnecting_stops_the_attempts() throws Exception {
        connected(config().build());
        long before = proxy.acceptedTotal();
        lose();
        waitUntil("a refused attempt", () -> proxy.acceptedTotal() > before);

        client.disconnect().get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        long attempts = proxy.acceptedTotal();

        // three times the longest reconnect delay: an attempt still scheduled would have been made
        await("no attempt after the disconnect").during(Duration.ofMillis(600)).atMost(Duration.ofSeconds(5))
                .until(() -> proxy.acceptedTotal() == attempts);
        assertThat(client.state()).isEqualTo(ClientState.DISCONNECTED);
        waitUntil("the states told", () -> changes.contains("RECONNECTING->DISCONNECTED"));
        assertThat(changes.get(changes.size() - 1)).isEqualTo("RECONNECTING->DISCONNECTED");
        assertFailsWith(client.readValue(READ_ONLY), StatusCodes.BadNotConnected, "not connected");
    }

    @Test
    void disconnect_during_a_reconnect_attempt_closes_the_channel_and_session_that_attempt_still_establishes() throws Exception {
        connected(config().build());
        long before = proxy.acceptedTotal();
        proxy.stall();
        proxy.dropAll();
        waitUntil("an attempt held by the stalled proxy", () -> proxy.acceptedTotal() > before
                && proxy.connections() == 1);

        client.disconnect().get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        proxy.resume(); // the attempt's Hello, OpenSecureChannel and ActivateSession go through now

        waitUntil("the attempt's channel closed", () -> proxy.connections() == 0);
        waitUntil("the session closed", () -> PEER.milo().sessionCount() == 0);
        assertThat(client.state()).isEqualTo(ClientState.DISCONNECTED);
        assertThat(client.session()).isNull();
    }

    @Test
    void a_thousand_reconnects_leave_no_thread_and_keep_the_session() throws Exception {
        connected(config().reconnectDelays(Duration.ofMillis(1), Duration.ofMillis(5)).build());
        NodeId sessionId = client.session().sessionId();
        ThreadLeaks threads = ThreadLeaks.snapshot("opcua-client-");
        long start = System.nanoTime();

        for (int i = 1; i <= 1_000; i++) {
            long reconnects = client.reconnects();
            proxy.dropAll();
            int cycle = i;
            waitUntil("reconnect " + cycle, () -> client.reconnects() > reconnects
                    && client.state() == ClientState.CONNECTED);
        }

        long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertThat(elapsed).as("1,000 reconnects (ms)").isLessThan(60_000);
        assertThat(client.reconnects()).isEqualTo(1_000);
        assertThat(client.session().sessionId()).isEqualTo(sessionId);
        assertThat(PEER.milo().sessionCount()).isEqualTo(1);
        assertThat(readOnlyValue()).isEqualTo(MiloPeerServer.READ_ONLY_VALUE);
        threads.assertNoGrowth(Duration.ofSeconds(2));
    }

    /** Makes the connection go and stay away: new connections refused, the current one dropped. */
    private void lose() {
        proxy.refuseNew(true);
        proxy.dropAll();
        waitUntil("reconnecting", () -> client.state() == ClientState.RECONNECTING);
    }

    /**
     * When the proxy saw each of the next {@code count} connection attempts after {@code before} accepted in all:
     * milliseconds from now.
     */
    private List<Long> attemptTimes(long before, int count) {
        List<Long> times = new ArrayList<>();
        long start = System.nanoTime();
        long[] seen = {before};
        await(count + " connection attempts").atMost(PATIENCE).pollInterval(POLL).pollInSameThread().until(() -> {
            long now = proxy.acceptedTotal();
            if (now != seen[0]) {
                seen[0] = now;
                times.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
            }
            return times.size() == count;
        });
        return times;
    }

    /** Waits until {@code condition} holds, for at most {@link #PATIENCE}; the conditions only read state. */
    private static void waitUntil(String what, Callable<Boolean> condition) {
        await(what).atMost(PATIENCE).pollInterval(POLL).pollInSameThread().until(condition);
    }
}
