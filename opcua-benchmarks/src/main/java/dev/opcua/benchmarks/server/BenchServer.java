package dev.opcua.benchmarks.server;

import dev.opcua.spring.boot.observation.ObservationServiceObserver;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.security.CertificateValidator;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.pki.PkiDirectory;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.transport.NettyLeakDetection;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.structured.Argument;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.services.ServiceObserver;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.nodes.InMemoryNodeManagerBuilder;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.server.requests.RequestPoolSettings;
import dev.opcua.stack.server.session.SessionSettings;
import dev.opcua.stack.server.subscriptions.SubscriptionSettings;
import dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionStore;
import dev.opcua.stack.history.embedded.MVStoreDurableSubscriptionStore;
import dev.opcua.benchmarks.history.ReusedConnections;
import dev.opcua.stack.history.jdbc.state.JdbcSessionStateStore;
import dev.opcua.stack.server.redundancy.SessionMirror;
import dev.opcua.stack.server.redundancy.SessionMirrorSettings;
import java.lang.management.ManagementFactory;
import java.sql.SQLException;
import org.postgresql.ds.PGSimpleDataSource;
import dev.opcua.stack.server.subscriptions.events.EventNotifierRegistry;
import dev.opcua.stack.server.subscriptions.events.UaEvent;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import io.netty.util.ResourceLeakDetector;

/**
 * Our {@link OpcUaServer} serving the {@link BenchAddressSpace} to anonymous sessions (Part 4,
 * 5.6) over SecurityPolicy None, and with {@code --pki} over every policy and mode, for the load
 * harness; its variables can be monitored (Part 4, 5.12), with the limits of {@link #SUBSCRIPTIONS}.
 * Prints {@code READY <endpoint url>} on stdout once listening; a shutdown hook closes it on SIGTERM
 * or Ctrl-C.
 *
 * <p>Usage: {@code java -cp opcua-benchmarks/target/benchmarks.jar dev.opcua.benchmarks.server.BenchServer
 * [--port 4841] [--nodes 1000] [--host localhost] [--threads 16] [--max-queued 2000] [--pki DIR
 * [--trust-all-clients]] [--simulate N,RATE]} and the {@link PairOptions} of a redundant pair. In a
 * HotAndMirrored pair its sessions go to a {@link JdbcSessionStateStore} (table {@value #STATE_TABLE_PREFIX}
 * {@code _sessions}) in the pair's PostgreSQL, and each {@code STATS} answer tells what mirroring them cost
 * ({@link RunningBenchServer#mirrorStats()}). With {@code --pki} it offers every security policy and mode;
 * with {@code --simulate} it changes its variables itself ({@link ValueSimulator}).
 */
public final class BenchServer {

    private static final Logger LOG = LoggerFactory.getLogger(BenchServer.class);
    private static final NodeId BASE_EVENT_TYPE = NodeId.ns0(NodeIds.BaseEventType);

    /**
     * Room for the load harness's {@code sub} scenario (many sessions and subscriptions), and at most
     * 65,535 notifications per NotificationMessage, the cap Milo 1.1.2 puts on a client's "no limit",
     * so that both bench servers send a subscription's changes of one publishing interval in one message.
     */
    static final SubscriptionSettings SUBSCRIPTIONS = SubscriptionSettings.builder()
            .maxSubscriptions(10_000)
            .maxSubscriptionsPerSession(1_000)
            .maxPublishRequestsPerSession(100)
            .maxNotificationsPerPublish(65_535)
            .build();

    /** The table prefix of a HotAndMirrored pair's session states in its PostgreSQL database. */
    static final String STATE_TABLE_PREFIX = "bench_failover";

    private BenchServer() {
    }

    public static void main(String[] args) {
        BenchOptions options;
        PairOptions pair;
        try {
            List<String> rest = new java.util.ArrayList<>(List.of(args));
            pair = PairOptions.extract(rest);
            options = BenchOptions.parse(rest.toArray(String[]::new));
        } catch (RuntimeException e) { // IllegalArgumentException, or InvalidSettingException of a partner
            System.err.println("BenchServer: " + e.getMessage());
            System.exit(2);
            return;
        }
        leakDetectionAsTheStarter();
        RunningBenchServer server = start(options, pair);
        BenchAddressSpace.serveUntilStopped(server);
    }

