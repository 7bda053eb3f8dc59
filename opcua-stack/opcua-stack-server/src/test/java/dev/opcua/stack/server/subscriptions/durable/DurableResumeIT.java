package dev.opcua.stack.server.subscriptions.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.client.session.ClientIdentity;
import dev.opcua.stack.client.subscriptions.ClientMonitoredItem;
import dev.opcua.stack.client.subscriptions.ClientSubscription;
import dev.opcua.stack.client.subscriptions.DataChangeListener;
import dev.opcua.stack.client.subscriptions.DataItemRequest;
import dev.opcua.stack.client.subscriptions.ResumeToken;
import dev.opcua.stack.client.subscriptions.ResumedSubscription;
import dev.opcua.stack.client.subscriptions.SubscriptionParameters;
import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.core.types.structured.CallMethodRequest;
import dev.opcua.stack.core.types.structured.CallMethodResult;
import dev.opcua.stack.core.types.structured.UserTokenPolicy;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.discovery.DiscoveryServices;
import dev.opcua.stack.server.session.UserNameIdentityValidator;
import dev.opcua.stack.server.subscriptions.GetMonitoredItems;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A new client resumes a durable subscription (Part 4, 6.8) that another client created and left: client A
 * subscribes to three counters, values flow, A leaves (detached and disconnected, or dropped without closing its
 * session), the counters go on changing at the server, and client B, a new {@link OpcUaClient} knowing only A's
 * {@link ResumeToken} as text, resumes the subscription: TransferSubscriptions, GetMonitoredItems (Part 5, 9.1),
 * then Publish. Together A and B receive every value once, in order. The refusals name their cause.
 */
class DurableResumeIT {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final List<String> COUNTERS = List.of("A", "B", "C");
    private static final int ABSENT_CHANGES = 150;

    private PushedCounter counters;
    private OpcUaServer server;
    private ClientResources resources;
    private final List<OpcUaClient> clients = new ArrayList<>();
    /** Every value received, per counter, by whichever client. */
    private final Map<String, List<Integer>> received = new ConcurrentHashMap<>();

    @BeforeEach
    void start() {
        counters = new PushedCounter();
        server = counters.startServer(b -> b.applicationUri("urn:test:durable:resume")
                .identities(UserNameIdentityValidator.of(Map.of("engineer", "e-secret", "operator", "o-secret"), true),
                        List.of(DiscoveryServices.ANONYMOUS,
                                new UserTokenPolicy("username", UserTokenType.UserName, null, null, null))),
                COUNTERS.toArray(String[]::new));
        resources = ClientResources.builder().ioThreads(1).build();
        for (String name : COUNTERS) {
            received.put(name, Collections.synchronizedList(new ArrayList<>()));
        }
    }

    @AfterEach
    void stop() {
        for (OpcUaClient c : clients) {
            c.close();
        }
        server.close();
        resources.close();
    }

    @Test
    void a_new_client_resumes_a_detached_durable_subscription_and_receives_every_value_once_in_order()
            throws Exception {
        OpcUaClient a = connect("engineer", "e-secret", resources);
        ClientSubscription subscription = subscribe(a);
        setAll(1, 20);
        awaitReceived(20);

        long id = subscription.subscriptionId();
        String saved = a.subscriptions().detach(subscription).encode();
        assertThat(subscription.subscriptionId()).as("no longer A's").isZero();
        a.close();
        setAll(21, 20 + ABSENT_CHANGES);

        OpcUaClient b = connect("engineer", "e-secret", resources);
        ResumedSubscription resumed = b.subscriptions().resume(ResumeToken.decode(saved), collector())
                .get(10, TimeUnit.SECONDS);
        assertThat(resumed.subscription().subscriptionId()).isEqualTo(id);
        assertThat(resumed.undeclaredHandles()).isEmpty();
        assertThat(resumed.recreatedHandles()).isEmpty();
        assertThat(resumed.subscription().items()).allSatisfy(i -> assertThat(i.serverId()).isPositive());
        awaitReceived(20 + ABSENT_CHANGES);
        setAll(21 + ABSENT_CHANGES, 30 + ABSENT_CHANGES);
        awaitReceived(30 + ABSENT_CHANGES);
        assertEveryValueOnceInOrder(30 + ABSENT_CHANGES);

        ClientMonitoredItem added = resumed.subscription().createDataItem(
                DataItemRequest.of(counters.nodeId("A"), 0, (item, value) -> { })).get(10, TimeUnit.SECONDS);
        assertThat(added.clientHandle()).as("a new item's handle stays clear of the resumed ones")
                .isNotIn(resumed.subscription().items().stream().filter(i -> i != added)
                        .map(ClientMonitoredItem::clientHandle).toList());
    }

