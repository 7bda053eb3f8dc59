package dev.opcua.benchmarks.load;

import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;

import dev.opcua.benchmarks.server.BenchAddressSpace;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.security.pki.CertificateBuilder;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.HashedWheelTimer;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.OpcUaClientConfigBuilder;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaMonitoredItem;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaSubscription;
import org.eclipse.milo.opcua.stack.core.AttributeId;
import org.eclipse.milo.opcua.stack.core.NodeIds;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.QualifiedName;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UInteger;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UShort;
import org.eclipse.milo.opcua.stack.core.types.enumerated.BrowseDirection;
import org.eclipse.milo.opcua.stack.core.types.enumerated.BrowseResultMask;
import org.eclipse.milo.opcua.stack.core.types.enumerated.MessageSecurityMode;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.BrowseDescription;
import org.eclipse.milo.opcua.stack.core.types.structured.EndpointDescription;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadResponse;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadValueId;
import org.eclipse.milo.opcua.stack.core.types.structured.WriteValue;
import org.eclipse.milo.opcua.stack.transport.client.tcp.OpcTcpClientTransportConfigBuilder;

/**
 * {@code --client milo}: Eclipse Milo 1.1.2's {@link OpcUaClient}, one per session, created the way its
 * users do ({@code OpcUaClient.create(url, selectEndpoint, transport, config)}: GetEndpoints, then the
 * endpoint of {@code --security} and {@code --policy}), anonymous; a secured run creates one client
 * certificate and accepts any server certificate (benchmarking only).
 *
 * <p>All clients share one set of threads of the kinds and sizes of Milo's own shared defaults
 * ({@code Stack.sharedEventLoop()}: a NIO event loop group of twice the cores; {@code sharedExecutor()}: a
 * cached pool; {@code sharedScheduledExecutor()}: one thread per core; {@code sharedWheelTimer()}), but
 * named and owned by the harness so that they are counted apart from an in-process Milo server's and
 * stopped at the end: {@code milo-client-io-N}, {@code milo-client-pool-N}, {@code milo-client-scheduled-N},
 * {@code milo-client-timer}. Milo's client code runs on no other thread (no ForkJoin common pool).
 */
final class MiloLoadClients implements LoadClients {

    /** The names of the threads Milo's clients run on, and the harness's. */
    static final List<String> THREADS = List.of("milo-client-", "load-");
    private static final String APPLICATION_NAME = "load harness";
    private static final List<BrowseDescription> BROWSE = List.of(browse(NodeIds.Server), browse(NodeIds.ObjectsFolder));

    private final String url;
    private final String namespace;
    private final int nodes;
    private final boolean browseBench;
    private final String policyUri;
    private final MessageSecurityMode mode;
    private final ApplicationCertificate certificate;
    private final EventLoopGroup eventLoop;
    private final ExecutorService executor;
    private final ScheduledThreadPoolExecutor scheduled;
    private final HashedWheelTimer timer;