    /**
     * Netty's leak detector as a Spring Boot application of the starter has it by default
     * ({@code opcua.netty.leak-detection: disabled}): off, unless the command line chose a level, so that plain
     * {@code java} of the bench server measures what plain {@code java -jar} of an application gets.
     */
    static void leakDetectionAsTheStarter() {
        NettyLeakDetection.setUnlessChosen(ResourceLeakDetector.Level.DISABLED, System::getProperty);
    }

    /** Starts the server; the caller owns the result and closes it. */
    public static RunningBenchServer start(BenchOptions options) {
        return start(options, PairOptions.NONE);
    }

    /** Starts the server as one of a redundant pair, with {@code pair}'s simulation epoch; the caller closes it. */
    public static RunningBenchServer start(BenchOptions options, PairOptions pair) {
        AtomicInteger counter = new AtomicInteger();
        AtomicLong simulated = new AtomicLong();
        // Emit reports through the server, which exists only once the node manager is built
        AtomicReference<OpcUaServer> running = new AtomicReference<>();
        // The suppliers below read atomics: they never wait, so small Reads and Writes may run on the I/O threads
        InMemoryNodeManagerBuilder nodes = InMemoryNodeManager.builder(BenchAddressSpace.NAMESPACE_URI)
                .nonBlockingCallbacks()
                .folder(BenchAddressSpace.BENCH, f -> f.id(BenchAddressSpace.BENCH));
        for (int i = 0; i < options.nodes(); i++) {
            String id = BenchAddressSpace.variableId(i);
            nodes.variable(BenchAddressSpace.BENCH + "." + BenchAddressSpace.variableBrowseName(i), BuiltinType.Double,
                    v -> v.id(id).displayName(id).value(Variant.ofDouble(0.0)).writable());
        }
        nodes.variable(BenchAddressSpace.BENCH + "." + BenchAddressSpace.COUNTER, BuiltinType.Int32,
                        v -> v.id(BenchAddressSpace.COUNTER).valueSupplier(() -> Variant.ofInt32(counter.get())))
                .variable(BenchAddressSpace.BENCH + "." + BenchAddressSpace.SIMULATED, BuiltinType.Int64,
                        v -> v.id(BenchAddressSpace.SIMULATED).valueSupplier(() -> Variant.ofInt64(simulated.get())))
                .object(BenchAddressSpace.METHODS, o -> o.id(BenchAddressSpace.METHODS))
                .method(BenchAddressSpace.ADD, new Argument[] {int32("a"), int32("b")},
                        new Argument[] {int32("sum")}, (context, in) -> new Variant[] {add(in)})
                .method(BenchAddressSpace.EMIT, new Argument[] {argument("first", BuiltinType.Int64), int32("count")},
                        new Argument[0], (context, in) -> emit(running.get(), in));
        InMemoryNodeManager manager = nodes.build();
        int minThreads = Math.min(4, options.threads());
        OpcUaServer.Builder builder = OpcUaServer.builder()
                .applicationUri(pair.applicationUri() == null ? "urn:dev.opcua:bench:server" : pair.applicationUri())
                .applicationName("bench server")
                .bindAddress("0.0.0.0")
                .port(options.port())
                .hostnames(List.of(options.host()))
                // -Dbench.inlineWhenIdle=false sends every request through the queue to a worker (the stack's
                // requests.inline-when-idle, default true), -Dbench.maxRunningPerSession=N bounds the workers one
                // session holds (requests.max-running-per-session, default 0 = none), -Dbench.maxRequestsPerRead=N
                // the flood bound per socket read (requests.max-per-read, default 128); requests(...) keeps them
                // and sets the pipeline's sizes
                .requestPool(RequestPoolSettings.DEFAULT.withInlineWhenIdle(
                        Boolean.parseBoolean(System.getProperty("bench.inlineWhenIdle", "true")))
                        .withMaxRunningPerSession(Integer.getInteger("bench.maxRunningPerSession", 0))
                        .withMaxRequestsPerRead(Integer.getInteger("bench.maxRequestsPerRead",
                                RequestPoolSettings.DEFAULT_MAX_REQUESTS_PER_READ)))
                .requests(minThreads, options.threads(), options.maxQueued())
                .subscriptionSettings(SUBSCRIPTIONS)
                .nodeManager(manager);
        if (pair.mode() != dev.opcua.stack.server.redundancy.RedundancyMode.None) {
            builder.redundancy(pair.settings());
        }
        if (options.maxSessions() > 0) {
            limitSessions(builder, options.maxSessions());
        }
        if (options.pki() != null) {
            builder.security(EndpointSecurity.every()).pki(new PkiDirectory(options.pki()));
            if (options.trustAllClients()) {
                LOG.warn("--trust-all-clients: every client certificate is accepted without a trust list; "
                        + "for benchmarks only, never for a plant");
                builder.clientCertificateValidator(CertificateValidator.acceptAll());
            }
        }
        builder.serviceObserver(serviceObserver(System.getProperty("bench.observe", "none")));
        // -Dbench.ioThreads=N: the number of event loops; 0 (default) is one per processor
        builder.ioThreads(Integer.getInteger("bench.ioThreads", 0));
        // -Dbench.readsPerTurn=N: socket reads per connection per event-loop turn (the server's default 1)
        builder.readsPerTurn(Integer.getInteger("bench.readsPerTurn", 1));
        // --durable-dir: durable subscriptions kept in a file, so that they outlive the process; closed after the server
        DurableSubscriptionStore durable = pair.durableDirectory() == null ? null
                : MVStoreDurableSubscriptionStore.open(pair.durableDirectory());
        if (durable != null) {
            builder.durableSubscriptionStore(durable);
        }
        // a HotAndMirrored pair's sessions: kept in the shared PostgreSQL, closed after the server
        ReusedConnections stateConnections = pair.stateStore() == null ? null : stateConnections(pair.stateStore());
        if (stateConnections != null) {
            try {
                builder.sessionStateStore(JdbcSessionStateStore.open(stateConnections, STATE_TABLE_PREFIX));
                // -Dbench.standbyWindowMs=N: how far back the partner's standby items reach (0: no standby sampling)
                long standbyMillis = Long.getLong("bench.standbyWindowMs",
                        SessionMirrorSettings.DEFAULT_STANDBY_WINDOW.toMillis());
                builder.sessionMirrorSettings(SessionMirrorSettings.DEFAULT.withStandbyWindow(
                        java.time.Duration.ofMillis(standbyMillis)));
            } catch (SQLException e) {
                closeQuietly(durable, "durable subscription store");
                closeQuietly(stateConnections, "session state store's connections");
                throw new IllegalStateException("the session state store at " + pair.stateStore() + " cannot be"
                        + " opened: " + e.getMessage(), e);
            }
        }
        OpcUaServer server = builder.build();
        ScheduledExecutorService ticker = null;
        ValueSimulator<DateTime> simulator = null;
        running.set(server);
        try {
            server.start();
            ticker = BenchAddressSpace.startCounter(counter::set);
            if (options.simulates()) {
                simulator = new ValueSimulator<>(options.simulatedVariables(), options.simulatedRate(),
                        new Simulated(manager, options.simulatedVariables(), simulated), pair.simulateEpochMillis());
            }
        } catch (RuntimeException e) {
            if (ticker != null) {
                ticker.shutdownNow();
            }
            server.close();
            closeQuietly(durable, "durable subscription store");
            closeQuietly(stateConnections, "session state store's connections");
            throw e;
        }
        int ns = manager.namespaceIndex();
        LOG.info("bench server: {} variables, namespace {} has index {}, listening at {}{}", options.nodes(),
                BenchAddressSpace.NAMESPACE_URI, ns, server.endpointUrl(), options.simulates()
                        ? ", simulating " + options.simulatedRate() + " values/s on " + options.simulatedVariables()
                        + " variables" : "");
        return new Running(server, ticker, simulator, ns, durable, stateConnections);
    }

