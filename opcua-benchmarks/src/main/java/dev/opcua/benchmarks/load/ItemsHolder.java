package dev.opcua.benchmarks.load;

import dev.opcua.benchmarks.server.BenchAddressSpace;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.client.session.SessionOptions;
import dev.opcua.stack.client.subscriptions.ClientSubscriptions;
import dev.opcua.stack.client.subscriptions.SubscriptionSettings;
import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.MonitoredItemCreateRequest;
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadResponse;
import dev.opcua.stack.core.types.structured.ReadValueId;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

/**
 * One session of the {@code items} scenario and the one subscription (Part 4, 5.13.2) of data-change items (Part 4,
 * 5.12.2) it holds: a raw session ({@code --client raw}, {@link Raw}), one of our {@link OpcUaClient}s ({@code
 * --client ours}, {@link Ours}) or one of Eclipse Milo's ({@code --client milo}, {@link Milo}). All record what their
 * items receive in the same {@link SubscriptionTally}.
 */
interface ItemsHolder extends Subscriber, AutoCloseable {

    /** Session timeout asked for: creating a million items takes a while, in which a session may send nothing. */
    Duration SESSION_TIMEOUT = Duration.ofMinutes(30);

    /** Opens one more holder, connected; closed once every holder it opened is, it stops what they shared. */
    @FunctionalInterface
    interface Opener extends AutoCloseable {
        ItemsHolder open() throws Exception;

        @Override
        default void close() {
        }
    }

    /**
     * What opens the run's holders: raw sessions or our clients, as {@code --client} says, all on {@code
     * resources}, or Milo's clients on threads of their own; recording into {@code values} and {@code metrics}.
     */
    static Opener opener(ItemsOptions o, String url, ClientResources resources, WriteSequence values,
            SubMetrics metrics) throws Exception {
        if (o.client().equals("ours")) {
            OpcUaClientConfig config = Ours.config(o, url, resources);
            return () -> Ours.open(config, o.namespaceUri(), values, metrics);
        }
        if (o.client().equals("milo")) {
            MiloLoadClients milo = MiloLoadClients.forItems(url, o.namespaceUri());
            return new Opener() {
                @Override
                public ItemsHolder open() throws Exception {
                    MiloLoadClients.Subscriber subscriber = milo.subscriber(metrics);
                    subscriber.maxItemsPerCall(o.perCall());
                    return new Milo(subscriber, values);
                }

                @Override
                public void close() {
                    milo.close();
                }
            };
        }
        LoadSecurity security = LoadSecurity.of(EndpointSecurity.NONE, url, resources);
        SessionOptions options = security.session().toBuilder().sessionTimeout(SESSION_TIMEOUT).build();
        AtomicInteger ns = new AtomicInteger(-1); // read by the first session opened, before the items are timed
        return () -> {
            LoadSession session = LoadSession.open(url, resources, security, options);
            if (ns.get() < 0) {
                ns.set(session.namespaceIndex(o.namespaceUri()));
            }
            return new Raw(new SubscriberSession(session, values, metrics, resources.timer()), ns.get());
        };
    }

    /**
     * Items per CreateMonitoredItems request: {@code --per-call}, or the server's MaxMonitoredItemsPerCall (Part 5,
     * 6.3.11; {@link ItemsOptions#DEFAULT_PER_CALL} when it has none), told on {@code err}.
     */
    int perCall(ItemsOptions o, PrintStream err) throws Exception;

    /**
     * Creates the subscription of session {@code session} and its {@code --items-per-session} items, item {@code k}
     * on the variable {@link ItemsOptions#variableOf}, telling {@code created} the items each request created.
     */
    void subscribe(ItemsOptions o, int session, int perCall, IntConsumer created) throws Exception;

    /** Starts publishing where the client does not already; counts {@code stopped} down twice when it stops. */
    void startPublishing(CountDownLatch stopped);

    /** Notifications lost or dropped on the way that the tallies cannot see (our client's own counts); 0 for raw. */
    long losses();

    /** What the client counted itself, for a line on stderr; null for raw sessions, which count nothing. */
    default ClientCounts clientCounts() {
        return null;
    }

    /**
     * Publish requests the client has outstanding now (sent, not answered: parked at the server or on the way); -1
     * for raw.
     */
    default int publishOutstanding() {
        return -1;
    }

    /**
     * A client's own counts of its subscriptions' notifications and messages, with its Publish responses that
     * had moreNotifications set and those after which it had no Publish request outstanding.
     */
    record ClientCounts(long received, long republished, long lost, long dropped, long listenerErrors,
            long moreNotifications, long pipelineEmptied) {

        static final ClientCounts NONE = new ClientCounts(0, 0, 0, 0, 0, 0, 0);

        ClientCounts plus(ClientCounts other) {
            return new ClientCounts(received + other.received, republished + other.republished, lost + other.lost,
                    dropped + other.dropped, listenerErrors + other.listenerErrors,
                    moreNotifications + other.moreNotifications, pipelineEmptied + other.pipelineEmptied);
        }

        ClientCounts minus(ClientCounts other) {
            return new ClientCounts(received - other.received, republished - other.republished, lost - other.lost,
                    dropped - other.dropped, listenerErrors - other.listenerErrors,
                    moreNotifications - other.moreNotifications, pipelineEmptied - other.pipelineEmptied);
        }

        /** The sum over {@code holders}; null for raw sessions. */
        static ClientCounts sum(ItemsHolder[] holders) {
            if (holders.length == 0 || holders[0].clientCounts() == null) {
                return null;
            }
            ClientCounts c = NONE;
            for (ItemsHolder h : holders) {
                c = c.plus(h.clientCounts());
            }
            return c;
        }
    }