    private MiloLoadClients(String url, String namespace, int nodes, boolean browseBench, EndpointSecurity security) {
        this.url = url;
        this.namespace = namespace;
        this.nodes = nodes;
        this.browseBench = browseBench;
        this.policyUri = security.policy().uri();
        this.mode = MessageSecurityMode.valueOf(security.mode().name());
        this.certificate = security.policy() == SecurityPolicy.None ? null
                : CertificateBuilder.forApplication(APPLICATION_NAME).applicationUri(LoadSecurity.APPLICATION_URI)
                        .build();
        this.eventLoop = new MultiThreadIoEventLoopGroup(0, new Named("milo-client-io-"), NioIoHandler.newFactory());
        this.executor = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS, new SynchronousQueue<>(),
                new Named("milo-client-pool-"));
        this.scheduled = new ScheduledThreadPoolExecutor(Runtime.getRuntime().availableProcessors(),
                new Named("milo-client-scheduled-"));
        scheduled.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        this.timer = new HashedWheelTimer(r -> {
            Thread t = new Thread(r, "milo-client-timer");
            t.setDaemon(true);
            return t;
        });
    }

    static MiloLoadClients create(LoadOptions o, String url) {
        return new MiloLoadClients(url, o.namespace(), o.nodes(), o.browseBench(), o.security());
    }

    /**
     * The clients of the {@code items} scenario: security None, as its raw sessions and our clients, the variables of
     * {@code namespace}.
     */
    static MiloLoadClients forItems(String url, String namespace) {
        return new MiloLoadClients(url, namespace, 0, false, EndpointSecurity.NONE);
    }

    /** A new client, not connected: GetEndpoints with this run's threads, the endpoint of the run's security. */
    private OpcUaClient client() throws Exception {
        Consumer<OpcTcpClientTransportConfigBuilder> transport = t -> t.setEventLoop(eventLoop)
                .setExecutor(executor)
                .setScheduledExecutor(scheduled)
                .setWheelTimer(timer);
        Consumer<OpcUaClientConfigBuilder> config = c -> {
            c.setApplicationName(LocalizedText.english(APPLICATION_NAME))
                    .setApplicationUri(LoadSecurity.APPLICATION_URI)
                    .setSessionName(() -> "load")
                    .setSessionTimeout(uint(120_000))
                    .setRequestTimeout(uint(TIMEOUT_S * 1000));
            if (certificate != null) {
                X509Certificate cert = certificate.certificate();
                c.setCertificate(cert)
                        .setCertificateChain(new X509Certificate[] {cert})
                        .setKeyPair(new KeyPair(cert.getPublicKey(), certificate.privateKey()))
                        // the harness trusts whatever server it measures: a trust decision is not what is measured
                        .setCertificateValidator((chain, applicationUri, hostNames) -> { });
            }
        };
        return OpcUaClient.create(url, this::select, transport, config);
    }

    private Optional<EndpointDescription> select(List<EndpointDescription> endpoints) {
        return endpoints.stream()
                .filter(e -> policyUri.equals(e.getSecurityPolicyUri()) && mode == e.getSecurityMode())
                .findFirst();
    }

    @Override
    public LoadClient open() throws Exception {
        OpcUaClient client = client();
        try {
            NodeId[] ids = connect(client);
            return new Session(client, ids, browseBench
                    ? List.of(browse(new NodeId(ids[0].getNamespaceIndex(), BenchAddressSpace.BENCH)))
                    : BROWSE);
        } catch (Exception e) {
            disconnectQuietly(client);
            throw e;
        }
    }

    @Override
    public Subscriber subscriber(SubMetrics metrics) throws Exception {
        OpcUaClient client = client();
        try {
            UShort ns = connectTo(client);
            // a node per item, made when its item is (the items scenario has a variable per item)
            return new Subscriber(client, slot -> new NodeId(ns, BenchAddressSpace.variableId(slot)), metrics);
        } catch (Exception e) {
            disconnectQuietly(client);
            throw e;
        }
    }

    /** Connects {@code client}; the variables {@code Var.i} in the namespace of {@code --namespace}. */
    private NodeId[] connect(OpcUaClient client) throws Exception {
        UShort ns = connectTo(client);
        NodeId[] ids = new NodeId[nodes];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = new NodeId(ns, BenchAddressSpace.variableId(i));
        }
        return ids;
    }

    /** Connects {@code client}; the index of the namespace of {@code --namespace}. */
    private UShort connectTo(OpcUaClient client) throws Exception {
        client.connectAsync().get(TIMEOUT_S, TimeUnit.SECONDS);
        UShort ns = client.readNamespaceTableAsync().get(TIMEOUT_S, TimeUnit.SECONDS).getIndex(namespace);
        if (ns == null) {
            throw new IllegalStateException("namespace " + namespace + " is not in the NamespaceArray of " + url);
        }
        return ns;
    }

    @Override
    public void connectAndDisconnect() throws Exception {
        OpcUaClient client = client();
        try {
            client.connectAsync().get(TIMEOUT_S, TimeUnit.SECONDS);
        } catch (Exception e) {
            disconnectQuietly(client);
            throw e;
        }
        client.disconnectAsync().get(TIMEOUT_S, TimeUnit.SECONDS);
    }

    @Override
    public Executor executor() {
        return executor;
    }

    @Override
    public List<String> threadPrefixes() {
        return THREADS;
    }

    @Override
    public void close() {
        eventLoop.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        scheduled.shutdown();
        executor.shutdown();
        try {
            scheduled.awaitTermination(2, TimeUnit.SECONDS);
            executor.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        timer.stop();
    }

    private static void disconnectQuietly(OpcUaClient client) {
        try {
            client.disconnectAsync().get(TIMEOUT_S, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            // best effort: the client is given up either way
        }
    }

    private static BrowseDescription browse(NodeId node) {
        return new BrowseDescription(node, BrowseDirection.Forward, NodeIds.HierarchicalReferences, true, uint(0),
                uint(BrowseResultMask.All.getValue()));
    }

    /**
     * One connected Milo client with {@link OpcUaSubscription}s (Milo 1.1.2 has no {@code ManagedSubscription}):
     * Milo's PublishingManager keeps its Publish requests outstanding (its default count) and acknowledges;
     * item listeners run on the subscription's delivery queue, on the transport's executor
     * ({@code milo-client-pool-N}). The lifetime and keep-alive counts are the raw subscribers', not Milo's
     * calculated ones.
     */
    static final class Subscriber extends LoadSubscriber {

        /** Items per CreateMonitoredItems request an {@code OpcUaSubscription} of Milo 1.1.2 sends at most by default. */
        static final int MILO_ITEMS_PER_CALL = 10_000;

        private final OpcUaClient client;
        private final IntFunction<NodeId> variables;
        private final LongAdder keepAlives = new LongAdder();
        private final LongAdder losses = new LongAdder();
        /** Items per request the subscriptions send at most, 0 for Milo's default: see {@link #maxItemsPerCall}. */
        private volatile int maxItemsPerCall;

        /** @param variables the node of variable {@code Var.i} for each slot {@code i} */
        Subscriber(OpcUaClient client, IntFunction<NodeId> variables, SubMetrics metrics) {
            super(metrics);
            this.client = client;
            this.variables = variables;
        }

        /**
         * The server's MaxMonitoredItemsPerCall as Milo's client read it (Part 5, 6.3.11), which its
         * createMonitoredItems splits by; 0 when the server has none or it could not be read.
         */
        int maxMonitoredItemsPerCall() {
            try {
                return client.getOperationLimits().maxMonitoredItemsPerCall().map(UInteger::intValue).orElse(0);
            } catch (UaException e) {
                return 0;
            }
        }

        /**
         * The most items the subscriptions created from now on send in one CreateMonitoredItems request ({@code
         * --per-call}), below the server's MaxMonitoredItemsPerCall; 0 leaves Milo's own
         * {@value #MILO_ITEMS_PER_CALL}.
         */
        void maxItemsPerCall(int items) {
            this.maxItemsPerCall = items;
        }

        /** Items per request Milo sends: the smaller of the server's limit and its own (or {@code --per-call}). */
        int itemsPerCall() {
            int own = maxItemsPerCall > 0 ? maxItemsPerCall : MILO_ITEMS_PER_CALL;
            int server = maxMonitoredItemsPerCall();
            return server > 0 ? Math.min(server, own) : own;
        }

        @Override
        void subscribe(double publishingMs, double samplingMs, long queueSize, int[] slots, SubscriptionTally tally)
                throws Exception {
            OpcUaSubscription subscription = new OpcUaSubscription(client, publishingMs);
            subscription.setLifetimeAndKeepAliveCalculated(false);
            subscription.setLifetimeCount(uint(LIFETIME_COUNT));
            subscription.setMaxKeepAliveCount(uint(KEEP_ALIVE_COUNT));
            if (maxItemsPerCall > 0) {
                subscription.setMaxMonitoredItemsPerCall(uint(maxItemsPerCall));
            }
            subscription.setSubscriptionListener(new OpcUaSubscription.SubscriptionListener() {
                @Override
                public void onKeepAliveReceived(OpcUaSubscription s) {
                    keepAlives.increment();
                }

                @Override
                public void onNotificationDataLost(OpcUaSubscription s) {
                    losses.increment();
                }

                @Override
                public void onStatusChanged(OpcUaSubscription s, StatusCode status) {
                    metrics().error("StatusChange:" + status);
                }

                @Override
                public void onWatchdogTimerElapsed(OpcUaSubscription s) {
                    metrics().error("Subscription:watchdog_elapsed");
                }

                @Override
                public void onTransferFailed(OpcUaSubscription s, StatusCode status) {
                    metrics().error("TransferSubscriptions:" + status);
                }
            });
            subscription.create();
            List<OpcUaMonitoredItem> items = new ArrayList<>(slots.length);
            for (int k = 0; k < slots.length; k++) {
                int index = k;
                OpcUaMonitoredItem item = OpcUaMonitoredItem.newDataItem(variables.apply(slots[k]));
                item.setSamplingInterval(samplingMs);
                item.setQueueSize(uint(queueSize));
                item.setDiscardOldest(true);
                item.setDataValueListener((i, value) -> {
                    Variant v = value.getValue();
                    DateTime source = value.getSourceTime();
                    received(tally, index, v == null ? -1 : SubscriptionTally.writerValue(v.getValue()),
                            source == null ? 0 : source.getUtcTime());
                });
                items.add(item);
            }
            added(tally);
            subscription.addMonitoredItems(items);
            subscription.createMonitoredItems();
            for (OpcUaMonitoredItem item : items) {
                StatusCode result = item.getCreateResult().orElse(null);
                if (result == null || !result.isGood()) {
                    throw new IllegalStateException("CreateMonitoredItems refused the item on "
                            + item.getReadValueId().getNodeId() + ": " + result);
                }
                revisedSamplingMs = item.getRevisedSamplingInterval().orElse(Double.NaN);
            }
            revisedPublishingMs = subscription.getRevisedPublishingInterval().orElse(publishingMs);
            revisedKeepAliveCount = subscription.getRevisedMaxKeepAliveCount().map(UInteger::longValue)
                    .orElse(KEEP_ALIVE_COUNT);
        }

        @Override
        long keepAlives() {
            return keepAlives.sum();
        }

        @Override
        long losses() {
            return losses.sum();
        }

        @Override
        void disconnect() throws Exception {
            client.disconnectAsync().get(TIMEOUT_S, TimeUnit.SECONDS);
        }

        @Override
        public void close() {
            disconnectQuietly(client);
        }
    }

    /** One connected Milo client. */
    private static final class Session implements LoadClient {

        private final OpcUaClient client;
        private final NodeId[] nodeIds;
        private final ReadLists<ReadValueId> reads;
        private final List<BrowseDescription> browse;
        private volatile boolean open = true;

        Session(OpcUaClient client, NodeId[] nodeIds, List<BrowseDescription> browse) {
            this.client = client;
            this.nodeIds = nodeIds;
            this.browse = browse;
            this.reads = new ReadLists<>(nodeIds.length,
                    n -> new ReadValueId(nodeIds[n], AttributeId.Value.uid(), null, QualifiedName.NULL_VALUE));
        }

        @Override
        public Reader reader(Done done) {
            return new ReadSlot(done);
        }

        /** The Reads of one slot; itself their completion callback. */
        private final class ReadSlot implements Reader, BiConsumer<ReadResponse, Throwable> {

            private final Done done;

            ReadSlot(Done done) {
                this.done = done;
            }

            @Override
            public void read(int first, int count) {
                client.readAsync(0, TimestampsToReturn.Neither, reads.get(first, count)).whenComplete(this);
            }

            @Override
            public void accept(ReadResponse response, Throwable failure) {
                if (failure != null) {
                    done.done(ConnectLoop.describe(failure), true);
                    return;
                }
                String error = bad(response.getResponseHeader().getServiceResult());
                DataValue[] results = response.getResults();
                for (int i = 0; results != null && i < results.length && error == null; i++) {
                    error = bad(results[i].getStatusCode());
                }
                done.done(error, false);
            }
        }

        @Override
        public void write(int first, int count, double value, Done done) {
            WriteValue[] items = new WriteValue[count];
            for (int i = 0, n = first; i < count; i++, n = n + 1 == nodeIds.length ? 0 : n + 1) {
                items[i] = new WriteValue(nodeIds[n], AttributeId.Value.uid(), null,
                        DataValue.valueOnly(Variant.ofDouble(value + i)));
            }
            client.writeAsync(Arrays.asList(items)).whenComplete((response, failure) -> {
                if (failure != null) {
                    done.done(ConnectLoop.describe(failure), true);
                    return;
                }
                String error = bad(response.getResponseHeader().getServiceResult());
                StatusCode[] results = response.getResults();
                for (int i = 0; results != null && i < results.length && error == null; i++) {
                    error = bad(results[i]);
                }
                done.done(error, false);
            });
        }

        @Override
        public void browse(Done done) {
            client.browseAsync(browse).whenComplete((results, failure) -> {
                if (failure != null) {
                    done.done(ConnectLoop.describe(failure), true);
                    return;
                }
                String error = null;
                for (int i = 0; i < results.size() && error == null; i++) {
                    error = bad(results.get(i).getStatusCode());
                }
                done.done(error, false);
            });
        }

        private static String bad(StatusCode code) {
            return code == null || code.isGood() ? null : code.toString();
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        @Override
        public void disconnect() throws Exception {
            open = false;
            client.disconnectAsync().get(TIMEOUT_S, TimeUnit.SECONDS);
        }

        @Override
        public void close() {
            open = false;
            disconnectQuietly(client);
        }
    }

    /** Daemon threads named {@code prefix + N}, N from 1. */
    private static final class Named implements ThreadFactory {

        private final String prefix;
        private final AtomicInteger count = new AtomicInteger();

        Named(String prefix) {
            this.prefix = prefix;
        }

        @Override
        public Thread newThread(Runnable r) {
            Thread t = new Thread(r, prefix + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        }
    }
}