    /** Connections to the pair's PostgreSQL, kept open and reused by the session state store. */
    private static ReusedConnections stateConnections(PairOptions.StateStoreDatabase database) {
        PGSimpleDataSource source = new PGSimpleDataSource();
        source.setURL(database.url());
        if (database.user() != null) {
            source.setUser(database.user());
        }
        if (database.password() != null) {
            source.setPassword(database.password());
        }
        return new ReusedConnections(source);
    }

    /**
     * {@code --max-sessions N}: N sessions, N sockets beyond the few a client needs while it reconnects, and a
     * subscription for each session beyond the bench's {@link #SUBSCRIPTIONS}: the limits a server of many
     * sessions configures (Part 4, 5.6.2 BadTooManySessions; Part 6, 7.1.2.3 BadTcpNotEnoughResources).
     */
    private static void limitSessions(OpcUaServer.Builder builder, int maxSessions) {
        SessionSettings defaults = SessionSettings.DEFAULT;
        builder.sessionSettings(new SessionSettings(maxSessions, defaults.minSessionTimeout(),
                        defaults.maxSessionTimeout(), defaults.maxFailedAuthenticationAttempts(), defaults.failedAuthenticationLockout()))
                .transportQuotas(TransportQuotas.DEFAULT.toBuilder().maxConnections(maxSessions + 10).build())
                .subscriptionSettings(SUBSCRIPTIONS.toBuilder()
                        .maxSubscriptions(Math.max(SUBSCRIPTIONS.maxSubscriptions(), 2 * maxSessions)).build());
    }