    @Test
    void a_new_client_resumes_the_subscription_of_a_client_dropped_without_closing_its_session() throws Exception {
        ClientResources doomed = ClientResources.builder().ioThreads(1).build();
        OpcUaClient a = connect("engineer", "e-secret", doomed);
        ClientSubscription subscription = subscribe(a);
        setAll(1, 20);
        awaitReceived(20);
        String saved = subscription.resumeToken().encode(); // the last checkpoint the process wrote
        doomed.close(); // its sockets close: no CloseSession, no DeleteSubscriptions
        setAll(21, 20 + ABSENT_CHANGES);

        OpcUaClient b = connect("engineer", "e-secret", resources);
        b.subscriptions().resume(ResumeToken.decode(saved), collector()).get(10, TimeUnit.SECONDS);
        awaitReceived(20 + ABSENT_CHANGES);
        setAll(21 + ABSENT_CHANGES, 30 + ABSENT_CHANGES);
        awaitReceived(30 + ABSENT_CHANGES);
        assertEveryValueOnceInOrder(30 + ABSENT_CHANGES);
    }

    @Test
    void an_item_the_token_does_not_declare_is_reported_and_its_values_still_delivered() throws Exception {
        OpcUaClient a = connect("engineer", "e-secret", resources);
        ClientSubscription subscription = subscribe(a);
        ResumeToken full = a.subscriptions().detach(subscription);
        ResumeToken.Item undeclared = full.items().get(2);
        ResumeToken partial = new ResumeToken(full.subscriptionId(), full.parameters(),
                full.revisedPublishingInterval(), full.revisedLifetimeCount(), full.revisedMaxKeepAliveCount(),
                full.durableLifetimeHours(), full.deliveredSequenceNumber(), full.items().subList(0, 2));
        a.close();

        OpcUaClient b = connect("engineer", "e-secret", resources);
        List<NodeId> nodes = Collections.synchronizedList(new ArrayList<>());
        ResumedSubscription resumed = b.subscriptions().resume(partial, (item, value) -> nodes.add(item.node()))
                .get(10, TimeUnit.SECONDS);
        assertThat(resumed.undeclaredHandles()).containsExactly(undeclared.clientHandle());
        counters.set("C", 1);
        await().atMost(WAIT).until(() -> nodes.contains(NodeId.NULL));
    }

