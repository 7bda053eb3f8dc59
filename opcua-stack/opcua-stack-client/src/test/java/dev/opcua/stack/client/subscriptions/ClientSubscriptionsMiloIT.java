package dev.opcua.stack.client.subscriptions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.client.session.ClientIdentity;
import dev.opcua.stack.client.session.ClientSession;
import dev.opcua.stack.client.session.SessionOptions;
import dev.opcua.stack.client.session.TestCertificates;
import dev.opcua.stack.client.testing.MiloPeer;
import dev.opcua.stack.client.testing.MiloPeerServer;
import dev.opcua.stack.client.transport.UaTcpClientChannel;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.client.transport.uasc.ClientChannelSecurity;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.MonitoringMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link ClientSubscriptions} against an Eclipse Milo 1.1.2 server ({@link MiloPeerServer}) through a
 * real channel and session: data changes, deadbands, event filters, monitoring modes, triggering,
 * Republish of a lost response, TransferSubscriptions to a second session, recreation after a
 * server restart, and Publish held back while a stalled listener's queue is full.
 */
class ClientSubscriptionsMiloIT {

    private static final TransportQuotas QUOTAS = TransportQuotas.builder()
            .operationTimeout(Duration.ofSeconds(10)).build();
    private static final int NS = MiloPeerServer.NAMESPACE_INDEX;
    private static final NodeId SERVER = NodeId.ns0(NodeIds.Server);
    private static final SubscriptionParameters FAST = SubscriptionParameters.ofInterval(20).withCounts(300, 10);
    /** How long a value set on the server may take to reach a listener. */
    private static final long ARRIVAL_SECONDS = 5;
    /** How long to wait to conclude nothing more comes: many sampling and publishing intervals. */
    private static final Duration QUIET = Duration.ofMillis(300);

    /**
     * A None channel whose validator accepts Milo's certificate, to which the password is encrypted:
     * Milo transfers subscriptions only between sessions of the same user, and anonymous sessions are
     * not the same user to it (BadUserAccessDenied).
     */
    private static final ClientChannelSecurity NONE = new ClientChannelSecurity(EndpointSecurity.NONE, null, List.of(),
            chain -> { });

    @RegisterExtension
    static final MiloPeer PEER = MiloPeer.server(b -> b.manyVariables(0));

    private final List<AutoCloseable> closeables = new ArrayList<>();
    private ExecutorService listeners;
    private SessionInvoker invoker;
    private ClientSubscriptions subscriptions;

    @BeforeEach
    void openSession() throws Exception {
        listeners = Executors.newSingleThreadExecutor(r -> new Thread(r, "subscriptions-test-listener"));
        invoker = new SessionInvoker(openSession(PEER.milo()));
        subscriptions = new ClientSubscriptions(invoker, SubscriptionSettings.builder()
                .requestTimeout(Duration.ofSeconds(5)).build(), listeners, PEER.clientResources().timer());
    }

