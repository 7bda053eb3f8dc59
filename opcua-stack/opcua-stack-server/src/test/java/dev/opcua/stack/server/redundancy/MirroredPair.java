package dev.opcua.stack.server.redundancy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.client.ClientState;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.client.redundancy.FailoverEvent;
import dev.opcua.stack.client.redundancy.FailoverPath;
import dev.opcua.stack.client.redundancy.RedundancyConfig;
import dev.opcua.stack.client.subscriptions.ClientSubscription;
import dev.opcua.stack.client.subscriptions.DataItemRequest;
import dev.opcua.stack.client.subscriptions.SubscriptionParameters;
import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.subscriptions.SubscriptionSettings;
import dev.opcua.stack.server.subscriptions.items.MonitoredItemSettings;
import dev.opcua.stack.server.subscriptions.durable.PushedCounter;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * Two of our servers forming a HotAndMirrored pair over one {@link SessionStateStore}, and our client in
 * HOT_AND_MIRRORED mode subscribed on the first: the failover tests of the in-memory store and of PostgreSQL run
 * the same steps. Each server has a {@link PushedCounter} "Value" (every change reaches the items' queues), as two
 * servers of one plant would both see it.
 */
public final class MirroredPair implements AutoCloseable {

    public static final Duration WAIT = Duration.ofSeconds(15);
    /** Long enough that a burst of changes, A's last write and its crash fit between two Publish responses. */
    static final int PUBLISHING_MILLIS = 500;
    /** The servers' mirror interval. */
    static final int MIRROR_MILLIS = 50;

    public final OpcUaServer a;
    public final OpcUaServer b;
    public final PushedCounter valueA = new PushedCounter();
    public final PushedCounter valueB = new PushedCounter();
    public final OpcUaClient client;
    public final List<Integer> received = Collections.synchronizedList(new ArrayList<>());
    public final List<FailoverEvent> failovers = new CopyOnWriteArrayList<>();
    public final ClientSubscription subscription;
    private final ClientResources resources;

    /**
     * What a test adds to the pair's plain configuration (SecurityPolicy None, anonymous): each server's builder
     * (its ServerUri given) and the client's, applied last, so that they may replace the security, PKI and identity.
     */
    public interface Setup {

        /** None and anonymous. */
        Setup PLAIN = new Setup() {
        };

        default OpcUaServer.Builder server(String uri, OpcUaServer.Builder builder) {
            return builder;
        }

        default OpcUaClientConfig.Builder client(OpcUaClientConfig.Builder builder) {
            return builder;
        }
    }

    /** Starts A and B on {@code store} and connects the client to A with one subscription of one item. */
    public MirroredPair(SessionStateStore store) throws Exception {
        this(store, Setup.PLAIN);
    }

    /** {@link #MirroredPair(SessionStateStore)} with the servers and the client configured further by {@code setup}. */
    public MirroredPair(SessionStateStore store, Setup setup) throws Exception {
        int portA = freePort();
        int portB = freePort();
        String urlA = "opc.tcp://localhost:" + portA + "/";
        String urlB = "opc.tcp://localhost:" + portB + "/";
        a = server("urn:test:mirrored:a", portA, "urn:test:mirrored:b", urlB, store, valueA, setup);
        b = server("urn:test:mirrored:b", portB, "urn:test:mirrored:a", urlA, store, valueB, setup);
        resources = ClientResources.builder().ioThreads(1).build();
        client = OpcUaClient.create(setup.client(OpcUaClientConfig.builder(urlA)
                .applicationUri("urn:test:mirrored:client").applicationName("mirrored failover client")
                .resources(resources).requestTimeout(Duration.ofSeconds(3))
                .keepAliveInterval(Duration.ofMillis(300))
                .reconnectDelays(Duration.ofMillis(200), Duration.ofMillis(500))
                .redundancy(RedundancyConfig.builder().endpoints(urlB)
                        .mode(dev.opcua.stack.client.redundancy.RedundancyMode.HOT_AND_MIRRORED)
                        .failoverTimeout(Duration.ofSeconds(1)).serviceLevelInterval(Duration.ofMillis(200)).build()))
                .build());
        client.addFailoverListener(failovers::add);
        client.connect().get(10, TimeUnit.SECONDS);
        subscription = client.createSubscription(SubscriptionParameters.ofInterval(PUBLISHING_MILLIS)).get(10, TimeUnit.SECONDS);
        subscription.createDataItem(DataItemRequest.of(valueA.nodeId("Value"), 0,
                (item, value) -> received.add((Integer) value.value().value())).withQueue(10_000, true))
                .get(10, TimeUnit.SECONDS);
    }

    static OpcUaServer server(String uri, int port, String partnerUri, String partnerUrl,
            SessionStateStore store, PushedCounter counter) {
        return server(uri, port, partnerUri, partnerUrl, store, counter, Setup.PLAIN);
    }

    static OpcUaServer server(String uri, int port, String partnerUri, String partnerUrl,
            SessionStateStore store, PushedCounter counter, Setup setup) {
        OpcUaServer server = setup.server(uri, OpcUaServer.builder()
                .applicationUri(uri).applicationName(uri)
                .bindAddress("127.0.0.1").port(port).hostnames(List.of("localhost"))
                .security(List.of(EndpointSecurity.NONE))
                .subscriptionSettings(SubscriptionSettings.builder().minPublishingInterval(Duration.ofMillis(20))
                        .build())
                // every change of a burst stays queued (the default maximum is 100)
                .monitoredItemSettings(new MonitoredItemSettings(10, 3_600_000, 10_000, 100, 1_000, 10_000))
                .redundancy(RedundancySettings.of(RedundancyMode.HotAndMirrored,
                        new RedundancyPartner(partnerUri, partnerUrl)))
                // the monitor's own session on the partner would count among the sessions these tests assert
                // (PartnerMonitorIT covers it)
                .partnerMonitor(PartnerMonitorSettings.DISABLED)
                .sessionStateStore(store)
                .sessionMirrorSettings(SessionMirrorSettings.DEFAULT.withInterval(Duration.ofMillis(MIRROR_MILLIS)))
                .nodeManager(counter))
                .build()
                .start();
        counter.start(server.namespaces().indexOf(PushedCounter.NS), server.dataChanges(), "Value");
        return server;
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /**
     * Values 1..{@code beforeCrash} change on A, of which the client receives the first half before; the rest
     * is queued on A when its last state is written and A halts (a crash: nothing closed, nothing told); the
     * client fails over to B, which continues the session; values after the crash change on B. Asserts the
     * same session and subscription, nothing re-created, the path SESSION_REACTIVATED, and every value once in
     * order.
     *
     * @return how many values A had queued or sent unacknowledged at the crash that the client received from B
     */
    public int crashAndFailOver(int beforeCrash, int afterCrash) throws Exception {
        NodeId sessionId = client.session().sessionId();
        long subscriptionId = subscription.subscriptionId();
        int half = beforeCrash / 2;
        for (int i = 1; i <= half; i++) {
            valueA.set("Value", i);
        }
        await().atMost(WAIT).until(() -> received.contains(half));
        long bSessionsCreated = b.statistics().sessionCounters().sessionsCreated();
        for (int i = half + 1; i <= beforeCrash; i++) {
            valueA.set("Value", i);
        }
        assertThat(a.sessionMirror().flushNow()).as("A's last state written").isTrue();
        a.halt();
        int lastFromA;
        synchronized (received) {
            lastFromA = received.stream().mapToInt(Integer::intValue).max().orElse(0);
        }
        await().atMost(WAIT).until(() -> client.state() == ClientState.CONNECTED && failovers.size() == 1);
        for (int i = beforeCrash + 1; i <= beforeCrash + afterCrash; i++) {
            valueB.set("Value", i);
        }
        await().atMost(WAIT).until(() -> received.contains(beforeCrash + afterCrash));

        FailoverEvent event = failovers.get(0);
        assertThat(event.path()).isEqualTo(FailoverPath.SESSION_REACTIVATED);
        assertThat(event.to()).isEqualTo(b.endpointUrl());
        assertThat(client.session().sessionId()).as("the same session, activated on B").isEqualTo(sessionId);
        assertThat(subscription.subscriptionId()).as("the same subscription, not re-created")
                .isEqualTo(subscriptionId);
        assertThat(b.statistics().sessionCounters().sessionsCreated()).as("no CreateSession on B")
                .isEqualTo(bSessionsCreated);
        assertThat(b.sessionMirror().takenOverSessions()).isEqualTo(1);
        assertThat(client.subscriptions().lostSequenceNumbers())
                .as("only the numbers B reserved past A's stored state are missing (no notification in them)")
                .isLessThanOrEqualTo(SessionMirror.takeoverReservation(PUBLISHING_MILLIS, MIRROR_MILLIS,
                        SubscriptionSettings.builder().build().maxPublishRequestsPerSession()));
        assertEveryValueOnceInOrder(beforeCrash + afterCrash);
        return beforeCrash - lastFromA;
    }

    /** Asserts that the client received 1..{@code last} (after the item's initial value 0), each once, in order. */
    public void assertEveryValueOnceInOrder(int last) {
        List<Integer> changes;
        synchronized (received) {
            changes = new ArrayList<>(received.isEmpty() || received.get(0) != 0 ? received
                    : received.subList(1, received.size())); // the item's initial value, when it came
        }
        List<Integer> missing = new ArrayList<>();
        for (int i = 1; i <= last; i++) {
            if (!changes.contains(i)) {
                missing.add(i);
            }
        }
        List<Integer> outOfOrder = new ArrayList<>();
        for (int i = 1; i < changes.size(); i++) {
            if (changes.get(i) <= changes.get(i - 1)) {
                outOfOrder.add(changes.get(i));
            }
        }
        assertThat(missing).as("values lost across the failover").isEmpty();
        assertThat(outOfOrder).as("values received twice or out of order").isEmpty();
        assertThat(changes).hasSize(last);
    }

    @Override
    public void close() {
        client.close();
        a.close();
        b.close();
        resources.close();
    }
}
