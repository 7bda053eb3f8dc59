package dev.opcua.stack.server.subscriptions.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.client.ClientState;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.client.subscriptions.ClientMonitoredItem;
import dev.opcua.stack.client.subscriptions.ClientSubscription;
import dev.opcua.stack.client.subscriptions.DataItemRequest;
import dev.opcua.stack.client.subscriptions.SubscriptionParameters;
import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.structured.CallMethodRequest;
import dev.opcua.stack.core.types.structured.CallMethodResult;
import dev.opcua.stack.core.types.structured.CloseSessionRequest;
import dev.opcua.stack.core.types.structured.CloseSessionResponse;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.subscriptions.SubscriptionSettings;
import dev.opcua.stack.server.subscriptions.items.MonitoredItemSettings;
import dev.opcua.stack.server.testing.LeakWatch;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Durable subscriptions (Part 4, 6.8; Part 5, 9.3 SetSubscriptionDurable) between our client and our
 * server: the lifetime revised to the configured maximum, BadInvalidState once the subscription has items,
 * queues sized for the outage, and a client whose session closed while 500 values changed transferring its
 * subscription from a new session (Part 4, 5.13.7) and receiving all 500, in order, none twice; an ordinary
 * subscription in the same situation loses them.
 */
class DurableSubscriptionsTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Duration POLL = Duration.ofMillis(10);
    private static final int MAX_DURABLE_HOURS = 48;
    private static final int MAX_DURABLE_QUEUE = 2_000;
    private static final int OUTAGE_CHANGES = 500;
    private static final NodeId SERVER = NodeId.ns0(NodeIds.Server);
    private static final NodeId METHOD = NodeId.ns0(NodeIds.Server_SetSubscriptionDurable);

    private static ClientResources resources;
    private static PushedCounter counters;
    private static OpcUaServer server;
    private final List<OpcUaClient> clients = new ArrayList<>();

    @BeforeAll
    static void startServer() {
        LeakWatch.install();
        resources = ClientResources.builder().ioThreads(1).build();
        counters = new PushedCounter();
        server = OpcUaServer.builder()
                .applicationUri("urn:test:durable:server")
                .applicationName("durable subscriptions test server")
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("localhost"))
                .security(List.of(EndpointSecurity.NONE))
                .subscriptionSettings(SubscriptionSettings.builder()
                        .minPublishingInterval(Duration.ofMillis(20))
                        .maxDurableLifetime(Duration.ofHours(MAX_DURABLE_HOURS))
                        .maxDurableQueueSize(MAX_DURABLE_QUEUE)
                        .build())
                .monitoredItemSettings(MonitoredItemSettings.DEFAULT) // data queues of at most 100
                .nodeManager(counters)
                .build()
                .start();
        counters.start(server.namespaces().indexOf(PushedCounter.NS), server.dataChanges(), "Durable", "Ordinary",
                "Items", "Queues");
    }

    @AfterAll
    static void stopServer() throws InterruptedException {
        try {
            if (server != null) {
                server.close();
            }
        } finally {
            resources.close();
        }
        LeakWatch.assertNoLeaks();
    }

    @BeforeEach
    void noClients() {
        clients.clear();
    }

    @AfterEach
    void closeClients() {
        clients.forEach(OpcUaClient::close);
    }

    private OpcUaClient connected(Duration reconnectDelay) throws Exception {
        OpcUaClient client = OpcUaClient.create(OpcUaClientConfig.builder(server.endpointUrl())
                .applicationUri("urn:test:durable:client").applicationName("durable test client")
                .resources(resources).requestTimeout(Duration.ofSeconds(5))
                .keepAliveInterval(Duration.ofMillis(500))
                .reconnectDelays(reconnectDelay, reconnectDelay).build());
        clients.add(client);
        client.connect().get(10, TimeUnit.SECONDS);
        return client;
    }

    private static CallMethodResult setDurable(OpcUaClient client, long subscriptionId, long hours) throws Exception {
        return client.call(List.of(new CallMethodRequest(SERVER, METHOD,
                new Variant[] {Variant.ofUInt32(subscriptionId), Variant.ofUInt32(hours)}))).get(10, TimeUnit.SECONDS)
                .get(0);
    }

    @Test
    void the_lifetime_is_revised_to_the_configured_maximum_and_0_asks_for_it() throws Exception {
        OpcUaClient client = connected(Duration.ofMillis(100));
        ClientSubscription asked2h = client.createSubscription(SubscriptionParameters.ofInterval(100)
                .durable(Duration.ofMinutes(90))).get(10, TimeUnit.SECONDS);
        ClientSubscription askedTooMuch = client.createSubscription(SubscriptionParameters.ofInterval(100)
                .durable(Duration.ofDays(365))).get(10, TimeUnit.SECONDS);
        ClientSubscription ordinary = client.createSubscription(SubscriptionParameters.ofInterval(100))
                .get(10, TimeUnit.SECONDS);

        assertThat(asked2h.revisedDurableLifetimeHours()).as("90 min rounded up to whole hours").isEqualTo(2);
        assertThat(askedTooMuch.revisedDurableLifetimeHours()).as("revised, not refused").isEqualTo(MAX_DURABLE_HOURS);
        assertThat(askedTooMuch.durableStatus()).isEqualTo(StatusCode.GOOD);
        assertThat(ordinary.isDurable()).isFalse();

        CallMethodResult zero = setDurable(client, ordinary.subscriptionId(), 0);
        assertThat(zero.statusCode()).isEqualTo(StatusCode.GOOD);
        assertThat(zero.outputArguments()[0].value()).as("0: the highest lifetime supported")
                .isEqualTo((long) MAX_DURABLE_HOURS);
    }

    @Test
    void a_subscription_with_items_another_sessions_or_none_is_refused() throws Exception {
        OpcUaClient client = connected(Duration.ofMillis(100));
        ClientSubscription withItems = client.createSubscription(SubscriptionParameters.ofInterval(100))
                .get(10, TimeUnit.SECONDS);
        withItems.createDataItem(DataItemRequest.of(counters.nodeId("Items"), 0, (item, value) -> { }))
                .get(10, TimeUnit.SECONDS);

        assertThat(setDurable(client, withItems.subscriptionId(), 2).statusCode().value())
                .isEqualTo(StatusCodes.BadInvalidState);
        assertThat(setDurable(client, 0xFFFF_FFF0L, 2).statusCode().value())
                .isEqualTo(StatusCodes.BadSubscriptionIdInvalid);
        OpcUaClient other = connected(Duration.ofMillis(100));
        ClientSubscription othersEmpty = other.createSubscription(SubscriptionParameters.ofInterval(100))
                .get(10, TimeUnit.SECONDS);
        assertThat(setDurable(client, othersEmpty.subscriptionId(), 2).statusCode().value())
                .isEqualTo(StatusCodes.BadUserAccessDenied);
    }

    @Test
    void items_of_a_durable_subscription_get_queues_up_to_the_durable_maximum() throws Exception {
        OpcUaClient client = connected(Duration.ofMillis(100));
        ClientSubscription durable = client.createSubscription(SubscriptionParameters.ofInterval(100)
                .durable(Duration.ofHours(1))).get(10, TimeUnit.SECONDS);
        ClientSubscription ordinary = client.createSubscription(SubscriptionParameters.ofInterval(100))
                .get(10, TimeUnit.SECONDS);
        DataItemRequest big = DataItemRequest.of(counters.nodeId("Queues"), 0, (item, value) -> { })
                .withQueue(1_000, true);
        DataItemRequest huge = big.withQueue(1_000_000, true);

        assertThat(durable.createDataItem(big).get(10, TimeUnit.SECONDS).revisedQueueSize()).isEqualTo(1_000);
        assertThat(durable.createDataItem(huge).get(10, TimeUnit.SECONDS).revisedQueueSize())
                .isEqualTo(MAX_DURABLE_QUEUE);
        assertThat(ordinary.createDataItem(big).get(10, TimeUnit.SECONDS).revisedQueueSize())
                .as("the monitored-item settings' maximum").isEqualTo(MonitoredItemSettings.DEFAULT.maxQueueSize());
    }

    @Test
    void a_client_whose_session_closed_while_500_values_changed_transfers_the_durable_subscription_and_gets_all_in_order()
            throws Exception {
        List<Integer> durableValues = Collections.synchronizedList(new ArrayList<>());
        List<Integer> ordinaryValues = Collections.synchronizedList(new ArrayList<>());
        // the reconnect waits 2 s: the 500 changes happen while the client has no session
        OpcUaClient client = connected(Duration.ofSeconds(2));
        ClientSubscription durable = client.createSubscription(SubscriptionParameters.ofInterval(50)
                .durable(Duration.ofHours(2))).get(10, TimeUnit.SECONDS);
        ClientMonitoredItem durableItem = durable.createDataItem(DataItemRequest.of(counters.nodeId("Durable"), 0,
                (item, value) -> durableValues.add((Integer) value.value().value())).withQueue(OUTAGE_CHANGES * 2, true))
                .get(10, TimeUnit.SECONDS);
        ClientSubscription ordinary = client.createSubscription(SubscriptionParameters.ofInterval(50))
                .get(10, TimeUnit.SECONDS);
        ordinary.createDataItem(DataItemRequest.of(counters.nodeId("Ordinary"), 0,
                (item, value) -> ordinaryValues.add((Integer) value.value().value())).withQueue(OUTAGE_CHANGES * 2, true))
                .get(10, TimeUnit.SECONDS);
        assertThat(durableItem.revisedQueueSize()).isEqualTo(OUTAGE_CHANGES * 2);
        for (int i = 1; i <= 10; i++) {
            counters.set("Durable", i);
            counters.set("Ordinary", i);
        }
        await().atMost(WAIT).pollInterval(POLL).until(() -> durableValues.contains(10) && ordinaryValues.contains(10));
        long durableId = durable.subscriptionId();
        NodeId firstSession = client.session().sessionId();

        // the client's session ends as a client's CloseSession ends it (deleteSubscriptions true) ... The response
        // comes before the BadSessionClosed answers of the Publish requests, on which the client reconnects.
        client.request(h -> new CloseSessionRequest(h, true), CloseSessionResponse.class).get(10, TimeUnit.SECONDS);
        long started = System.nanoTime();
        // ... and while it has none, the values change 500 times
        for (int i = 11; i <= 10 + OUTAGE_CHANGES; i++) {
            counters.set("Durable", i);
            counters.set("Ordinary", i);
        }
        assertThat(System.nanoTime() - started).as("the changes all happened before the reconnect")
                .isLessThan(TimeUnit.SECONDS.toNanos(1));

        await().atMost(WAIT).pollInterval(POLL).until(() -> client.state() == ClientState.CONNECTED
                && !client.session().sessionId().equals(firstSession) && durableValues.contains(10 + OUTAGE_CHANGES));
        assertThat(durable.subscriptionId()).as("transferred, not recreated").isEqualTo(durableId);
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i <= 10 + OUTAGE_CHANGES; i++) {
            expected.add(i);
        }
        synchronized (durableValues) {
            assertThat(durableValues).as("every value once, in order").isEqualTo(expected);
        }
        await().atMost(WAIT).pollInterval(POLL).until(() -> ordinaryValues.contains(10 + OUTAGE_CHANGES));
        synchronized (ordinaryValues) {
            List<Integer> outage = ordinaryValues.stream().filter(v -> v > 10).toList();
            assertThat(outage).as("the ordinary subscription was deleted with the session and recreated: "
                    + "it sees the current value only").containsExactly(10 + OUTAGE_CHANGES);
        }
        assertThat(client.subscriptions().lostSequenceNumbers()).isZero();
    }
}
