package dev.opcua.stack.server.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.redundancy.RedundancyMode;
import dev.opcua.stack.server.redundancy.RedundancyPartner;
import dev.opcua.stack.server.redundancy.RedundancySettings;
import dev.opcua.stack.server.testing.MiloClients;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.milo.opcua.sdk.client.DiscoveryClient;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.SessionActivityListener;
import org.eclipse.milo.opcua.sdk.client.UaSession;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaMonitoredItem;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaSubscription;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.ExtensionObject;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UByte;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UInteger;
import org.eclipse.milo.opcua.stack.core.types.enumerated.ServerState;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.ApplicationDescription;
import org.eclipse.milo.opcua.stack.core.types.structured.RedundantServerDataType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Eclipse Milo 1.1.2's client, an independent peer without automatic failover, fails over between two of our
 * servers of a Warm pair the way Part 4, 6.6.2.4.5.3 describes a client of a non-transparent set: it reads
 * RedundancySupport, ServerUriArray and RedundantServerArray (Part 5, 6.3.7 and 6.3.9; filled by each server's
 * partner monitor), EstimatedReturnTime of a server in maintenance (Part 5, 6.3.1) and ServiceLevel (Part 4,
 * 6.6.2.4.2) of the server it is connected to, finds the partner's endpoint with FindServers (Part 4, 5.4.2: a
 * server of a non-transparent set returns a record for each server of the set), watches ServiceLevel in a
 * subscription and, when it falls below 200 (the healthy band) or the session is lost, connects to the partner and
 * creates its subscription there. The test drives Milo's API; what it asserts on is what Milo read and received.
 */
class RedundancyMiloFailoverIT {

    private static final String A = "urn:test:redundancy:failover:a";
    private static final String B = "urn:test:redundancy:failover:b";
    private static final String NS = "urn:test:redundancy:failover";
    private static final String TICK = "Line.Tick";
    // i=3709 RedundancySupport, i=11314 ServerUriArray, i=11313 RedundantServerArray, i=2267 ServiceLevel
    private static final NodeId REDUNDANCY_SUPPORT = new NodeId(0, 3709);
    private static final NodeId SERVER_URI_ARRAY = new NodeId(0, 11314);
    private static final NodeId REDUNDANT_SERVER_ARRAY = new NodeId(0, 11313);
    private static final NodeId SERVICE_LEVEL = new NodeId(0, 2267);
    private static final NodeId ESTIMATED_RETURN_TIME = new NodeId(0, 12885);
    private static final int HEALTHY = 200;

    private OpcUaServer a;
    private OpcUaServer b;
    private String urlA;
    private String urlB;
    private MiloFailingOver milo;

    @BeforeEach
    void startPair() throws Exception {
        int portA = freePort();
        int portB = freePort();
        urlA = "opc.tcp://localhost:" + portA;
        urlB = "opc.tcp://localhost:" + portB;
        a = server(A, portA, new RedundancyPartner(B, urlB));
        b = server(B, portB, new RedundancyPartner(A, urlA));
        // each server's partner monitor reads the other: RedundantServerArray then lists both
        await().atMost(Duration.ofSeconds(15)).until(() -> a.redundancy().redundantServers().size() == 2
                && a.redundancy().redundantServers().get(1).serviceLevel() == (short) 255
                && b.redundancy().redundantServers().size() == 2
                && b.redundancy().redundantServers().get(1).serviceLevel() == (short) 255);
    }

    @AfterEach
    void stopPair() throws Exception {
        if (milo != null) {
            milo.close();
        }
        MiloClients.disconnectAndClose(null, a, b);
    }

    private static OpcUaServer server(String uri, int port, RedundancyPartner partner) {
        AtomicLong ticks = new AtomicLong();
        InMemoryNodeManager line = InMemoryNodeManager.builder(NS)
                .nonBlockingCallbacks()
                .folder("Line", f -> f.id("Line"))
                .variable(TICK, BuiltinType.Int64, v -> v.id(TICK)
                        .valueSupplier(() -> Variant.ofInt64(ticks.incrementAndGet())))
                .build();
        return OpcUaServer.builder().applicationUri(uri).bindAddress("127.0.0.1").port(port)
                .hostnames(List.of("localhost"))
                .redundancy(RedundancySettings.of(RedundancyMode.Warm, partner))
                .nodeManager(line)
                .build().start();
    }