    /** Closes the session and its channel (the server deletes its subscription); reports a failure. */
    void closeSession() throws Exception;

    /** Releases what is left, best effort. */
    @Override
    void close();

    /** The client's name in the RESULT line. */
    String client();

    /** Prefixes of the names of the threads the client runs on and the harness's: whose allocations are counted. */
    default List<String> threadPrefixes() {
        return LoadHarness.ClientUsage.RAW_THREADS;
    }

    /** What records the items' values: the tallies and revised intervals are its. */
    Subscriber subscriber();

    @Override
    default List<SubscriptionTally> tallies() {
        return subscriber().tallies();
    }

    @Override
    default double revisedPublishingMs() {
        return subscriber().revisedPublishingMs();
    }

    @Override
    default double revisedSamplingMs() {
        return subscriber().revisedSamplingMs();
    }

    @Override
    default long keepAliveMs() {
        return subscriber().keepAliveMs();
    }

    /** A raw session ({@link SubscriberSession}): hand-made CreateMonitoredItems and Publish requests. */
    final class Raw implements ItemsHolder {

        private final SubscriberSession session;
        private final int ns;

        /** @param ns the index of the bench namespace */
        Raw(SubscriberSession session, int ns) {
            this.session = session;
            this.ns = ns;
        }

        @Override
        public int perCall(ItemsOptions o, PrintStream err) throws Exception {
            if (o.perCall() > 0) {
                return o.perCall();
            }
            LoadSession s = session.session();
            NodeId limit = NodeId.ns0(NodeIds.Server_ServerCapabilities_OperationLimits_MaxMonitoredItemsPerCall);
            ReadResponse response = s.request(new ReadRequest(s.header(), 0, TimestampsToReturn.Neither,
                    new ReadValueId[] {new ReadValueId(limit, AttributeIds.Value, null, QualifiedName.NULL)}),
                    ReadResponse.class).get(10, TimeUnit.SECONDS);
            DataValue[] results = response.results();
            Object value = results == null || results.length != 1 || results[0].value() == null ? null
                    : results[0].value().value();
            long max = value instanceof Number number ? number.longValue() : 0;
            err.println("the server's MaxMonitoredItemsPerCall: " + (value == null ? "not readable" : max));
            return max <= 0 ? ItemsOptions.DEFAULT_PER_CALL : (int) Math.min(max, Integer.MAX_VALUE);
        }

        @Override
        public void subscribe(ItemsOptions o, int i, int perCall, IntConsumer created) throws Exception {
            MonitoredItemCreateRequest[] items = new MonitoredItemCreateRequest[o.itemsPerSession()];
            int[] slots = new int[items.length];
            for (int k = 0; k < items.length; k++) {
                slots[k] = o.variableOf(i, k);
                NodeId node = NodeId.string(ns, BenchAddressSpace.variableId(slots[k]));
                items[k] = ItemRequests.dataChangeQueued(node, k, o.samplingMs(), o.queueSize());
            }
            session.subscribe(o.publishingMs(), items, slots, perCall, created);
        }

        @Override
        public void startPublishing(CountDownLatch stopped) {
            session.startPublishing(2, stopped);
        }

        @Override
        public long losses() {
            return 0; // the tallies see the sequence numbers of the raw Publish responses themselves
        }

        @Override
        public void closeSession() throws Exception {
            session.session().closeSessionAndChannel();
        }

        @Override
        public void close() {
            session.session().close();
        }

        @Override
        public String client() {
            return "raw";
        }

        @Override
        public Subscriber subscriber() {
            return session;
        }
    }

    /**
     * A holder through a client's own subscription API ({@link LoadSubscriber}): {@code createSubscription} and the
     * session's items in one call, which the client splits by the server's MaxMonitoredItemsPerCall itself; the
     * client publishes from then on, and its item listeners record each value in the subscription's tally.
     */
    abstract class ApiHolder implements ItemsHolder {

        private final LoadSubscriber subscriber;
        private final WriteSequence values;

        ApiHolder(LoadSubscriber subscriber, WriteSequence values) {
            this.subscriber = subscriber;
            this.values = values;
        }

        @Override
        public void subscribe(ItemsOptions o, int i, int perCall, IntConsumer created) throws Exception {
            int[] slots = new int[o.itemsPerSession()];
            for (int k = 0; k < slots.length; k++) {
                slots[k] = o.variableOf(i, k);
            }
            subscriber.subscribe(o.publishingMs(), o.samplingMs(), o.queueSize(), slots,
                    new SubscriptionTally(i, slots, values));
            created.accept(slots.length);
        }