    /**
     * What watches every service call, from {@code -Dbench.observe}: {@code none} (default, no observer),
     * {@code noop} (the starter's Observation observer on a no-op registry: what an application without
     * metrics or tracing pays), {@code metrics} (an Observation per call turned into the
     * {@code opcua.server.requests} timer of a SimpleMeterRegistry, as Spring Boot's metrics do).
     */
    static ServiceObserver serviceObserver(String mode) {
        return switch (mode) {
            case "none" -> ServiceObserver.NONE;
            case "noop" -> new ObservationServiceObserver(ObservationRegistry.NOOP);
            case "metrics" -> {
                ObservationRegistry registry = ObservationRegistry.create();
                registry.observationConfig().observationHandler(new DefaultMeterObservationHandler(
                        new SimpleMeterRegistry()));
                yield new ObservationServiceObserver(registry);
            }
            default -> throw new IllegalArgumentException("bench.observe must be none, noop or metrics, was " + mode);
        };
    }

    /** Closes {@code resource} (none when null), logging a failure: the server is going away either way. */
    private static void closeQuietly(AutoCloseable resource, String what) {
        if (resource == null) {
            return;
        }
        try {
            resource.close();
        } catch (Exception e) {
            LOG.warn("closing the {}: {}", what, e.toString());
        }
    }

    private static Argument int32(String name) {
        return argument(name, BuiltinType.Int32);
    }

    private static Argument argument(String name, BuiltinType type) {
        return new Argument(name, type.dataTypeId(), -1, null, LocalizedText.of(name));
    }

    /** Reports the events of Emit(first, count) on the Server object. */
    private static Variant[] emit(OpcUaServer server, Variant[] in) {
        if (!(in[0].value() instanceof Long first) || !(in[1].value() instanceof Integer count)
                || count < 0 || count > BenchAddressSpace.MAX_EMIT) {
            throw new UaException(StatusCodes.BadInvalidArgument, "Emit takes an Int64 and an Int32 count of 0.."
                    + BenchAddressSpace.MAX_EMIT);
        }
        UaEvent.Builder event = UaEvent.builder(BASE_EVENT_TYPE)
                .sourceNode(EventNotifierRegistry.SERVER_OBJECT)
                .sourceName(BenchAddressSpace.BENCH)
                .severity(BenchAddressSpace.EVENT_SEVERITY);
        for (int i = 0; i < count; i++) {
            server.events().report(EventNotifierRegistry.SERVER_OBJECT,
                    event.message(BenchAddressSpace.eventMessage(first + i)).build());
        }
        return new Variant[0];
    }