    @Test
    void milo_reads_the_pair_from_the_redundancy_nodes_and_finds_the_partners_endpoint() throws Exception {
        milo = new MiloFailingOver(urlA);

        assertThat(milo.read(REDUNDANCY_SUPPORT)).isEqualTo(2); // WARM_2, an Int32 on the wire
        assertThat((String[]) milo.read(SERVER_URI_ARRAY)).containsExactly(A, B);
        assertThat(milo.read(SERVICE_LEVEL)).isEqualTo(UByte.valueOf(255));
        List<RedundantServerDataType> set = milo.redundantServers();
        assertThat(set).extracting(RedundantServerDataType::getServerId).containsExactly(A, B);
        assertThat(set).allSatisfy(s -> {
            assertThat(s.getServiceLevel()).isEqualTo(UByte.valueOf(255));
            assertThat(s.getServerState()).isEqualTo(ServerState.Running);
        });
        assertThat(milo.partnerUrl()).isEqualTo(urlB);

        // maintenance with a planned return (Part 4, 6.6.2.4.2; Part 5, 6.3.1 EstimatedReturnTime)
        java.time.Instant back = java.time.Instant.parse("2030-06-01T08:00:00Z");
        a.startMaintenance("firmware update", back);
        assertThat(milo.read(SERVICE_LEVEL)).isEqualTo(UByte.valueOf(0));
        assertThat(((org.eclipse.milo.opcua.stack.core.types.builtin.DateTime) milo.read(ESTIMATED_RETURN_TIME))
                .getJavaInstant()).isEqualTo(back);
        a.endMaintenance();
        assertThat(((org.eclipse.milo.opcua.stack.core.types.builtin.DateTime) milo.read(ESTIMATED_RETURN_TIME))
                .isNull()).as("no return planned: the null DateTime").isTrue();
    }

    @Test
    void milo_fails_over_to_the_partner_when_the_active_server_announces_its_shutdown() throws Exception {
        milo = new MiloFailingOver(urlA);
        milo.subscribe();
        await().atMost(Duration.ofSeconds(10)).until(() -> milo.valuesFrom(urlA) >= 3);
        assertThat(milo.levels).contains(255);

        // a drain: ServerState Shutdown and ServiceLevel 0 while A still serves, for 5 s
        Thread drain = new Thread(() -> a.close(Duration.ofSeconds(5), "maintenance"), "drain-server-a");
        drain.start();
        try {
            await().atMost(Duration.ofSeconds(10)).until(() -> milo.levels.contains(0));
            assertThat(milo.trigger.get()).isEqualTo("ServiceLevel 0");
            await().atMost(Duration.ofSeconds(5)).until(() -> milo.valuesFrom(urlB) >= 3);
            assertThat(milo.activeUrl()).isEqualTo(urlB);
            assertThat(milo.partnerLevelAtSwitch.get()).isEqualTo(UByte.valueOf(255));
            assertThat(milo.switchMillis()).as("from the drop seen to the first value from the partner")
                    .isLessThan(5_000);
        } finally {
            drain.interrupt(); // cuts the countdown short: A closes now
            drain.join(TimeUnit.SECONDS.toMillis(10));
        }
    }