        @Override
        public void startPublishing(CountDownLatch stopped) {
            // the client publishes from its subscription's creation on; its Publish requests end with the session
            stopped.countDown();
            stopped.countDown();
        }

        /** Sequence numbers the client could not recover, notifications it dropped, listener failures. */
        @Override
        public long losses() {
            return subscriber.losses();
        }

        @Override
        public void closeSession() throws Exception {
            subscriber.disconnect();
        }

        @Override
        public void close() {
            subscriber.close();
        }

        @Override
        public Subscriber subscriber() {
            return subscriber;
        }
    }

    /**
     * One of our {@link OpcUaClient}s, its default settings but a long session timeout and {@code --per-call} as its
     * items per request; its item listeners run on the I/O thread that read the Publish response (the client's
     * default).
     */
    final class Ours extends ApiHolder {

        private final OpcUaClient client;

        private Ours(OpcUaClient client, OursLoadClients.Subscriber subscriber, WriteSequence values) {
            super(subscriber, values);
            this.client = client;
        }

        static OpcUaClientConfig config(ItemsOptions o, String url, ClientResources resources) {
            OpcUaClientConfig.Builder config = OpcUaClientConfig.builder(url)
                    .resources(resources)
                    .security(SecurityPolicy.None, MessageSecurityMode.None) // as the raw sessions
                    .applicationUri(LoadSecurity.APPLICATION_URI)
                    .applicationName("load harness")
                    .sessionName("load-items")
                    .sessionTimeout(SESSION_TIMEOUT);
            if (o.perCall() > 0) {
                config.subscriptionSettings(SubscriptionSettings.builder().maxItemsPerRequest(o.perCall()).build());
            }
            return config.build();
        }

        static Ours open(OpcUaClientConfig config, String namespaceUri, WriteSequence values, SubMetrics metrics)
                throws Exception {
            OpcUaClient client = OpcUaClient.create(config);
            try {
                client.connect().get(LoadClients.TIMEOUT_S, TimeUnit.SECONDS);
                int ns = client.namespaces().indexOf(namespaceUri);
                if (ns < 0) {
                    throw new IllegalStateException("namespace " + namespaceUri + " is not in the "
                            + "NamespaceArray of " + config.endpointUrl() + ": " + client.namespaces().uris());
                }
                // a node per item, made when its item is: the client's record of the item holds it
                return new Ours(client, new OursLoadClients.Subscriber(client,
                        slot -> NodeId.string(ns, BenchAddressSpace.variableId(slot)), metrics), values);
            } catch (Exception e) {
                client.close();
                throw e;
            }
        }

        /** The client's own: the smaller of its maxItemsPerRequest and the MaxMonitoredItemsPerCall it read. */
        @Override
        public int perCall(ItemsOptions o, PrintStream err) {
            int server = client.operationLimits().maxMonitoredItemsPerCall();
            int own = client.config().subscriptionSettings().maxItemsPerRequest();
            err.println("the server's MaxMonitoredItemsPerCall as the client read it: " + server
                    + "; the client's maxItemsPerRequest: " + own);
            return server > 0 ? Math.min(server, own) : own;
        }

        @Override
        public ClientCounts clientCounts() {
            ClientSubscriptions s = client.subscriptions();
            return new ClientCounts(s.notificationsReceived(), s.republished(), s.lostSequenceNumbers(),
                    s.droppedNotifications(), s.listenerErrors(), s.moreNotificationsResponses(),
                    s.publishPipelineEmptied());
        }

        @Override
        public int publishOutstanding() {
            return client.subscriptions().publishRequestsOutstanding();
        }

        @Override
        public String client() {
            return "ours";
        }
    }

    /**
     * One of Eclipse Milo 1.1.2's clients ({@link MiloLoadClients}: created the way its users do, its
     * {@code OpcUaSubscription} with the session's items, which Milo splits by the server's MaxMonitoredItemsPerCall
     * itself; its item listeners run on its delivery queue).
     */
    final class Milo extends ApiHolder {

        private final MiloLoadClients.Subscriber subscriber;

        Milo(MiloLoadClients.Subscriber subscriber, WriteSequence values) {
            super(subscriber, values);
            this.subscriber = subscriber;
        }

        /** Milo's own: the smaller of the server's MaxMonitoredItemsPerCall it read and its own limit. */
        @Override
        public int perCall(ItemsOptions o, PrintStream err) {
            int server = subscriber.maxMonitoredItemsPerCall();
            int perCall = subscriber.itemsPerCall();
            err.println("the server's MaxMonitoredItemsPerCall as Milo's client read it: "
                    + (server > 0 ? server : "none") + "; Milo sends at most " + perCall + " items per request");
            return perCall;
        }

        @Override
        public String client() {
            return "milo";
        }

        @Override
        public List<String> threadPrefixes() {
            return MiloLoadClients.THREADS;
        }
    }
}
