package dev.opcua.stack.server.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.ubyte;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.pki.CertificateBuilder;
import dev.opcua.stack.core.security.pki.PkiDirectory;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.structured.Range;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.addressspace.ValueAttributes;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.nodes.NodeStoreNodeManager;
import dev.opcua.stack.server.subscriptions.SubscriptionSettings;
import dev.opcua.stack.server.subscriptions.SubscriptionStatistics;
import dev.opcua.stack.server.subscriptions.items.DataChangeBroker;
import dev.opcua.stack.server.subscriptions.items.MonitoringAware;
import dev.opcua.stack.server.testing.LeakWatch;
import dev.opcua.stack.server.testing.MiloClients;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.eclipse.milo.opcua.sdk.client.DiscoveryClient;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.OpcUaClientConfig;
import org.eclipse.milo.opcua.sdk.client.identity.AnonymousProvider;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaMonitoredItem;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaSubscription;
import org.eclipse.milo.opcua.stack.core.AttributeId;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.security.SecurityPolicy;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UInteger;
import org.eclipse.milo.opcua.stack.core.types.enumerated.DataChangeTrigger;
import org.eclipse.milo.opcua.stack.core.types.enumerated.DeadbandType;
import org.eclipse.milo.opcua.stack.core.types.enumerated.MessageSecurityMode;
import org.eclipse.milo.opcua.stack.core.types.enumerated.MonitoringMode;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.CloseSessionRequest;
import org.eclipse.milo.opcua.stack.core.types.structured.CreateMonitoredItemsResponse;
import org.eclipse.milo.opcua.stack.core.types.structured.CreateSubscriptionResponse;
import org.eclipse.milo.opcua.stack.core.types.structured.DataChangeFilter;
import org.eclipse.milo.opcua.stack.core.types.structured.DataChangeNotification;
import org.eclipse.milo.opcua.stack.core.types.structured.EndpointDescription;
import org.eclipse.milo.opcua.stack.core.types.structured.MonitoredItemCreateRequest;
import org.eclipse.milo.opcua.stack.core.types.structured.MonitoredItemModifyRequest;
import org.eclipse.milo.opcua.stack.core.types.structured.MonitoredItemNotification;
import org.eclipse.milo.opcua.stack.core.types.structured.MonitoringParameters;
import org.eclipse.milo.opcua.stack.core.types.structured.NotificationMessage;
import org.eclipse.milo.opcua.stack.core.types.structured.PublishResponse;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadValueId;
import org.eclipse.milo.opcua.stack.core.types.structured.SubscriptionAcknowledgement;
import org.eclipse.milo.opcua.stack.core.types.structured.TransferResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Eclipse Milo 1.1.2's SDK client subscribes on our assembled {@link OpcUaServer} (Part 4, 5.12 and
 * 5.13) over a real socket: data changes of sampled variables in order, absolute and percent
 * deadbands (Part 4, 7.22.2; Part 8, 6.2), a queue of three with its Overflow bit (Part 4, 5.12.1.5)
 * fed by a node manager that pushes its changes, keep-alives (5.13.1.1), Milo's own transfer of its
 * subscription to a new session after the server lost the old one and a transfer to a second session
 * with GoodSubscriptionTransferred to the first (5.13.7), the error statuses of the two service sets,
 * and the subscriptions and items a closed session frees. One case runs over Basic256Sha256
 * SignAndEncrypt with a PKI directory that trusts Milo's certificate.
 *
 * <p>Every test opens its own Milo clients (a session may hold two subscriptions here) and closes them
 * at its end; the server's statistics must then show no subscription and no monitored item.
 */
class MiloSubscriptionsOnOpcUaServerIT {

    private static final String NS = "urn:test:milo-subscriptions:line1";
    private static final String PUSHED_NS = "urn:test:milo-subscriptions:pushed";
    private static final String SERVER_URI = "urn:test:milo-subscriptions:server";
    private static final String CLIENT_URI = "urn:test:milo-subscriptions:client";
    private static final Duration WAIT = Duration.ofSeconds(5);
    private static final Duration POLL = Duration.ofMillis(5);
    private static final int MAX_SUBSCRIPTIONS_PER_SESSION = 2;
    private static final int MAX_PUBLISH_REQUESTS = 20;
    private static final double EU_LOW = 0;
    private static final double EU_HIGH = 200;

    @TempDir
    static Path pkiRoot;

    private static ApplicationCertificate miloCertificate;
    private static X509Certificate serverCertificate;
    private static InMemoryNodeManager line;
    private static PushingNodeManager pushed;
    private static OpcUaServer server;
    private static SubscriptionStatistics statistics;
    private static List<EndpointDescription> endpoints;

