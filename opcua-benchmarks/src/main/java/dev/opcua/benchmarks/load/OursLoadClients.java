package dev.opcua.benchmarks.load;

import dev.opcua.benchmarks.server.BenchAddressSpace;
import dev.opcua.stack.client.ClientState;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.client.subscriptions.ClientMonitoredItem;
import dev.opcua.stack.client.subscriptions.ClientSubscription;
import dev.opcua.stack.client.subscriptions.ClientSubscriptions;
import dev.opcua.stack.client.subscriptions.DataItemRequest;
import dev.opcua.stack.client.subscriptions.SubscriptionParameters;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.security.pki.CertificateBuilder;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.BrowseDescription;
import dev.opcua.stack.core.types.structured.BrowseResult;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.WriteValue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.IntFunction;

/**
 * {@code --client ours}: one {@link OpcUaClient} per session, all on one {@link ClientResources}
 * (threads {@code opcua-client-io-N}, {@code opcua-client-callback-N}, {@code opcua-client-timer}; its
 * timeouts also run on the JDK's {@code CompletableFutureDelayScheduler}), with
 * the endpoint of {@code --security} and {@code --policy}, anonymous; a secured run creates one client
 * certificate and accepts any server certificate (benchmarking only).
 */
final class OursLoadClients implements LoadClients {

    /** Its threads, the harness's, and the JDK's timer of {@code CompletableFuture.orTimeout} the client uses. */
    private static final List<String> THREADS = List.of("opcua-client-", "load-", "CompletableFutureDelayScheduler");
    private static final List<BrowseDescription> BROWSE = List.of(OpcUaClient.hierarchical(NodeId.ns0(NodeIds.Server)),
            OpcUaClient.hierarchical(NodeId.ns0(NodeIds.ObjectsFolder)));

    private final ClientResources resources;
    private final OpcUaClientConfig config;
    private final String namespace;
    private final int nodes;
    private final boolean browseBench;

    private OursLoadClients(ClientResources resources, OpcUaClientConfig config, String namespace, int nodes,
            boolean browseBench) {
        this.resources = resources;
        this.config = config;
        this.namespace = namespace;
        this.nodes = nodes;
        this.browseBench = browseBench;
    }

    static OursLoadClients create(LoadOptions o, String url) {
        // the client's defaults (responses complete on the I/O thread); -Dload.client.callbackThreads=true: on the
        // callback threads instead (ClientResources.Builder#completeOnCallbackThreads, the former default)
        ClientResources resources = Boolean.getBoolean("load.client.callbackThreads")
                ? ClientResources.builder().completeOnCallbackThreads().build() : ClientResources.create();
        try {
            OpcUaClientConfig.Builder config = OpcUaClientConfig.builder(url)
                    .resources(resources)
                    .security(o.security().policy(), o.security().mode())
                    .applicationUri(LoadSecurity.APPLICATION_URI)
                    .applicationName("load harness")
                    .sessionName("load")
                    .sessionTimeout(Duration.ofMinutes(2))
                    .requestTimeout(Duration.ofSeconds(TIMEOUT_S));
            if (Boolean.getBoolean("load.client.listenersOnCallbackThreads")) {
                // subscription listeners on the callback threads (the starter's choice) instead of the I/O thread
                // that read the Publish response: what that hand-off costs per notification
                config.listenersOnCallbackThreads();
            }
            if (o.security().policy() != SecurityPolicy.None) {
                // the harness trusts whatever server it measures: a trust decision is not what is measured
                config.certificate(CertificateBuilder.forApplication("load harness")
                        .type(o.security().policy().certificateType()) // RSA, or ECC on the policy's curve
                        .applicationUri(LoadSecurity.APPLICATION_URI).build())
                        .acceptAnyServerCertificate(true);
            }
            return new OursLoadClients(resources, config.build(), o.namespace(), o.nodes(), o.browseBench());
        } catch (RuntimeException e) {
            resources.close();
            throw e;
        }
    }