    private static Variant add(Variant[] in) {
        if (!(in[0].value() instanceof Integer a) || !(in[1].value() instanceof Integer b)) {
            throw new UaException(StatusCodes.BadInvalidArgument, "Add takes two Int32");
        }
        return Variant.ofInt32(a + b);
    }

    /** Simulated values go straight to the variables of the node manager's store, as a device driver's would. */
    private static final class Simulated implements ValueSimulator.Target<DateTime> {

        private final VariableNode[] variables;
        private final AtomicLong count;

        Simulated(InMemoryNodeManager manager, int n, AtomicLong count) {
            this.variables = new VariableNode[n];
            for (int i = 0; i < n; i++) {
                variables[i] = (VariableNode) manager.store().get(manager.nodeId(BenchAddressSpace.BENCH + "."
                        + BenchAddressSpace.variableBrowseName(i)));
            }
            this.count = count;
        }

        @Override
        public DateTime timestamp(Instant now) {
            return DateTime.ofInstant(now);
        }

        @Override
        public void set(int variable, double value, DateTime time) {
            variables[variable].setValue(DataValue.of(Variant.ofDouble(value), StatusCode.GOOD, time, 0, time, 0));
        }

        @Override
        public void progress(long changed) {
            count.set(changed);
        }
    }

    private record Running(OpcUaServer server, ScheduledExecutorService ticker, ValueSimulator<DateTime> simulator,
            int namespaceIndex, DurableSubscriptionStore durable, ReusedConnections stateConnections)
            implements RunningBenchServer {

        @Override
        public String mirrorStats() {
            SessionMirror mirror = server.sessionMirror();
            if (mirror == null) {
                return "";
            }
            return "mirror_cpu_ns=" + threadCpuNanos(MIRROR_THREAD) + " mirror_cycle_ns=" + mirror.cycleNanos()
                    + " mirror_store_ns=" + mirror.writeNanos() + " mirror_states=" + mirror.writtenStates()
                    + " mirror_failed=" + mirror.failedWrites() + " mirror_dropped=" + mirror.droppedStates()
                    + " taken_over=" + mirror.takenOverSessions() + " standby_items=" + mirror.standbyItems()
                    + " standby_appended=" + mirror.standbyValuesAppended()
                    + " notifications_sent=" + server.statistics().subscriptions().notificationsSent();
        }

        @Override
        public String subscriptionStats() {
            var subscriptions = server.statistics().subscriptions();
            return "queue_overflows=" + subscriptions.notificationsDropped() + " late_cycles="
                    + subscriptions.latePublishes() + " parked=" + subscriptions.parkedPublishRequests();
        }

        @Override
        public long simulatedValues() {
            return simulator == null ? -1 : simulator.valuesSet();
        }

        @Override
        public void startSimulation() {
            if (simulator != null) {
                simulator.release();
            }
        }

        @Override
        public String counters() {
            return "connections=" + server.statistics().transport().openConnections() + " channels="
                    + server.statistics().transport().secureChannels() + " sessions="
                    + server.statistics().currentSessions();
        }

        @Override
        public long rejectedRequests() {
            return server.statistics().requests().rejected();
        }

        @Override
        public String endpointUrl() {
            return server.endpointUrl();
        }

        @Override
        public void close() {
            if (simulator != null) {
                simulator.close();
            }
            ticker.shutdownNow();
            server.close(); // saves every durable subscription to the store first
            closeQuietly(durable, "durable subscription store");
            closeQuietly(stateConnections, "session state store's connections");
        }
    }

    /** The name of {@link SessionMirror}'s thread, whose CPU time is the mirror's cost on the server. */
    static final String MIRROR_THREAD = "opcua-session-mirror";

    /** The CPU time of the live thread named {@code name} in nanoseconds; -1 when there is none. */
    static long threadCpuNanos(String name) {
        java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        for (java.lang.management.ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && info.getThreadName().equals(name)) {
                return threads.getThreadCpuTime(info.getThreadId());
            }
        }
        return -1;
    }
}