    /** The Milo clients of the running test, disconnected after it. */
    private final List<OpcUaClient> clients = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void startServer() throws Exception {
        LeakWatch.install();
        // two 2048-bit keys at once: Milo's and the server's
        List<KeyPair> keys = IntStream.range(0, 2).parallel()
                .mapToObj(i -> CertificateBuilder.generateKeyPair(2048)).toList();
        miloCertificate = CertificateBuilder.forApplication("milo subscriptions client").applicationUri(CLIENT_URI)
                .hostNames("localhost").keyPair(keys.get(0)).build();
        ApplicationCertificate serverIdentity = CertificateBuilder.forApplication("milo subscriptions interop server")
                .applicationUri(SERVER_URI).hostNames("localhost").keyPair(keys.get(1)).build();
        serverCertificate = serverIdentity.certificate();
        PkiDirectory pki = new PkiDirectory(pkiRoot, Duration.ofSeconds(1), PkiDirectory.DEFAULT_MAX_REJECTED);
        Files.write(pki.trustedCertsDir().resolve("milo-subscriptions-client.der"),
                miloCertificate.certificate().getEncoded());
        pki.reload();

        line = InMemoryNodeManager.builder(NS)
                .folder("Line1")
                .variable("Line1.Speed", BuiltinType.Double, v -> v.value(doubleValue(0)).writable())
                .variable("Line1.Pressure", BuiltinType.Double, v -> v.value(doubleValue(10)).writable())
                .variable("Line1.Level", BuiltinType.Double, v -> v.value(doubleValue(50)).writable())
                .variable("Line1.Idle", BuiltinType.Double, v -> v.value(doubleValue(7)).writable())
                .variable("Line1.Flow", BuiltinType.Double, v -> v.value(doubleValue(0)).writable())
                .variable("Line1.Secure", BuiltinType.Double, v -> v.value(doubleValue(0)).writable())
                .build();
        pushed = new PushingNodeManager();
        server = OpcUaServer.builder()
                .applicationUri(SERVER_URI)
                .applicationName("milo subscriptions interop server")
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("localhost"))
                .requests(2, 8, 100)
                .security(List.of(EndpointSecurity.NONE, new EndpointSecurity(
                        dev.opcua.stack.core.security.SecurityPolicy.Basic256Sha256,
                        dev.opcua.stack.core.types.enumerated.MessageSecurityMode.SignAndEncrypt)))
                .certificate(serverIdentity)
                .pki(pki)
                .subscriptionSettings(SubscriptionSettings.builder()
                        .minPublishingInterval(Duration.ofMillis(50))
                        .maxSubscriptionsPerSession(MAX_SUBSCRIPTIONS_PER_SESSION)
                        .maxPublishRequestsPerSession(MAX_PUBLISH_REQUESTS)
                        .build())
                .nodeManager(line)
                .nodeManager(pushed)
                .build();
        pushed.addVariable(server.namespaces().indexOf(PUSHED_NS), "Burst", server.dataChanges());
        server.start();
        addEuRange("Line1.Level", EU_LOW, EU_HIGH);
        statistics = server.statistics().subscriptions();
        endpoints = DiscoveryClient.getEndpoints(server.endpointUrl()).get(10, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stopServer() throws InterruptedException {
        if (server != null) {
            server.close();
        }
        LeakWatch.assertNoLeaks();
    }

    /** Closes the test's sessions (deleting their subscriptions); nothing may be left on the server. */
    @AfterEach
    void disconnectAndCheckNothingIsLeft() throws Exception {
        for (OpcUaClient client : clients) {
            try {
                client.disconnect();
            } catch (UaException | RuntimeException e) {
                // a client whose session the test closed may fail to say goodbye
            }
        }
        await("no subscription and no item left: " + statistics).atMost(WAIT).pollInterval(POLL)
                .until(() -> statistics.subscriptions() == 0 && statistics.monitoredItems() == 0);
    }

    // ---- 1. data changes

    @Test
    void milo_receives_the_initial_value_and_every_written_change_in_order() throws Exception {
        OpcUaClient client = connect();
        NodeId speed = node("Line1.Speed");
        List<Double> received = new CopyOnWriteArrayList<>();
        OpcUaSubscription subscription = subscription(client, 100.0);
        OpcUaMonitoredItem item = dataItem(speed, 50.0, 10, true, null, received);
        subscription.addMonitoredItem(item);
        subscription.synchronizeMonitoredItems();

        assertThat(item.getCreateResult()).contains(StatusCode.GOOD);
        assertThat(subscription.getRevisedPublishingInterval()).contains(100.0);
        assertThat(item.getRevisedSamplingInterval()).contains(50.0);
        assertThat(item.getRevisedQueueSize()).contains(uint(10));
        await("the initial value").atMost(WAIT).pollInterval(POLL).until(() -> received.size() == 1);
        List<Double> expected = new ArrayList<>(List.of(0.0));
        for (double value : new double[] {1.5, 2.5, -3.0, 4.25, 1000.0}) {
            write(client, speed, value);
            expected.add(value);
            await("the change to " + value).atMost(WAIT).pollInterval(POLL)
                    .until(() -> received.size() == expected.size());
        }
        // nothing else is reported for two more publishing intervals (100 ms each)
        await().during(Duration.ofMillis(200)).atMost(WAIT).pollInterval(POLL)
                .until(() -> received.size() == expected.size());

        assertThat(received).containsExactlyElementsOf(expected);
    }

    // ---- 2. deadbands

    @Test
    void an_absolute_deadband_reports_only_changes_beyond_it() throws Exception {
        OpcUaClient client = connect();
        NodeId pressure = node("Line1.Pressure");
        List<Double> received = new CopyOnWriteArrayList<>();
        OpcUaSubscription subscription = subscription(client, 100.0);
        OpcUaMonitoredItem item = dataItem(pressure, 50.0, 10, true,
                new DataChangeFilter(DataChangeTrigger.StatusValue, uint(DeadbandType.Absolute.getValue()), 1.0),
                received);
        subscription.addMonitoredItem(item);
        subscription.synchronizeMonitoredItems();
        assertThat(item.getCreateResult()).contains(StatusCode.GOOD);
        await("the initial value").atMost(WAIT).pollInterval(POLL).until(() -> received.size() == 1);

        // compared with the last value queued (Part 4, 7.22.2 "last cached value"): 10 -> 11.5 -> 13
        writeAndWatch(client, pressure, received, 10.5, false);
        writeAndWatch(client, pressure, received, 10.9, false);
        writeAndWatch(client, pressure, received, 11.5, true);
        writeAndWatch(client, pressure, received, 12.0, false);
        writeAndWatch(client, pressure, received, 12.5, false);
        writeAndWatch(client, pressure, received, 13.0, true);
        writeAndWatch(client, pressure, received, 12.2, false);

        assertThat(received).containsExactly(10.0, 11.5, 13.0);
    }

    @Test
    void a_percent_deadband_is_a_share_of_the_eu_range() throws Exception {
        OpcUaClient client = connect();
        NodeId level = node("Line1.Level");
        List<Double> received = new CopyOnWriteArrayList<>();
        OpcUaSubscription subscription = subscription(client, 100.0);
        // 10 % of EURange 0..200: changes of more than 20
        OpcUaMonitoredItem item = dataItem(level, 50.0, 10, true,
                percentDeadband(10.0), received);
        subscription.addMonitoredItem(item);
        subscription.synchronizeMonitoredItems();
        assertThat(item.getCreateResult()).contains(StatusCode.GOOD);
        await("the initial value").atMost(WAIT).pollInterval(POLL).until(() -> received.size() == 1);

        writeAndWatch(client, level, received, 60, false);
        writeAndWatch(client, level, received, 70, false);
        writeAndWatch(client, level, received, 75, true);
        writeAndWatch(client, level, received, 90, false);
        writeAndWatch(client, level, received, 95, false); // exactly 20: not more than the deadband
        writeAndWatch(client, level, received, 96, true);
        writeAndWatch(client, level, received, 50, true);

        assertThat(received).containsExactly(50.0, 75.0, 96.0, 50.0);
    }

    // ---- 3. queue size and overflow

    @Test
    void a_burst_between_two_publishes_keeps_three_values_and_flags_the_overflow() throws Exception {
        OpcUaClient client = connect();
        NodeId burst = new NodeId(server.namespaces().indexOf(PUSHED_NS), "Burst");
        long droppedBefore = statistics.notificationsDropped();
        int startedBefore = pushed.started.getOrDefault("Burst", 0);
        int stoppedBefore = pushed.stopped.getOrDefault("Burst", 0);
        List<DataValue> oldestKept = new CopyOnWriteArrayList<>();
        List<DataValue> newestKept = new CopyOnWriteArrayList<>();
        OpcUaSubscription subscription = subscription(client, 500.0);
        OpcUaMonitoredItem discardOldest = dataItem(burst, 0.0, 3, true, null, null);
        discardOldest.setDataValueListener((i, value) -> oldestKept.add(value));
        OpcUaMonitoredItem discardNewest = dataItem(burst, 0.0, 3, false, null, null);
        discardNewest.setDataValueListener((i, value) -> newestKept.add(value));
        subscription.addMonitoredItems(List.of(discardOldest, discardNewest));
        subscription.synchronizeMonitoredItems();

        assertThat(discardOldest.getRevisedSamplingInterval()).as("fed by the node manager's pushes").contains(0.0);
        assertThat(discardOldest.getRevisedQueueSize()).contains(uint(3));
        assertThat(pushed.started.get("Burst") - startedBefore).as("monitoringStarted calls").isEqualTo(2);
        await("the initial values").atMost(WAIT).pollInterval(POLL)
                .until(() -> oldestKept.size() == 1 && newestKept.size() == 1);
        assertThat(values(oldestKept)).containsExactly(0.0);

        // right after a publish: the burst is over long before the next one, 500 ms later
        for (int i = 1; i <= 10; i++) {
            pushed.set("Burst", i);
        }
        await("the queued values").atMost(WAIT).pollInterval(POLL)
                .until(() -> oldestKept.size() == 4 && newestKept.size() == 4);

        List<DataValue> oldest = oldestKept.subList(1, 4);
        assertThat(values(oldest)).containsExactly(8.0, 9.0, 10.0);
        assertThat(oldest.get(0).getStatusCode().isOverflowSet()).as("status %s", oldest.get(0).getStatusCode())
                .isTrue();
        assertThat(oldest.get(0).getStatusCode().getValue()).isEqualTo(0x480L); // Good, InfoType DataValue, Overflow
        assertThat(oldest.subList(1, 3)).allSatisfy(v -> assertThat(v.getStatusCode()).isEqualTo(StatusCode.GOOD));
        List<DataValue> newest = newestKept.subList(1, 4);
        assertThat(values(newest)).containsExactly(1.0, 2.0, 10.0);
        assertThat(newest.get(2).getStatusCode().getValue()).as("the newest replaced and flagged").isEqualTo(0x480L);
        assertThat(newest.subList(0, 2)).allSatisfy(v -> assertThat(v.getStatusCode()).isEqualTo(StatusCode.GOOD));
        assertThat(statistics.notificationsDropped() - droppedBefore).as("7 discarded by each item").isEqualTo(14);

        subscription.delete();
        assertThat(pushed.stopped.get("Burst") - stoppedBefore).as("monitoringStopped calls").isEqualTo(2);
        assertThat(server.dataChanges().isMonitored(pushed.nodeId("Burst"))).isFalse();
    }

    // ---- 4. keep-alives

    @Test
    void a_subscription_without_changes_keeps_sending_keep_alives() throws Exception {
        OpcUaClient client = connect();
        AtomicInteger keepAlives = new AtomicInteger();
        List<Double> received = new CopyOnWriteArrayList<>();
        OpcUaSubscription subscription = new OpcUaSubscription(client, 50.0);
        subscription.setLifetimeAndKeepAliveCalculated(false);
        subscription.setMaxKeepAliveCount(uint(2));
        subscription.setLifetimeCount(uint(60));
        subscription.setSubscriptionListener(new OpcUaSubscription.SubscriptionListener() {
            @Override
            public void onKeepAliveReceived(OpcUaSubscription s) {
                keepAlives.incrementAndGet();
            }
        });
        subscription.create();
        subscription.addMonitoredItem(dataItem(node("Line1.Idle"), 50.0, 1, true, null, received));
        subscription.synchronizeMonitoredItems();
        await("the initial value").atMost(WAIT).pollInterval(POLL).until(() -> received.size() == 1);
        long sentBefore = statistics.keepAlivesSent();
        int receivedBefore = keepAlives.get();

        await("keep-alives every 100 ms").atMost(WAIT).pollInterval(POLL)
                .until(() -> keepAlives.get() >= receivedBefore + 5);

        assertThat(subscription.getRevisedMaxKeepAliveCount()).contains(uint(2));
        assertThat(statistics.keepAlivesSent() - sentBefore).as("keep-alives the server counted")
                .isGreaterThanOrEqualTo(5);
        assertThat(received).as("no data change without a change").containsExactly(7.0);
    }

    // ---- 5. transfer

    /**
     * The server closes Milo's session but keeps its subscription (CloseSession with deleteSubscriptions
     * false, sent on Milo's channel as a lost session would look); Milo's next Publish fails with
     * BadSessionIdInvalid, Milo creates a new session and transfers its subscription to it, which then
     * goes on reporting the same item. The old session is gone, so no GoodSubscriptionTransferred can
     * reach it.
     */
    @Test
    void milo_transfers_its_subscription_to_its_new_session_after_the_server_lost_the_old_one() throws Exception {
        OpcUaClient client = connect();
        NodeId flow = node("Line1.Flow");
        List<Double> received = new CopyOnWriteArrayList<>();
        List<StatusCode> transferFailures = new CopyOnWriteArrayList<>();
        OpcUaSubscription subscription = subscription(client, 100.0);
        subscription.setSubscriptionListener(new OpcUaSubscription.SubscriptionListener() {
            @Override
            public void onTransferFailed(OpcUaSubscription s, StatusCode status) {
                transferFailures.add(status);
            }
        });
        subscription.addMonitoredItem(dataItem(flow, 50.0, 10, true, null, received));
        subscription.synchronizeMonitoredItems();
        await("the initial value").atMost(WAIT).pollInterval(POLL).until(() -> received.size() == 1);
        UInteger id = subscription.getSubscriptionId().orElseThrow();
        NodeId oldSession = client.getSession().getSessionId();
        long transferredBefore = statistics.subscriptionsTransferred();

        client.sendRequest(new CloseSessionRequest(
                client.newRequestHeader(client.getSession().getAuthenticationToken()), false));
        assertThat(statistics.subscriptions()).as("kept for a transfer").isEqualTo(1);

        await("Milo's new session took the subscription over").atMost(WAIT).pollInterval(POLL)
                .until(() -> statistics.subscriptionsTransferred() == transferredBefore + 1);
        assertThat(client.getSession().getSessionId()).isNotEqualTo(oldSession);
        assertThat(subscription.getSubscriptionId()).as("the same subscription, not a new one").contains(id);
        assertThat(transferFailures).isEmpty();
        int before = received.size();
        write(client, flow, 42.0);
        await("a change reported on the new session").atMost(WAIT).pollInterval(POLL)
                .until(() -> received.contains(42.0));
        assertThat(received.subList(before, received.size())).endsWith(42.0);
    }

    /**
     * TransferSubscriptions (Part 4, 5.13.7) sent by a second session of the same (anonymous) user takes
     * Milo's subscription: the first session hears GoodSubscriptionTransferred, the second gets the next
     * change through its own Publish requests.
     */
    @Test
    void a_second_session_takes_the_subscription_over_and_the_first_hears_good_subscription_transferred() throws Exception {
        Transfer transfer = new Transfer();
        long transferredBefore = statistics.subscriptionsTransferred();

        TransferResult result = transfer.second.transferSubscriptions(List.of(transfer.id), false).getResults()[0];

        assertThat(result.getStatusCode()).isEqualTo(StatusCode.GOOD);
        assertThat(statistics.subscriptionsTransferred()).isEqualTo(transferredBefore + 1);
        await("GoodSubscriptionTransferred on the first session").atMost(WAIT).pollInterval(POLL)
                .until(() -> transfer.statusChanges.contains(new StatusCode(StatusCodes.Good_SubscriptionTransferred)));
        write(transfer.second, transfer.flow, 6.0);
        assertThat(transfer.publisher.nextDataChange(transfer.clientHandle)).isEqualTo(6.0);
        assertThat(transfer.received).as("nothing more on the first session").containsExactly(5.0);
    }

    /**
     * Part 4, 5.13.7, sendInitialValues TRUE: "the first Publish response(s) after the
     * TransferSubscriptions call shall contain the current values of all Monitored Items in the
     * Subscription where the Monitoring Mode is set to Reporting ... If no value is queued for a data
     * MonitoredItem, the last value sent is repeated". Milo's own transfer after a lost session (the
     * test above) asks for initial values too.
     */
    @Test
    void a_transfer_with_send_initial_values_repeats_the_current_value() throws Exception {
        Transfer transfer = new Transfer();

        TransferResult result = transfer.second.transferSubscriptions(List.of(transfer.id), true).getResults()[0];

        assertThat(result.getStatusCode()).isEqualTo(StatusCode.GOOD);
        assertThat(transfer.publisher.nextDataChange(transfer.clientHandle)).as("the last value sent, repeated")
                .isEqualTo(5.0);
    }

    /** Two anonymous sessions; the first has a Milo subscription on Line1.Flow (value 5) that reported it. */
    private final class Transfer {
        final OpcUaClient first = connect();
        final OpcUaClient second = connect();
        final NodeId flow = node("Line1.Flow");
        final List<Double> received = new CopyOnWriteArrayList<>();
        final List<StatusCode> statusChanges = new CopyOnWriteArrayList<>();
        final UInteger id;
        final UInteger clientHandle;
        final RawPublisher publisher;

        Transfer() throws Exception {
            write(first, flow, 5.0);
            OpcUaSubscription subscription = subscription(first, 100.0);
            subscription.setSubscriptionListener(new OpcUaSubscription.SubscriptionListener() {
                @Override
                public void onStatusChanged(OpcUaSubscription s, StatusCode status) {
                    statusChanges.add(status);
                }
            });
            OpcUaMonitoredItem item = dataItem(flow, 50.0, 10, true, null, received);
            subscription.addMonitoredItem(item);
            subscription.synchronizeMonitoredItems();
            await("the initial value on the first session").atMost(WAIT).pollInterval(POLL)
                    .until(() -> received.size() == 1);
            id = subscription.getSubscriptionId().orElseThrow();
            clientHandle = item.getClientHandle().orElseThrow();
            publisher = new RawPublisher(second, id);
        }
    }

    // ---- 6. errors

    @Test
    void unknown_subscription_ids_are_bad_subscription_id_invalid() throws Exception {
        OpcUaClient client = connect();
        UInteger gone = client.createSubscription(100.0, uint(30), uint(10), uint(0), true, ubyte(0))
                .getSubscriptionId();
        assertThat(client.deleteSubscriptions(List.of(gone)).getResults()).containsExactly(StatusCode.GOOD);

        assertThat(client.deleteSubscriptions(List.of(gone)).getResults())
                .containsExactly(new StatusCode(StatusCodes.Bad_SubscriptionIdInvalid));
        assertServiceFault(() -> client.modifySubscription(gone, 100.0, uint(30), uint(10), uint(0), ubyte(0)),
                StatusCodes.Bad_SubscriptionIdInvalid);
        assertServiceFault(() -> client.createMonitoredItems(gone, TimestampsToReturn.Both,
                List.of(createRequest(client, node("Line1.Speed"), 1, null))), StatusCodes.Bad_SubscriptionIdInvalid);
        assertThat(client.setPublishingMode(false, List.of(gone)).getResults())
                .containsExactly(new StatusCode(StatusCodes.Bad_SubscriptionIdInvalid));
        assertThat(client.transferSubscriptions(List.of(gone), false).getResults()[0].getStatusCode())
                .isEqualTo(new StatusCode(StatusCodes.Bad_SubscriptionIdInvalid));
    }

    @Test
    void a_third_subscription_of_a_session_is_bad_too_many_subscriptions() throws Exception {
        OpcUaClient client = connect();
        List<UInteger> ids = new ArrayList<>();
        for (int i = 0; i < MAX_SUBSCRIPTIONS_PER_SESSION; i++) {
            ids.add(client.createSubscription(100.0, uint(30), uint(10), uint(0), true, ubyte(0)).getSubscriptionId());
        }

        assertServiceFault(() -> client.createSubscription(100.0, uint(30), uint(10), uint(0), true, ubyte(0)),
                StatusCodes.Bad_TooManySubscriptions);
        OpcUaClient other = connect();
        CreateSubscriptionResponse elsewhere = other.createSubscription(100.0, uint(30), uint(10), uint(0), true,
                ubyte(0));
        assertThat(elsewhere.getResponseHeader().getServiceResult()).as("a limit per session")
                .isEqualTo(StatusCode.GOOD);
        assertThat(client.deleteSubscriptions(ids).getResults()).containsOnly(StatusCode.GOOD);
    }

    @Test
    void unknown_monitored_item_ids_are_bad_monitored_item_id_invalid() throws Exception {
        OpcUaClient client = connect();
        UInteger subscription = client.createSubscription(100.0, uint(30), uint(10), uint(0), true, ubyte(0))
                .getSubscriptionId();
        CreateMonitoredItemsResponse created = client.createMonitoredItems(subscription, TimestampsToReturn.Both,
                List.of(createRequest(client, node("Line1.Speed"), 1, null),
                        createRequest(client, new NodeId(line.namespaceIndex(), "Line1.Missing"), 2, null),
                        createRequest(client, node("Line1.Level"), 3, percentDeadband(101.0)),
                        createRequest(client, node("Line1.Speed"), 4, percentDeadband(10.0))));
        assertThat(created.getResults()[0].getStatusCode()).isEqualTo(StatusCode.GOOD);
        UInteger item = created.getResults()[0].getMonitoredItemId();
        assertThat(created.getResults()[1].getStatusCode()).isEqualTo(new StatusCode(StatusCodes.Bad_NodeIdUnknown));
        assertThat(created.getResults()[2].getStatusCode()).as("a percentage above 100 (Part 8, 6.2)")
                .isEqualTo(new StatusCode(StatusCodes.Bad_DeadbandFilterInvalid));
        assertThat(created.getResults()[3].getStatusCode()).as("a percent deadband without EURange")
                .isEqualTo(new StatusCode(StatusCodes.Bad_FilterNotAllowed));
        UInteger unknown = uint(item.longValue() + 1000);

        assertThat(client.deleteMonitoredItems(subscription, List.of(unknown, item)).getResults())
                .containsExactly(new StatusCode(StatusCodes.Bad_MonitoredItemIdInvalid), StatusCode.GOOD);
        assertThat(client.deleteMonitoredItems(subscription, List.of(item)).getResults())
                .as("deleted already").containsExactly(new StatusCode(StatusCodes.Bad_MonitoredItemIdInvalid));
        assertThat(client.modifyMonitoredItems(subscription, TimestampsToReturn.Both,
                List.of(new MonitoredItemModifyRequest(unknown, parameters(client, 9, null)))).getResults()[0]
                .getStatusCode()).isEqualTo(new StatusCode(StatusCodes.Bad_MonitoredItemIdInvalid));
        assertThat(client.setMonitoringMode(subscription, MonitoringMode.Disabled, List.of(unknown)).getResults())
                .containsExactly(new StatusCode(StatusCodes.Bad_MonitoredItemIdInvalid));
        assertThat(statistics.monitoredItems()).isZero();
    }

    /**
     * One Publish request more than the session may park answers the oldest BadTooManyPublishRequests
     * (Part 4, 5.13.5); deleting the subscription answers the rest BadNoSubscription.
     */
    @Test
    void publish_requests_beyond_the_limit_answer_the_oldest_bad_too_many_publish_requests() throws Exception {
        OpcUaClient client = connect();
        UInteger subscription = client.createSubscription(2_000.0, uint(30), uint(10), uint(0), true, ubyte(0))
                .getSubscriptionId();
        long rejectedBefore = statistics.publishRequestsRejected();
        List<CompletableFuture<PublishResponse>> publishes = new ArrayList<>();
        for (int i = 0; i < MAX_PUBLISH_REQUESTS + 3; i++) {
            publishes.add(client.publishAsync(List.of()));
        }
        for (int i = 0; i < 3; i++) {
            assertThat(faultOf(publishes.get(i))).as("publish %d", i)
                    .isEqualTo(StatusCodes.Bad_TooManyPublishRequests);
        }
        assertThat(statistics.publishRequestsRejected() - rejectedBefore).isEqualTo(3);
        await("the others parked").atMost(WAIT).pollInterval(POLL)
                .until(() -> statistics.parkedPublishRequests() == MAX_PUBLISH_REQUESTS);

        assertThat(client.deleteSubscriptions(List.of(subscription)).getResults()).containsExactly(StatusCode.GOOD);

        for (CompletableFuture<PublishResponse> publish : publishes.subList(3, publishes.size())) {
            assertThat(faultOf(publish)).isEqualTo(StatusCodes.Bad_NoSubscription);
        }
    }

    // ---- 7. a closed session frees its subscriptions and items

    @Test
    void closing_the_session_frees_its_subscriptions_and_items() throws Exception {
        OpcUaClient client = connect();
        long sessionsBefore = server.statistics().currentSessions();
        int stoppedBefore = pushed.stopped.getOrDefault("Burst", 0);
        List<Double> received = new CopyOnWriteArrayList<>();
        OpcUaSubscription first = subscription(client, 100.0);
        first.addMonitoredItems(List.of(dataItem(node("Line1.Speed"), 50.0, 1, true, null, received),
                dataItem(node("Line1.Idle"), 50.0, 1, true, null, received)));
        first.synchronizeMonitoredItems();
        OpcUaSubscription second = subscription(client, 200.0);
        second.addMonitoredItems(List.of(dataItem(node("Line1.Level"), 100.0, 1, true, null, received),
                dataItem(pushed.miloNodeId("Burst"), 0.0, 1, true, null, received)));
        second.synchronizeMonitoredItems();
        assertThat(statistics.subscriptions()).isEqualTo(2);
        assertThat(statistics.monitoredItems()).isEqualTo(4);
        assertThat(server.dataChanges().isMonitored(pushed.nodeId("Burst"))).isTrue();
        await("the initial values").atMost(WAIT).pollInterval(POLL).until(() -> received.size() == 4);

        client.disconnect();
        clients.remove(client);

        await("the session's subscriptions deleted").atMost(WAIT).pollInterval(POLL)
                .until(() -> statistics.subscriptions() == 0);
        await("the session's items deleted").atMost(WAIT).pollInterval(POLL)
                .until(() -> statistics.monitoredItems() == 0);
        assertThat(server.dataChanges().isMonitored(pushed.nodeId("Burst"))).isFalse();
        assertThat(pushed.stopped.getOrDefault("Burst", 0)).isEqualTo(stoppedBefore + 1);
        assertThat(server.statistics().currentSessions()).isEqualTo(sessionsBefore - 1);
    }

    // ---- secure delivery

    @Test
    void data_changes_arrive_over_basic256_sha256_sign_and_encrypt() throws Exception {
        OpcUaClient client = connectSecure();
        NodeId secure = node("Line1.Secure");
        List<Double> received = new CopyOnWriteArrayList<>();
        OpcUaSubscription subscription = subscription(client, 100.0);
        subscription.addMonitoredItem(dataItem(secure, 50.0, 10, true, null, received));
        subscription.synchronizeMonitoredItems();
        await("the initial value").atMost(WAIT).pollInterval(POLL).until(() -> received.size() == 1);

        write(client, secure, 12.5);
        await("the change").atMost(WAIT).pollInterval(POLL).until(() -> received.size() == 2);
        write(client, secure, 13.5);
        await("the next change").atMost(WAIT).pollInterval(POLL).until(() -> received.size() == 3);

        assertThat(received).containsExactly(0.0, 12.5, 13.5);
        assertThat(client.getConfig().getEndpoint().getSecurityMode()).isEqualTo(MessageSecurityMode.SignAndEncrypt);
    }

    // ---- helpers

    private OpcUaClient connect() throws UaException {
        OpcUaClient client = MiloClients.createOverNone(server.endpointUrl(), new AnonymousProvider());
        clients.add(client);
        return client.connect();
    }

    private OpcUaClient connectSecure() throws UaException {
        EndpointDescription endpoint = endpoints.stream()
                .filter(e -> SecurityPolicy.Basic256Sha256.getUri().equals(e.getSecurityPolicyUri())
                        && e.getSecurityMode() == MessageSecurityMode.SignAndEncrypt)
                .findFirst().orElseThrow();
        OpcUaClientConfig config = MiloClients.secureConfig(endpoint, endpoints, serverCertificate, miloCertificate,
                "milo subscriptions client", CLIENT_URI, new AnonymousProvider());
        OpcUaClient client = OpcUaClient.create(config);
        clients.add(client);
        return client.connect();
    }

    /** A created subscription with lifetime and keep-alive counts Milo calculates. */
    private static OpcUaSubscription subscription(OpcUaClient client, double publishingInterval) throws UaException {
        OpcUaSubscription subscription = new OpcUaSubscription(client, publishingInterval);
        subscription.create();
        return subscription;
    }

    /** A Value item; with {@code received} its values are collected there in the order Milo delivers them. */
    private static OpcUaMonitoredItem dataItem(NodeId node, double samplingInterval, int queueSize,
            boolean discardOldest, DataChangeFilter filter, List<Double> received) {
        OpcUaMonitoredItem item = OpcUaMonitoredItem.newDataItem(node);
        item.setSamplingInterval(samplingInterval);
        item.setQueueSize(uint(queueSize));
        item.setDiscardOldest(discardOldest);
        if (filter != null) {
            item.setFilter(filter);
        }
        if (received != null) {
            item.setDataValueListener((i, value) -> received.add((Double) value.getValue().getValue()));
        }
        return item;
    }

    private static DataChangeFilter percentDeadband(double percent) {
        return new DataChangeFilter(DataChangeTrigger.StatusValue, uint(DeadbandType.Percent.getValue()), percent);
    }

    private static MonitoredItemCreateRequest createRequest(OpcUaClient client, NodeId node, int clientHandle,
            DataChangeFilter filter) {
        return new MonitoredItemCreateRequest(new ReadValueId(node, AttributeId.Value.uid(), null, null),
                MonitoringMode.Reporting, parameters(client, clientHandle, filter));
    }

    private static MonitoringParameters parameters(OpcUaClient client, int clientHandle, DataChangeFilter filter) {
        return new MonitoringParameters(uint(clientHandle), 50.0, filter == null ? null
                : org.eclipse.milo.opcua.stack.core.types.builtin.ExtensionObject.encode(
                        client.getStaticEncodingContext(), filter), uint(1), true);
    }

    private static void write(OpcUaClient client, NodeId node, double value) throws UaException {
        StatusCode status = client.writeValues(List.of(node), List.of(new DataValue(new Variant(value)))).get(0);
        assertThat(status.isGood()).as("write of %s: %s", value, status).isTrue();
    }

    /**
     * Writes a value, then waits until it is reported, or, for a value the filter must drop, for more
     * than two sampling intervals and two publishing intervals of the deadband tests (50 ms, 100 ms) in
     * which it must not show up.
     */
    private static void writeAndWatch(OpcUaClient client, NodeId node, List<Double> received, double value,
            boolean reported) throws Exception {
        int before = received.size();
        write(client, node, value);
        if (reported) {
            await("the change to " + value + " reported").atMost(WAIT).pollInterval(POLL)
                    .until(() -> received.size() > before);
        } else {
            await("nothing reported after writing " + value).during(Duration.ofMillis(200)).atMost(WAIT)
                    .pollInterval(POLL).until(() -> received.size() == before);
        }
        assertThat(received.subList(before, received.size())).as("reported after writing %s", value)
                .containsExactlyElementsOf(reported ? List.of(value) : List.of());
    }

    private static NodeId node(String path) {
        return new NodeId(line.namespaceIndex(), path);
    }

    private static List<Double> values(List<DataValue> values) {
        return values.stream().map(v -> (Double) v.getValue().getValue()).toList();
    }

    private interface ServiceCall {
        Object call() throws Exception;
    }

    /** The call fails with a service fault (Milo's UaException) of {@code status}. */
    private static void assertServiceFault(ServiceCall call, long status) {
        assertThatThrownBy(call::call).isInstanceOfSatisfying(UaException.class,
                e -> assertThat(e.getStatusCode()).as("status of %s", e).isEqualTo(new StatusCode(status)));
    }

    /** The status a request failed with. */
    private static long faultOf(CompletableFuture<?> request) throws InterruptedException {
        try {
            Object response = request.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            throw new AssertionError("expected a service fault, got " + response);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            while (!(cause instanceof UaException) && cause.getCause() != null) {
                cause = cause.getCause();
            }
            assertThat(cause).isInstanceOf(UaException.class);
            return ((UaException) cause).getStatusCode().getValue();
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("no answer within " + WAIT, e);
        }
    }

    private static dev.opcua.stack.core.types.builtin.Variant doubleValue(double value) {
        return dev.opcua.stack.core.types.builtin.Variant.ofDouble(value);
    }

    /**
     * Gives the variable {@code path} an EURange property (Part 8, 5.3.2): InMemoryNodeManager declares
     * no properties, so the node is added to its store once the server created the nodes.
     */
    private static void addEuRange(String path, double low, double high) {
        dev.opcua.stack.core.types.builtin.NodeId variable = line.nodeId(path);
        dev.opcua.stack.core.types.builtin.NodeId property = dev.opcua.stack.core.types.builtin.NodeId.string(
                line.namespaceIndex(), path + ".EURange");
        dev.opcua.stack.core.types.builtin.NodeId hasProperty =
                dev.opcua.stack.core.types.builtin.NodeId.ns0(NodeIds.HasProperty);
        VariableNode node = new VariableNode(property, QualifiedName.of(0, "EURange"),
                dev.opcua.stack.core.types.builtin.LocalizedText.of("EURange"), null, 0, 0,
                dev.opcua.stack.core.types.builtin.DataValue.of(
                        dev.opcua.stack.core.types.builtin.Variant.of(ExtensionObject.of(new Range(low, high)))),
                ValueAttributes.scalar(dev.opcua.stack.core.types.builtin.NodeId.ns0(NodeIds.Range)), (short) 1,
                (short) 1, 0, false, 1);
        node.addReference(UaReference.inverse(hasProperty, variable));
        node.addReference(UaReference.forward(dev.opcua.stack.core.types.builtin.NodeId.ns0(
                NodeIds.HasTypeDefinition), dev.opcua.stack.core.types.builtin.NodeId.ns0(NodeIds.PropertyType)));
        line.store().add(node);
        line.store().get(variable).addReference(UaReference.forward(hasProperty, property));
    }

    /**
     * Publish requests sent by hand for a subscription the client's publishing manager does not know (it
     * was transferred to this session with the raw service), acknowledging what it received.
     */
    private static final class RawPublisher {
        private final OpcUaClient client;
        private final UInteger subscriptionId;
        private final List<SubscriptionAcknowledgement> acknowledgements = new ArrayList<>();

        RawPublisher(OpcUaClient client, UInteger subscriptionId) {
            this.client = client;
            this.subscriptionId = subscriptionId;
        }

        /** The value of the next data change of the item with this client handle; keep-alives are skipped. */
        double nextDataChange(UInteger clientHandle) {
            // one Publish after the other (each waits for the server's answer), on this thread: the
            // acknowledgements carry over from one to the next
            return await("a data change of client handle " + clientHandle).atMost(WAIT).pollInSameThread()
                    .pollInterval(POLL).until(() -> publishOnce(clientHandle), Optional::isPresent).orElseThrow();
        }

        /** Sends one Publish; the value of the item's data change in the answer, empty for a keep-alive. */
        private Optional<Double> publishOnce(UInteger clientHandle) throws UaException {
            PublishResponse response = client.publish(List.copyOf(acknowledgements));
            acknowledgements.clear();
            assertThat(response.getSubscriptionId()).isEqualTo(subscriptionId);
            NotificationMessage message = response.getNotificationMessage();
            if (message.getNotificationData() == null || message.getNotificationData().length == 0) {
                return Optional.empty(); // a keep-alive
            }
            acknowledgements.add(new SubscriptionAcknowledgement(subscriptionId, message.getSequenceNumber()));
            for (org.eclipse.milo.opcua.stack.core.types.builtin.ExtensionObject data : message.getNotificationData()) {
                Object decoded = data.decode(client.getStaticEncodingContext());
                if (decoded instanceof DataChangeNotification changes) {
                    for (MonitoredItemNotification n : changes.getMonitoredItems()) {
                        assertThat(n.getClientHandle()).isEqualTo(clientHandle);
                        return Optional.of((Double) n.getValue().getValue().getValue());
                    }
                }
            }
            return Optional.empty();
        }
    }

    /**
     * A node manager that reports every change of its Double variables to the {@link DataChangeBroker}
     * instead of being sampled (Part 4, 5.12.1.2, sampling interval 0), and counts which of them items
     * started and stopped monitoring.
     */
    private static final class PushingNodeManager extends NodeStoreNodeManager implements MonitoringAware {
        final Map<String, Integer> started = new ConcurrentHashMap<>();
        final Map<String, Integer> stopped = new ConcurrentHashMap<>();
        private final Map<String, dev.opcua.stack.core.types.builtin.NodeId> ids = new ConcurrentHashMap<>();
        private volatile DataChangeBroker broker;
        private volatile int namespaceIndex;

        PushingNodeManager() {
            super(List.of(PUSHED_NS), new NodeStore(4));
        }

        void addVariable(int ns, String name, DataChangeBroker changes) {
            namespaceIndex = ns;
            broker = changes;
            dev.opcua.stack.core.types.builtin.NodeId id = dev.opcua.stack.core.types.builtin.NodeId.string(ns, name);
            VariableNode node = new VariableNode(id, QualifiedName.of(ns, name),
                    dev.opcua.stack.core.types.builtin.LocalizedText.of(name), null, 0, 0,
                    dev.opcua.stack.core.types.builtin.DataValue.of(doubleValue(0)),
                    ValueAttributes.scalar(dev.opcua.stack.core.types.builtin.NodeId.ns0(NodeIds.Double)), (short) 3,
                    (short) 3, 0, false, 3);
            node.addReference(UaReference.inverse(dev.opcua.stack.core.types.builtin.NodeId.ns0(NodeIds.Organizes),
                    dev.opcua.stack.core.types.builtin.NodeId.ns0(NodeIds.ObjectsFolder)));
            store().add(node);
            ids.put(name, id);
        }

        dev.opcua.stack.core.types.builtin.NodeId nodeId(String name) {
            return ids.get(name);
        }

        NodeId miloNodeId(String name) {
            return new NodeId(namespaceIndex, name);
        }

        /** Stores the value and reports it, as a device driver would on a change. */
        void set(String name, double value) {
            dev.opcua.stack.core.types.builtin.DataValue changed = dev.opcua.stack.core.types.builtin.DataValue.of(
                    doubleValue(value), dev.opcua.stack.core.types.builtin.StatusCode.GOOD, DateTime.now(), null);
            ((VariableNode) store().get(ids.get(name))).setValue(changed);
            broker.valueChanged(ids.get(name), changed);
        }

        @Override
        public boolean pushesValueChanges(dev.opcua.stack.core.types.builtin.NodeId nodeId) {
            return store().get(nodeId) != null;
        }

        @Override
        public void monitoringStarted(dev.opcua.stack.core.types.builtin.NodeId nodeId, double samplingInterval) {
            started.merge(nodeId.stringId(), 1, Integer::sum);
        }

        @Override
        public void monitoringStopped(dev.opcua.stack.core.types.builtin.NodeId nodeId, double samplingInterval) {
            stopped.merge(nodeId.stringId(), 1, Integer::sum);
        }
    }
}