    @Override
    public LoadClient open() throws Exception {
        OpcUaClient client = OpcUaClient.create(config);
        try {
            NodeId[] ids = connect(client);
            return new Session(client, ids, browseBench
                    ? List.of(OpcUaClient.hierarchical(NodeId.string(ids[0].namespaceIndex(), BenchAddressSpace.BENCH)))
                    : BROWSE);
        } catch (Exception e) {
            client.close();
            throw e;
        }
    }

    @Override
    public LoadSubscriber subscriber(SubMetrics metrics) throws Exception {
        OpcUaClient client = OpcUaClient.create(config);
        try {
            NodeId[] ids = connect(client);
            return new Subscriber(client, slot -> ids[slot], metrics);
        } catch (Exception e) {
            client.close();
            throw e;
        }
    }

    /** Connects {@code client}; the variables {@code Var.i} in the namespace of {@code --namespace}. */
    private NodeId[] connect(OpcUaClient client) throws Exception {
        client.connect().get(TIMEOUT_S, TimeUnit.SECONDS);
        int ns = client.namespaces().indexOf(namespace);
        if (ns < 0) {
            throw new IllegalStateException("namespace " + namespace + " is not in the NamespaceArray of "
                    + config.endpointUrl() + ": " + client.namespaces().uris());
        }
        NodeId[] ids = new NodeId[nodes];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = NodeId.string(ns, BenchAddressSpace.variableId(i));
        }
        return ids;
    }

    @Override
    public void connectAndDisconnect() throws Exception {
        OpcUaClient client = OpcUaClient.create(config);
        try {
            client.connect().get(TIMEOUT_S, TimeUnit.SECONDS);
        } catch (Exception e) {
            client.close();
            throw e;
        }
        client.disconnect().get(TIMEOUT_S, TimeUnit.SECONDS);
    }

    @Override
    public Executor executor() {
        return resources.executor();
    }

    @Override
    public List<String> threadPrefixes() {
        return THREADS;
    }

    @Override
    public void close() {
        resources.close();
    }

    /**
     * One connected {@link OpcUaClient} whose subscriptions run on its Publish pipeline
     * ({@link dev.opcua.stack.client.subscriptions.ClientSubscriptions}, default settings) and whose item
     * listeners run on the resources' callback executor ({@code opcua-client-callback-N}).
     */
    static final class Subscriber extends LoadSubscriber {

        private final OpcUaClient client;
        private final IntFunction<NodeId> variables;

        /** @param variables the node of variable {@code Var.i} for each slot {@code i} */
        Subscriber(OpcUaClient client, IntFunction<NodeId> variables, SubMetrics metrics) {
            super(metrics);
            this.client = client;
            this.variables = variables;
        }

        @Override
        void subscribe(double publishingMs, double samplingMs, long queueSize, int[] slots, SubscriptionTally tally)
                throws Exception {
            ClientSubscription subscription = client.createSubscription(new SubscriptionParameters(publishingMs,
                    LIFETIME_COUNT, KEEP_ALIVE_COUNT, 0, 0, true)).get(TIMEOUT_S, TimeUnit.SECONDS);
            subscription.setStatusListener((s, status) -> metrics().error("StatusChange", status));
            List<DataItemRequest> requests = new ArrayList<>(slots.length);
            for (int k = 0; k < slots.length; k++) {
                int index = k;
                requests.add(DataItemRequest.of(variables.apply(slots[k]), samplingMs, (item, value) -> {
                    Variant v = value.value();
                    DateTime source = value.sourceTimestamp();
                    received(tally, index, v == null ? -1 : SubscriptionTally.writerValue(v.value()),
                            source == null ? 0 : source.utcTicks());
                }).withQueue(queueSize, true));
            }
            added(tally);
            for (ClientMonitoredItem item : subscription.createDataItems(requests).get(TIMEOUT_S, TimeUnit.SECONDS)) {
                if (!item.status().isGood()) {
                    throw new IllegalStateException("CreateMonitoredItems refused the item on " + item.node() + ": "
                            + item.status());
                }
                revisedSamplingMs = item.revisedSamplingInterval();
            }
            revisedPublishingMs = subscription.revisedPublishingInterval();
            revisedKeepAliveCount = subscription.revisedMaxKeepAliveCount();
        }

        @Override
        long keepAlives() {
            return client.subscriptions().keepAlivesReceived();
        }

        @Override
        long losses() {
            ClientSubscriptions s = client.subscriptions();
            return s.lostSequenceNumbers() + s.droppedNotifications() + s.listenerErrors();
        }

        @Override
        void disconnect() throws Exception {
            client.disconnect().get(TIMEOUT_S, TimeUnit.SECONDS);
        }

        @Override
        public void close() {
            client.close();
        }
    }

    /** One connected {@link OpcUaClient}. */
    private static final class Session implements LoadClient {

        private final OpcUaClient client;
        private final NodeId[] nodeIds;
        private final ReadLists<ReadValueId> reads;
        private final List<BrowseDescription> browse;

        Session(OpcUaClient client, NodeId[] nodeIds, List<BrowseDescription> browse) {
            this.client = client;
            this.nodeIds = nodeIds;
            this.browse = browse;
            this.reads = new ReadLists<>(nodeIds.length,
                    n -> new ReadValueId(nodeIds[n], AttributeIds.Value, null, QualifiedName.NULL));
        }

        @Override
        public Reader reader(Done done) {
            return new ReadSlot(done);
        }

        /** The Reads of one slot; itself their completion callback. */
        private final class ReadSlot implements Reader, BiConsumer<List<DataValue>, Throwable> {

            private final Done done;

            ReadSlot(Done done) {
                this.done = done;
            }

            @Override
            public void read(int first, int count) {
                client.read(0, TimestampsToReturn.Neither, reads.get(first, count)).whenComplete(this);
            }

            @Override
            public void accept(List<DataValue> results, Throwable failure) {
                if (failure != null) {
                    done.done(ConnectLoop.describe(failure), true);
                    return;
                }
                String error = null;
                for (int i = 0; i < results.size() && error == null; i++) {
                    error = bad(results.get(i).statusCode());
                }
                done.done(error, false);
            }
        }

        @Override
        public void write(int first, int count, double value, Done done) {
            WriteValue[] items = new WriteValue[count];
            for (int i = 0, n = first; i < count; i++, n = n + 1 == nodeIds.length ? 0 : n + 1) {
                items[i] = new WriteValue(nodeIds[n], AttributeIds.Value, null,
                        DataValue.of(Variant.ofDouble(value + i)));
            }
            client.write(Arrays.asList(items)).whenComplete((results, failure) -> {
                if (failure != null) {
                    done.done(ConnectLoop.describe(failure), true);
                    return;
                }
                String error = null;
                for (int i = 0; i < results.size() && error == null; i++) {
                    error = bad(results.get(i));
                }
                done.done(error, false);
            });
        }

        @Override
        public void browse(Done done) {
            client.browse(browse, 0).whenComplete((results, failure) -> {
                if (failure != null) {
                    done.done(ConnectLoop.describe(failure), true);
                    return;
                }
                String error = null;
                for (int i = 0; i < results.size() && error == null; i++) {
                    BrowseResult result = results.get(i);
                    error = bad(result.statusCode());
                }
                done.done(error, false);
            });
        }

        private static String bad(StatusCode code) {
            return code == null || code.isGood() ? null : code.toString();
        }

        @Override
        public boolean isOpen() {
            return client.state() != ClientState.DISCONNECTED;
        }

        @Override
        public void disconnect() throws Exception {
            client.disconnect().get(TIMEOUT_S, TimeUnit.SECONDS);
        }

        @Override
        public void close() {
            client.close();
        }
    }
}