    @Test
    void resuming_an_unknown_subscription_fails_with_bad_subscription_id_invalid() throws Exception {
        OpcUaClient b = connect("engineer", "e-secret", resources);
        ResumeToken unknown = new ResumeToken(987_654, SubscriptionParameters.ofInterval(50), 50, 600, 10, 2, 0,
                List.of());
        assertThatThrownBy(() -> b.subscriptions().resume(unknown, collector()).get(10, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(UaException.class)
                .hasMessageContaining("987654").hasMessageContaining("BadSubscriptionIdInvalid")
                .satisfies(e -> assertThat(((UaException) e).statusCode().value())
                        .isEqualTo(StatusCodes.BadSubscriptionIdInvalid));
        assertThat(b.subscriptions().list()).isEmpty();
    }

    @Test
    void another_user_can_neither_resume_the_subscription_nor_list_its_items() throws Exception {
        OpcUaClient a = connect("engineer", "e-secret", resources);
        ClientSubscription subscription = subscribe(a);
        ResumeToken token = a.subscriptions().detach(subscription);
        a.close();

        OpcUaClient other = connect("operator", "o-secret", resources);
        assertThatThrownBy(() -> other.call(GetMonitoredItems.SERVER, GetMonitoredItems.METHOD,
                Variant.ofUInt32(token.subscriptionId())).get(10, TimeUnit.SECONDS))
                .cause().isInstanceOf(UaException.class)
                .satisfies(e -> assertThat(((UaException) e).statusCode().value())
                        .isEqualTo(StatusCodes.BadUserAccessDenied));
        assertThatThrownBy(() -> other.subscriptions().resume(token, collector()).get(10, TimeUnit.SECONDS))
                .cause().isInstanceOf(UaException.class).hasMessageContaining("another user")
                .satisfies(e -> assertThat(((UaException) e).statusCode().value())
                        .isEqualTo(StatusCodes.BadUserAccessDenied));

        OpcUaClient owner = connect("engineer", "e-secret", resources);
        assertThat(owner.subscriptions().resume(token, collector()).get(10, TimeUnit.SECONDS).subscription()
                .subscriptionId()).as("the refusal left it for its user").isEqualTo(token.subscriptionId());
    }

    @Test
    void get_monitored_items_lists_the_calling_sessions_items_and_names_what_is_wrong() throws Exception {
        OpcUaClient a = connect("engineer", "e-secret", resources);
        ClientSubscription subscription = subscribe(a);

        Variant[] out = a.call(GetMonitoredItems.SERVER, GetMonitoredItems.METHOD,
                Variant.ofUInt32(subscription.subscriptionId())).get(10, TimeUnit.SECONDS);
        Map<Long, Long> listed = new HashMap<>();
        long[] serverHandles = (long[]) out[0].value();
        long[] clientHandles = (long[]) out[1].value();
        for (int i = 0; i < serverHandles.length; i++) {
            listed.put(serverHandles[i], clientHandles[i]);
        }
        Map<Long, Long> created = new HashMap<>();
        subscription.items().forEach(i -> created.put(i.serverId(), (long) i.clientHandle()));
        assertThat(listed).isEqualTo(created).hasSize(COUNTERS.size());

        List<CallMethodResult> refused = a.call(List.of(
                new CallMethodRequest(GetMonitoredItems.SERVER, GetMonitoredItems.METHOD,
                        new Variant[] {Variant.ofUInt32(987_654)}),
                new CallMethodRequest(NodeId.ns0(NodeIds.ObjectsFolder), GetMonitoredItems.METHOD,
                        new Variant[] {Variant.ofUInt32(subscription.subscriptionId())}),
                new CallMethodRequest(GetMonitoredItems.SERVER, GetMonitoredItems.METHOD,
                        new Variant[] {Variant.ofString("1")}))).get(10, TimeUnit.SECONDS);
        assertThat(refused).extracting(r -> r.statusCode().value()).containsExactly(
                StatusCodes.BadSubscriptionIdInvalid, StatusCodes.BadMethodInvalid, StatusCodes.BadInvalidArgument);
    }

    // ---- helpers --------------------------------------------------------------------------------

    private OpcUaClient connect(String user, String password, ClientResources on) throws Exception {
        OpcUaClient client = OpcUaClient.create(OpcUaClientConfig.builder(server.endpointUrl())
                .applicationUri("urn:test:durable:resume:client").applicationName("durable resume client")
                .identity(ClientIdentity.userName(user, password))
                .resources(on).requestTimeout(Duration.ofSeconds(5)).build());
        client.connect().get(10, TimeUnit.SECONDS);
        if (on == resources) {
            clients.add(client); // a client on resources a test closes is gone with them
        }
        return client;
    }

    /** A durable subscription (2 h) with an item on each counter, its values collected. */
    private ClientSubscription subscribe(OpcUaClient client) throws Exception {
        ClientSubscription s = client.createSubscription(SubscriptionParameters.ofInterval(50)
                .durable(Duration.ofHours(2))).get(10, TimeUnit.SECONDS);
        List<DataItemRequest> requests = new ArrayList<>();
        for (String name : COUNTERS) {
            requests.add(DataItemRequest.of(counters.nodeId(name), 0, collector()).withQueue(500, true));
        }
        s.createDataItems(requests).get(10, TimeUnit.SECONDS);
        assertThat(s.isDurable()).isTrue();
        awaitReceived(0);
        return s;
    }

    /** Adds each value to the list of its counter, found by the item's node. */
    private DataChangeListener collector() {
        return (item, value) -> received.get(item.node().stringId()).add((Integer) value.value().value());
    }

    private void setAll(int from, int to) {
        for (int v = from; v <= to; v++) {
            for (String name : COUNTERS) {
                counters.set(name, v);
            }
        }
    }

    private void awaitReceived(int value) {
        await().atMost(WAIT).until(() -> received.values().stream().allMatch(l -> l.contains(value)));
    }

    private void assertEveryValueOnceInOrder(int last) {
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i <= last; i++) {
            expected.add(i);
        }
        for (String name : COUNTERS) {
            List<Integer> values = received.get(name);
            synchronized (values) {
                assertThat(values).as("counter %s: every value once, in order", name).isEqualTo(expected);
            }
        }
    }
}