    @Test
    void milo_fails_over_to_the_partner_when_the_active_server_stops() throws Exception {
        milo = new MiloFailingOver(urlA);
        milo.subscribe();
        await().atMost(Duration.ofSeconds(10)).until(() -> milo.valuesFrom(urlA) >= 3);

        a.close();

        await().atMost(Duration.ofSeconds(15)).until(() -> milo.valuesFrom(urlB) >= 3);
        assertThat(milo.trigger.get()).isIn("session lost", "ServiceLevel 0", "watchdog");
        assertThat(milo.activeUrl()).isEqualTo(urlB);
        assertThat(milo.switchMillis()).isLessThan(5_000);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /**
     * What an application on Milo's client does to fail over: Milo has the services, the application the logic.
     * One subscription with ServiceLevel and the line's Tick; the first trigger (ServiceLevel below 200, the
     * session lost, the subscription's watchdog) moves it to the partner named by ServerUriArray and found with
     * FindServers, once, after reading the partner's ServiceLevel.
     */
    private static final class MiloFailingOver implements AutoCloseable {

        private final List<Integer> levels = new CopyOnWriteArrayList<>();
        private final List<String> valueSources = new CopyOnWriteArrayList<>();
        private final AtomicReference<String> trigger = new AtomicReference<>();
        private final AtomicReference<UByte> partnerLevelAtSwitch = new AtomicReference<>();
        private final AtomicLong triggeredAt = new AtomicLong();
        private final AtomicLong firstFromPartnerAt = new AtomicLong();
        private final String initialUrl;
        private volatile OpcUaClient client;
        private volatile String activeUrl;
        private volatile String partnerUrl;
        private Thread switcher;

        MiloFailingOver(String url) throws Exception {
            this.initialUrl = url;
            this.client = MiloClients.anonymousOverNone(url);
            this.activeUrl = url;
        }

        Object read(NodeId node) throws Exception {
            DataValue value = client.readValue(0, TimestampsToReturn.Both, node);
            assertThat(value.getStatusCode().isGood()).as("%s: %s", node, value.getStatusCode()).isTrue();
            return value.getValue().getValue();
        }

        List<RedundantServerDataType> redundantServers() throws Exception {
            return Arrays.stream((ExtensionObject[]) read(REDUNDANT_SERVER_ARRAY))
                    .map(e -> (RedundantServerDataType) e.decode(client.getStaticEncodingContext()))
                    .toList();
        }

        /** The partner: the other ServerUri of ServerUriArray, its discovery URL from FindServers. */
        String partnerUrl() throws Exception {
            String[] uris = (String[]) read(SERVER_URI_ARRAY);
            String self = uris[0]; // "shall contain the local Server" first (Part 5, 6.3.9)
            String partner = Arrays.stream(uris).filter(u -> !u.equals(self)).findFirst().orElseThrow();
            List<ApplicationDescription> servers = DiscoveryClient.findServers(activeUrl).get(10, TimeUnit.SECONDS);
            return servers.stream().filter(s -> partner.equals(s.getApplicationUri())).findFirst()
                    .map(s -> s.getDiscoveryUrls()[0]).orElseThrow();
        }

        void subscribe() throws Exception {
            partnerUrl = partnerUrl();
            client.addSessionActivityListener(new SessionActivityListener() {
                @Override
                public void onSessionInactive(UaSession session) {
                    failOver("session lost");
                }
            });
            subscribeOn(client, activeUrl, true);
        }

        private void subscribeOn(OpcUaClient on, String url, boolean watch) throws Exception {
            OpcUaSubscription subscription = new OpcUaSubscription(on, 100.0);
            if (watch) {
                subscription.setSubscriptionListener(new OpcUaSubscription.SubscriptionListener() {
                    @Override
                    public void onWatchdogTimerElapsed(OpcUaSubscription s) {
                        failOver("watchdog");
                    }
                });
            }
            subscription.create();
            OpcUaMonitoredItem tick = OpcUaMonitoredItem.newDataItem(new NodeId(namespaceIndex(on), TICK));
            tick.setSamplingInterval(100.0);
            tick.setQueueSize(UInteger.valueOf(10));
            tick.setDataValueListener((item, value) -> {
                valueSources.add(url);
                if (!url.equals(initialUrl)) {
                    firstFromPartnerAt.compareAndSet(0, System.nanoTime());
                }
            });
            subscription.addMonitoredItem(tick);
            if (watch) {
                OpcUaMonitoredItem level = OpcUaMonitoredItem.newDataItem(SERVICE_LEVEL);
                level.setSamplingInterval(100.0); // revised to ServiceLevel's MinimumSamplingInterval
                level.setQueueSize(UInteger.valueOf(10));
                level.setDataValueListener((item, value) -> {
                    int v = ((UByte) value.getValue().getValue()).intValue();
                    levels.add(v);
                    if (v < HEALTHY) {
                        failOver("ServiceLevel " + v);
                    }
                });
                subscription.addMonitoredItem(level);
            }
            subscription.synchronizeMonitoredItems();
        }

        private static int namespaceIndex(OpcUaClient on) throws Exception {
            on.readNamespaceTable();
            return on.getNamespaceTable().getIndex(NS).intValue();
        }

        /** On the first trigger: off the notification thread, connect to the partner and subscribe there. */
        private void failOver(String reason) {
            if (!trigger.compareAndSet(null, reason)) {
                return;
            }
            triggeredAt.set(System.nanoTime());
            switcher = new Thread(() -> {
                try {
                    OpcUaClient partner = MiloClients.anonymousOverNone(partnerUrl);
                    DataValue level = partner.readValue(0, TimestampsToReturn.Both, SERVICE_LEVEL);
                    partnerLevelAtSwitch.set((UByte) level.getValue().getValue());
                    OpcUaClient old = client;
                    client = partner;
                    activeUrl = partnerUrl;
                    subscribeOn(partner, partnerUrl, false);
                    old.disconnectAsync(); // the old server may be gone: don't wait for it
                } catch (Exception e) {
                    throw new IllegalStateException("failing over to " + partnerUrl, e);
                }
            }, "milo-failover");
            switcher.start();
        }

        long valuesFrom(String url) {
            return valueSources.stream().filter(url::equals).count();
        }

        String activeUrl() {
            return activeUrl;
        }

        long switchMillis() {
            return TimeUnit.NANOSECONDS.toMillis(firstFromPartnerAt.get() - triggeredAt.get());
        }

        @Override
        public void close() throws Exception {
            if (switcher != null) {
                switcher.join(TimeUnit.SECONDS.toMillis(10));
            }
            client.disconnect();
        }
    }
}