    @AfterEach
    void closeAll() throws Exception {
        try {
            subscriptions.close().get(10, TimeUnit.SECONDS);
            for (int i = closeables.size() - 1; i >= 0; i--) {
                closeables.get(i).close();
            }
        } finally {
            listeners.shutdownNow();
            assertThat(listeners.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void values_set_on_the_server_reach_the_data_change_listener_in_order() throws Exception {
        PEER.milo().setValue(MiloPeerServer.INT32, 0);
        BlockingQueue<Object> values = new LinkedBlockingQueue<>();
        ClientSubscription s = subscriptions.create(FAST).get(10, TimeUnit.SECONDS);
        ClientMonitoredItem item = s.createDataItem(DataItemRequest.of(node(MiloPeerServer.INT32), 10,
                (i, v) -> values.add(v.value().value())).withQueue(10, true)).get(10, TimeUnit.SECONDS);

        assertThat(item.status()).isEqualTo(StatusCode.GOOD);
        assertThat(item.serverId()).isNotZero();
        assertThat(s.revisedPublishingInterval()).isPositive();
        assertThat(next(values)).isEqualTo(0);
        for (int v = 1; v <= 5; v++) {
            PEER.milo().setValue(MiloPeerServer.INT32, v);
            assertThat(next(values)).isEqualTo(v);
        }
        assertThat(subscriptions.notificationsReceived()).isEqualTo(6);
        assertThat(subscriptions.lostSequenceNumbers()).isZero();
    }

    @Test
    void a_backlog_larger_than_the_listener_queue_waits_at_the_server_while_publish_is_held_back() throws Exception {
        subscriptions.close().get(10, TimeUnit.SECONDS);
        subscriptions = new ClientSubscriptions(invoker, SubscriptionSettings.builder().maxQueuedNotifications(20)
                .requestTimeout(Duration.ofSeconds(5)).build(), listeners, PEER.clientResources().timer());
        PEER.milo().setValue(MiloPeerServer.INT32, 0);
        CountDownLatch stalled = new CountDownLatch(1);
        List<Object> values = Collections.synchronizedList(new ArrayList<>());
        ClientSubscription s = subscriptions.create(FAST.withMaxNotificationsPerPublish(5)).get(10, TimeUnit.SECONDS);
        s.createDataItem(DataItemRequest.of(node(MiloPeerServer.INT32), 10, (i, v) -> {
            awaitQuietly(stalled);
            values.add(v.value().value());
        }).withQueue(100, true)).get(10, TimeUnit.SECONDS);

        int last = 40;
        for (int v = 1; v <= last; v++) {
            PEER.milo().setValue(MiloPeerServer.INT32, v);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(30)); // paces the changes for Milo's 10-ms sampling
        }
        await().atMost(Duration.ofSeconds(ARRIVAL_SECONDS)).until(subscriptions::isPublishHeldBack);
        stalled.countDown();

        await().atMost(Duration.ofSeconds(ARRIVAL_SECONDS)).until(() -> values.contains(last));
        assertThat(values).as("more than the listener queue holds, in order").hasSizeGreaterThan(20)
                .isSortedAccordingTo((a, b) -> Integer.compare((Integer) a, (Integer) b)).doesNotHaveDuplicates();
        assertThat(subscriptions.droppedNotifications()).isZero();
        assertThat(subscriptions.lostSequenceNumbers()).isZero();
        assertThat(subscriptions.publishHoldBacks()).isPositive();
    }

    @Test
    void an_absolute_deadband_drops_changes_smaller_than_it() throws Exception {
        PEER.milo().setValue(MiloPeerServer.DOUBLE, 0.0);
        BlockingQueue<Object> values = new LinkedBlockingQueue<>();
        ClientSubscription s = subscriptions.create(FAST).get(10, TimeUnit.SECONDS);
        s.createDataItem(DataItemRequest.of(node(MiloPeerServer.DOUBLE), 10, (i, v) -> values.add(v.value().value()))
                .withAbsoluteDeadband(1.0)).get(10, TimeUnit.SECONDS);
        assertThat(next(values)).isEqualTo(0.0);

        PEER.milo().setValue(MiloPeerServer.DOUBLE, 10.0);
        assertThat(next(values)).isEqualTo(10.0);
        PEER.milo().setValue(MiloPeerServer.DOUBLE, 10.5);
        assertNothingArrives(values, "10.5, within the deadband of 10.0");
        PEER.milo().setValue(MiloPeerServer.DOUBLE, 12.0);

        assertThat(next(values)).as("10.5 is within the deadband of 10.0").isEqualTo(12.0);
    }

    @Test
    void an_event_item_with_a_severity_where_clause_receives_only_matching_events_with_the_selected_fields() throws Exception {
        BlockingQueue<Variant[]> events = new LinkedBlockingQueue<>();
        ClientSubscription s = subscriptions.create(FAST).get(10, TimeUnit.SECONDS);
        ClientMonitoredItem item = s.createEventItem(EventItemRequest.of(SERVER,
                EventFilters.selectWhereSeverityAtLeast(500, "Severity", "Message"), (i, fields) -> events.add(fields)))
                .get(10, TimeUnit.SECONDS);
        assertThat(item.isEventItem()).isTrue();

        PEER.milo().emitEvent(100, "minor");
        PEER.milo().emitEvent(700, "major");
        PEER.milo().emitEvent(900, "critical");

        Variant[] first = events.poll(ARRIVAL_SECONDS, TimeUnit.SECONDS);
        Variant[] second = events.poll(ARRIVAL_SECONDS, TimeUnit.SECONDS);
        assertThat(first).hasSize(2);
        assertThat(((Number) first[0].value()).intValue()).isEqualTo(700);
        assertThat(((LocalizedText) first[1].value()).text()).isEqualTo("major");
        assertThat(((Number) second[0].value()).intValue()).isEqualTo(900);
        assertNothingArrives(events, "the severity 100 event");
    }

    @Test
    void a_disabled_item_reports_nothing_until_it_reports_again() throws Exception {
        PEER.milo().setValue(MiloPeerServer.INT32, 0);
        BlockingQueue<Object> values = new LinkedBlockingQueue<>();
        ClientSubscription s = subscriptions.create(FAST).get(10, TimeUnit.SECONDS);
        ClientMonitoredItem item = s.createDataItem(DataItemRequest.of(node(MiloPeerServer.INT32), 10,
                (i, v) -> values.add(v.value().value()))).get(10, TimeUnit.SECONDS);
        assertThat(next(values)).isEqualTo(0);

        assertThat(s.setMonitoringMode(MonitoringMode.Disabled, List.of(item)).get(10, TimeUnit.SECONDS))
                .containsExactly(StatusCode.GOOD);
        assertThat(item.monitoringMode()).isEqualTo(MonitoringMode.Disabled);
        PEER.milo().setValue(MiloPeerServer.INT32, 1);
        assertNothingArrives(values, "a value of the disabled item");

        assertThat(item.setMonitoringMode(MonitoringMode.Reporting).get(10, TimeUnit.SECONDS)).isEqualTo(StatusCode.GOOD);
        PEER.milo().setValue(MiloPeerServer.INT32, 2);
        // Reporting again, the server may first report the value it sampled last (Milo can deliver [0, 2] when
        // the machine is loaded); what matters is that nothing came while the item was disabled, and that the new
        // value comes now. That the client itself never delivers a sequence number twice is
        // NotificationSequencerTest#a_sequence_number_received_twice_is_delivered_once's.
        assertThat(drainUntil(values, 2)).last().isEqualTo(2);
    }

    @Test
    void a_sampling_item_linked_to_a_trigger_is_reported_when_the_trigger_reports() throws Exception {
        PEER.milo().setValue(MiloPeerServer.INT32, 0);
        PEER.milo().setValue(MiloPeerServer.STRING, "");
        BlockingQueue<Object> triggers = new LinkedBlockingQueue<>();
        BlockingQueue<Object> triggered = new LinkedBlockingQueue<>();
        ClientSubscription s = subscriptions.create(FAST).get(10, TimeUnit.SECONDS);
        ClientMonitoredItem trigger = s.createDataItem(DataItemRequest.of(node(MiloPeerServer.INT32), 10,
                (i, v) -> triggers.add(v.value().value()))).get(10, TimeUnit.SECONDS);
        ClientMonitoredItem linked = s.createDataItem(DataItemRequest.of(node(MiloPeerServer.STRING), 10,
                (i, v) -> triggered.add(v.value().value())).withMonitoringMode(MonitoringMode.Sampling)
                .withQueue(5, true)).get(10, TimeUnit.SECONDS);
        assertThat(next(triggers)).isEqualTo(0);

        ClientSubscription.TriggeringResults results = s.setTriggering(trigger, List.of(linked), List.of())
                .get(10, TimeUnit.SECONDS);
        assertThat(results.addResults()).containsExactly(StatusCode.GOOD);
        assertThat(trigger.triggeredItems()).containsExactly(linked);
        triggered.clear();
        PEER.milo().setValue(MiloPeerServer.STRING, "sampled");
        assertNothingArrives(triggered, "a value of the sampling only item");

        PEER.milo().setValue(MiloPeerServer.INT32, 1);
        assertThat(next(triggers)).isEqualTo(1);
        assertThat(drainUntil(triggered, "sampled")).isNotNull();
    }

    @Test
    void a_lost_publish_response_is_fetched_with_republish_and_nothing_is_missing() throws Exception {
        PEER.milo().setValue(MiloPeerServer.INT32, 0);
        BlockingQueue<Object> values = new LinkedBlockingQueue<>();
        ClientSubscription s = subscriptions.create(FAST).get(10, TimeUnit.SECONDS);
        s.createDataItem(DataItemRequest.of(node(MiloPeerServer.INT32), 10, (i, v) -> values.add(v.value().value()))
                .withQueue(10, true)).get(10, TimeUnit.SECONDS);
        assertThat(next(values)).isEqualTo(0);

        invoker.dropNextDataResponses(1);
        PEER.milo().setValue(MiloPeerServer.INT32, 1);
        // the next response, a keep-alive at the latest, shows the gap
        assertThat(next(values)).isEqualTo(1);
        PEER.milo().setValue(MiloPeerServer.INT32, 2);

        assertThat(next(values)).isEqualTo(2);
        assertThat(subscriptions.republished()).isEqualTo(1);
        assertThat(subscriptions.lostSequenceNumbers()).isZero();
        assertThat(invoker.sentCount(dev.opcua.stack.core.types.structured.RepublishRequest.class)).isEqualTo(1);
    }

    @Test
    void a_subscription_transferred_to_a_new_session_keeps_delivering_without_loss() throws Exception {
        PEER.milo().setValue(MiloPeerServer.INT32, 0);
        BlockingQueue<Object> values = new LinkedBlockingQueue<>();
        ClientSubscription s = subscriptions.create(FAST).get(10, TimeUnit.SECONDS);
        ClientMonitoredItem item = s.createDataItem(DataItemRequest.of(node(MiloPeerServer.INT32), 10,
                (i, v) -> values.add(v.value().value())).withQueue(10, true)).get(10, TimeUnit.SECONDS);
        assertThat(next(values)).isEqualTo(0);
        long id = s.subscriptionId();
        long itemId = item.serverId();

        subscriptions.connectionLost();
        PEER.milo().setValue(MiloPeerServer.INT32, 1); // while no Publish is sent: the server queues it
        Thread.sleep(100); // the scenario: the server samples it (every 10 ms) before the session is replaced
        invoker.use(openSession(PEER.milo()));
        subscriptions.sessionReplaced().get(10, TimeUnit.SECONDS);
        PEER.milo().setValue(MiloPeerServer.INT32, 2);

        List<Object> seen = drainUntil(values, 2);
        assertThat(seen).containsSubsequence(1, 2);
        assertThat(invoker.sent()).as("transferred, not recreated").contains("TransferSubscriptionsRequest")
                .containsOnlyOnce("CreateSubscriptionRequest");
        assertThat(s.subscriptionId()).isEqualTo(id);
        assertThat(item.serverId()).isEqualTo(itemId);
        assertThat(invoker.sentCount(dev.opcua.stack.core.types.structured.CreateSubscriptionRequest.class))
                .isEqualTo(1);
        assertThat(subscriptions.lostSequenceNumbers()).isZero();
    }

    @Test
    void after_a_server_restart_the_record_is_recreated_and_the_same_listeners_receive_again() throws Exception {
        try (MiloPeerServer restarting = MiloPeerServer.builder().manyVariables(0).start()) {
            SessionInvoker own = new SessionInvoker(openSession(restarting));
            ClientSubscriptions subs = new ClientSubscriptions(own, SubscriptionSettings.builder()
                    .requestTimeout(Duration.ofSeconds(5)).build(), listeners, PEER.clientResources().timer());
            try {
                restarting.setValue(MiloPeerServer.INT32, 0);
                BlockingQueue<Object> values = new LinkedBlockingQueue<>();
                BlockingQueue<Variant[]> events = new LinkedBlockingQueue<>();
                ClientSubscription s = subs.create(FAST).get(10, TimeUnit.SECONDS);
                ClientMonitoredItem data = s.createDataItem(DataItemRequest.of(node(MiloPeerServer.INT32), 10,
                        (i, v) -> values.add(v.value().value()))).get(10, TimeUnit.SECONDS);
                s.createEventItem(EventItemRequest.of(SERVER, EventFilters.select("Message"),
                        (i, fields) -> events.add(fields))).get(10, TimeUnit.SECONDS);
                assertThat(next(values)).isEqualTo(0);
                int handle = data.clientHandle();

                subs.connectionLost();
                restarting.stop();
                restarting.setValue(MiloPeerServer.INT32, 7);
                restarting.start();
                own.use(openSession(restarting));
                subs.sessionReplaced().get(10, TimeUnit.SECONDS);

                assertThat(own.sent()).contains("TransferSubscriptionsRequest");
                assertThat(data.clientHandle()).isEqualTo(handle);
                assertThat(data.status()).isEqualTo(StatusCode.GOOD);
                assertThat(drainUntil(values, 7)).isNotNull();
                restarting.setValue(MiloPeerServer.INT32, 8);
                assertThat(next(values)).isEqualTo(8);
                restarting.emitEvent(500, "after restart");
                Variant[] fields = events.poll(ARRIVAL_SECONDS, TimeUnit.SECONDS);
                assertThat(fields).isNotNull();
                assertThat(((LocalizedText) fields[0].value()).text()).isEqualTo("after restart");
            } finally {
                subs.close().get(10, TimeUnit.SECONDS);
            }
        }
    }

    // ---- helpers ----------------------------------------------------------------------------------

    private ClientSession openSession(MiloPeerServer server) throws Exception {
        UaTcpClientChannel channel = UaTcpClientChannel.connect(server.endpointUrl(), QUOTAS,
                NONE, PEER.clientResources()).get(10, TimeUnit.SECONDS);
        closeables.add(() -> channel.close().get(10, TimeUnit.SECONDS));
        ClientSession session = ClientSession.open(channel, NONE, SessionOptions.builder()
                .applicationUri(TestCertificates.applicationUri("subscriptions-client"))
                .applicationName("opcua-java subscriptions test").sessionName("subscriptions")
                .identity(ClientIdentity.userName(MiloPeerServer.USER, MiloPeerServer.PASSWORD)).build())
                .get(10, TimeUnit.SECONDS);
        closeables.add(() -> {
            try {
                session.close().get(10, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                // best effort: its server may have stopped or closed the connection first
            }
        });
        return session;
    }

    private static NodeId node(String id) {
        return NodeId.string(NS, id);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(ARRIVAL_SECONDS * 2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static <T> T next(BlockingQueue<T> queue) throws InterruptedException {
        T value = queue.poll(ARRIVAL_SECONDS, TimeUnit.SECONDS);
        assertThat(value).as("a notification within %d s", ARRIVAL_SECONDS).isNotNull();
        return value;
    }

    private static void assertNothingArrives(BlockingQueue<?> queue, String what) {
        await("no " + what).during(QUIET).atMost(QUIET.plusSeconds(5)).until(queue::isEmpty);
    }

    /** Everything received up to and including {@code expected}; fails if it does not come. */
    private static List<Object> drainUntil(BlockingQueue<Object> queue, Object expected) {
        List<Object> seen = new ArrayList<>();
        await().atMost(Duration.ofSeconds(ARRIVAL_SECONDS)).pollInterval(Duration.ofMillis(10)).pollInSameThread()
                .untilAsserted(() -> assertThat(takeUntil(queue, expected, seen))
                        .as("%s among the values received: %s", expected, seen).isTrue());
        return seen;
    }

    /** Moves the queue's values to {@code seen} up to {@code expected}; whether that came. */
    private static boolean takeUntil(BlockingQueue<Object> queue, Object expected, List<Object> seen) {
        for (Object v = queue.poll(); v != null; v = queue.poll()) {
            seen.add(v);
            if (v.equals(expected)) {
                return true;
            }
        }
        return false;
    }
}
