package dev.opcua.benchmarks.load;

import dev.opcua.benchmarks.server.BenchAddressSpace;
import dev.opcua.benchmarks.transport.ThreadAllocations;
import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.types.builtin.NodeId;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

/**
 * Closed-loop load client for any OPC UA server (anonymous sessions, SecurityPolicy None or the
 * {@code --security} and {@code --policy} given, see {@link LoadSecurity}): each of
 * {@code --sessions} sessions, on its own secure channel, keeps {@code --inflight} Read or Write
 * requests (Part 4, 5.11.2 and 5.11.4) of {@code --values} items outstanding over the variables
 * {@code ns=<urn:bench>;s=Var.i}, or Browse requests (Part 4, 5.9.2) of the Server object and the
 * Objects folder; or, for {@code connect}, each slot opens and closes sessions (channel, CreateSession,
 * ActivateSession, CloseSession, channel close) in a loop, with a security policy the full secure
 * handshake each time; or, for {@code sub} and {@code events}, subscriber sessions receive data change
 * notifications of variables a writer session changes, or events it has the server emit (see
 * {@link SubScenario}); for {@code sessions}, thousands of secure sessions with a subscription each, every
 * notification verified and the server's heap per idle session measured (see {@link SessionsScenario}).
 * After {@code --warmup} seconds it
 * measures {@code --duration} seconds:
 * throughput, latency percentiles, errors by status, the harness JVM's CPU and allocated bytes per
 * operation, and for a server it started as a child process ({@code --server ours|milo}) that
 * process's CPU per operation from /proc and its allocated bytes per operation from its
 * {@code STATS} stdout probe (live threads only). A summary goes to stderr, one {@code RESULT} line of
 * key=value pairs to stdout.
 *
 * <p>The client under test ({@code --client}): {@code ours}, one {@link dev.opcua.stack.client.OpcUaClient}
 * per session through its public API (see {@link OursLoadClients}); {@code milo}, Eclipse Milo's client
 * likewise (see {@link MiloLoadClients}); {@code raw}, requests sent on raw {@link LoadSession}s, as the
 * harness did before (and still does for {@code events}). For {@code sub}, ours and Milo subscribe through
 * their clients' subscription APIs (see {@link LoadSubscriber}), while the writer stays on a raw session on
 * threads of its own ({@code sub-writer-*}), not counted as the client's. The variables are addressed in
 * the namespace {@code --namespace}, its index read from the server's NamespaceArray.
 *
 * <p>All sessions share one set of client threads ({@link ClientResources} for ours and raw), as an
 * application with many connections would. Client CPU is the whole harness JVM's process CPU, so
 * it includes an in-process server when {@code --url} points at one; client allocation counts only
 * the client's threads and the harness's ({@code load-*}): {@code opcua-client-*} for ours and raw,
 * {@code milo-client-*} for Milo. The allocation of every thread group goes to stderr as well.
 */
public final class LoadHarness {

    private LoadHarness() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs one measurement; returns the exit code (0 ok, 1 failed run, 2 usage error). */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (isPubSub(args)) {
            return runPubSub(args, out, err);
        }
        if (isFailover(args)) {
            return runFailover(args, out, err);
        }
        if (ItemsOptions.asked(args)) {
            return runOwnOptions(args, ItemsOptions::parse, ItemsOptions.USAGE, o -> ItemsScenario.run(o, out, err),
                    err);
        }
        LoadOptions options;
        try {
            options = LoadOptions.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("LoadHarness: " + e.getMessage());
            err.println(LoadOptions.USAGE);
            return 2;
        }
        try {
            if (options.server() == null) {
                measure(options, options.url(), null, out, err);
            } else {
                boolean secured = options.security().policy() != SecurityPolicy.None;
                try (ChildServer server = ChildServer.start(options.server(), options.open62541(), options.nodes(),
                        secured, options.childServerOptions(), options.scenario().equals("soak")
                                ? SoakScenario.SERVER_JVM_OPTIONS : List.of())) {
                    err.println("server " + options.server() + " pid " + server.pid() + " at " + server.url()
                            + ", log " + server.log() + (secured ? ", PKI " + server.pki() : ""));
                    measure(options, server.url(), server, out, err);
                }
            }
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("LoadHarness: interrupted");
            return 1;
        } catch (Exception e) {
            err.println("LoadHarness: run failed: " + e);
            return 1;
        }
    }

    /** Whether the arguments ask for {@code --scenario pubsub}, which has options of its own ({@link PubSubOptions}). */
    static boolean isPubSub(String[] args) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals("--scenario") && args[i + 1].equals("pubsub")) {
                return true;
            }
        }
        return false;
    }

    /** Whether the arguments ask for {@code --scenario failover}, which has options of its own ({@link FailoverOptions}). */
    static boolean isFailover(String[] args) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals("--scenario") && args[i + 1].equals("failover")) {
                return true;
            }
        }
        return false;
    }

    /** The failover scenario: a redundant pair of child bench servers, the active one killed (see {@link FailoverScenario}). */
    private static int runFailover(String[] args, PrintStream out, PrintStream err) {
        return runOwnOptions(args, FailoverOptions::parse, FailoverOptions.USAGE,
                options -> FailoverScenario.run(options, out, err), err);
    }

    /** The pubsub scenario: a publisher and subscribers over an MQTT broker, no OPC UA server (see {@link PubSubScenario}). */
    private static int runPubSub(String[] args, PrintStream out, PrintStream err) {
        return runOwnOptions(args, PubSubOptions::parse, PubSubOptions.USAGE,
                options -> PubSubScenario.run(options, out, err), err);
    }

    /** A scenario with options of its own: exit code 2 with its usage for bad options, 1 when the run fails. */
    private static <O> int runOwnOptions(String[] args, Function<String[], O> parse, String usage, Scenario<O> scenario,
            PrintStream err) {
        O options;
        try {
            options = parse.apply(args);
        } catch (IllegalArgumentException e) {
            err.println("LoadHarness: " + e.getMessage());
            err.println(usage);
            return 2;
        }
        try {
            return scenario.run(options);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("LoadHarness: interrupted");
            return 1;
        } catch (Exception e) {
            err.println("LoadHarness: run failed: " + e);
            e.printStackTrace(err);
            return 1;
        }
    }

    /** Runs a scenario with its options; its exit code. */
    @FunctionalInterface
    private interface Scenario<O> {
        int run(O options) throws Exception;
    }

    private static void measure(LoadOptions o, String url, ChildServer server, PrintStream out, PrintStream err)
            throws Exception {
        if (!o.rawSessions()) {
            try (LoadClients clients = LoadClients.create(o, url)) {
                if (o.scenario().equals("sub")) {
                    // the writer stays on a raw session, on threads of its own (started only if a session is
                    // opened): load, not the client under test
                    try (ClientResources writer = ClientResources.builder()
                            .threadNamePrefix(SubScenario.WRITER_THREADS).build()) {
                        SubScenario.run(o, url, server, writer, null, clients, out, err);
                    }
                } else if (o.scenario().equals("connect")) {
                    runConnect(o, server, clients, out, err);
                } else {
                    runClientLoad(o, server, clients, out, err);
                }
            }
            return;
        }
        if (o.client().equals("ours") && o.rawSessions() && !o.scenario().equals("flood")
                && !o.scenario().equals("churn") && !o.scenario().equals("sessions")
                && !o.scenario().equals("soak")) {
            err.println("note: " + o.scenario() + " runs on raw sessions: the harness drives no event items through the "
                    + "client's API yet");
        }
        List<LoadSession> sessions = new ArrayList<>();
        try (ClientResources resources = ClientResources.create()) {
            LoadSecurity security = LoadSecurity.of(o.security(), url, resources);
            if (o.scenario().equals("connect")) {
                runConnect(o, url, server, resources, security, out, err);
                return;
            }
            if (o.scenario().equals("churn")) {
                ChurnScenario.run(o, url, server, resources, security, out, err);
                return;
            }
            if (o.scenario().equals("sessions")) {
                SessionsScenario.run(o, url, server, resources, security, out, err);
                return;
            }
            if (o.scenario().equals("soak")) {
                SoakScenario.run(o, url, server, resources, security, out, err);
                return;
            }
            if (o.scenario().equals("sub") || o.scenario().equals("events")) {
                SubScenario.run(o, url, server, resources, security, null, out, err);
                return;
            }
            // flood: the quiet sessions on I/O threads of their own, so that their latency is not the harness's
            // own queue behind the flooder's responses
            ClientResources quiet = o.scenario().equals("flood")
                    ? ClientResources.builder().threadNamePrefix(FloodScenario.QUIET_THREADS).build() : null;
            try {
                for (int i = 0; i < o.sessions(); i++) {
                    sessions.add(LoadSession.open(url, quiet != null && i > 0 ? quiet : resources, security));
                }
                int ns = sessions.get(0).namespaceIndex(o.namespace());
                NodeId[] nodeIds = new NodeId[o.nodes()];
                for (int i = 0; i < nodeIds.length; i++) {
                    nodeIds[i] = NodeId.string(ns, BenchAddressSpace.variableId(i));
                }
                if (o.scenario().equals("flood")) {
                    FloodScenario.run(o, url, server, sessions, nodeIds, resources, out, err);
                } else {
                    runLoad(o, server, sessions, nodeIds, resources, out, err);
                }
            } finally {
                for (LoadSession s : sessions) {
                    s.close();
                }
                if (quiet != null) {
                    quiet.close();
                }
            }
        }
    }

    /** Read, write or browse through a client's public API: {@code inflight} chains per client session. */
    private static void runClientLoad(LoadOptions o, ChildServer server, LoadClients clients, PrintStream out,
            PrintStream err) throws Exception {
        List<LoadClient> sessions = new ArrayList<>();
        try {
            for (int i = 0; i < o.sessions(); i++) {
                sessions.add(clients.open());
            }
            RequestChain.Phase phase = new RequestChain.Phase();
            LongAdder ops = new LongAdder();
            ConcurrentHashMap<String, LongAdder> errors = new ConcurrentHashMap<>();
            int chainCount = o.sessions() * o.inflight();
            CountDownLatch stopped = new CountDownLatch(chainCount);
            List<ClientChain> chains = new ArrayList<>(chainCount);
            for (int s = 0; s < o.sessions(); s++) {
                for (int f = 0; f < o.inflight(); f++) {
                    // spread the chains' starting points over the variables
                    int start = (int) ((long) chains.size() * o.nodes() / chainCount);
                    chains.add(new ClientChain(sessions.get(s), o.scenario(), o.values(), o.nodes(), start, phase,
                            ops, errors, clients.executor(), stopped));
                }
            }
            List<LatencyHistogram> histograms = new ArrayList<>();
            chains.forEach(c -> histograms.add(c.histogram()));
            window(o, server, () -> chains.forEach(ClientChain::issue), phase, ops, errors, stopped, histograms,
                    clients.threadPrefixes(), out, err);
        } finally {
            for (LoadClient s : sessions) {
                s.close();
            }
        }
    }

    private static void runLoad(LoadOptions o, ChildServer server, List<LoadSession> sessions, NodeId[] nodeIds,
            ClientResources resources, PrintStream out, PrintStream err) throws InterruptedException {
        RequestChain.Phase phase = new RequestChain.Phase();
        LongAdder ops = new LongAdder();
        ConcurrentHashMap<String, LongAdder> errors = new ConcurrentHashMap<>();
        int chainCount = o.sessions() * o.inflight();
        CountDownLatch stopped = new CountDownLatch(chainCount);
        List<RequestChain> chains = new ArrayList<>(chainCount);
        for (int s = 0; s < o.sessions(); s++) {
            for (int f = 0; f < o.inflight(); f++) {
                // spread the chains' starting points over the variables
                int start = (int) ((long) chains.size() * o.nodes() / chainCount);
                chains.add(new RequestChain(sessions.get(s), o.scenario(), o.values(), nodeIds,
                        RequestChain.browseOf(o.browseBench(), nodeIds), start, phase, ops, errors,
                        resources.executor(), stopped));
            }
        }
        List<LatencyHistogram> histograms = new ArrayList<>();
        chains.forEach(c -> histograms.add(c.histogram()));
        window(o, server, () -> chains.forEach(RequestChain::issue), phase, ops, errors, stopped, histograms,
                ClientUsage.RAW_THREADS, out, err);
    }

    /** Connect scenario: {@code sessions x inflight} threads each open and close sessions in a loop. */
    private static void runConnect(LoadOptions o, String url, ChildServer server, ClientResources resources,
            LoadSecurity security, PrintStream out, PrintStream err) throws InterruptedException {
        RequestChain.Phase phase = new RequestChain.Phase();
        LongAdder ops = new LongAdder();
        ConcurrentHashMap<String, LongAdder> errors = new ConcurrentHashMap<>();
        int slots = o.sessions() * o.inflight();
        CountDownLatch stopped = new CountDownLatch(slots);
        List<LatencyHistogram> histograms = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < slots; i++) {
            ConnectLoop loop = new ConnectLoop(url, resources, security, phase, ops, errors, stopped);
            histograms.add(loop.histogram());
            Thread thread = new Thread(loop, "load-connect-" + i);
            thread.setDaemon(true);
            threads.add(thread);
        }
        window(o, server, () -> threads.forEach(Thread::start), phase, ops, errors, stopped, histograms,
                ClientUsage.RAW_THREADS, out, err);
    }

    /** Connect scenario through a client's public API: each slot creates, connects and disconnects clients. */
    private static void runConnect(LoadOptions o, ChildServer server, LoadClients clients, PrintStream out,
            PrintStream err) throws InterruptedException {
        RequestChain.Phase phase = new RequestChain.Phase();
        LongAdder ops = new LongAdder();
        ConcurrentHashMap<String, LongAdder> errors = new ConcurrentHashMap<>();
        int slots = o.sessions() * o.inflight();
        CountDownLatch stopped = new CountDownLatch(slots);
        List<LatencyHistogram> histograms = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < slots; i++) {
            ConnectLoop loop = new ConnectLoop(clients::connectAndDisconnect, phase, ops, errors, stopped);
            histograms.add(loop.histogram());
            Thread thread = new Thread(loop, "load-connect-" + i);
            thread.setDaemon(true);
            threads.add(thread);
        }
        window(o, server, () -> threads.forEach(Thread::start), phase, ops, errors, stopped, histograms,
                clients.threadPrefixes(), out, err);
    }

    private static void window(LoadOptions o, ChildServer server, Runnable startLoad, RequestChain.Phase phase,
            LongAdder ops, ConcurrentHashMap<String, LongAdder> errors, CountDownLatch stopped,
            List<LatencyHistogram> histograms, List<String> clientThreads, PrintStream out, PrintStream err)
            throws InterruptedException {
        ClientUsage client = new ClientUsage(clientThreads);
        err.printf(Locale.ROOT,
                "%s x%d values, %d sessions x %d in flight, client %s, security %s, warmup %d s, measuring %d s%n",
                o.scenario(), o.values(), o.sessions(), o.inflight(), o.clientName(), o.securityName(), o.warmupS(),
                o.durationS());
        startLoad.run();
        if (server != null) {
            server.stats(); // the probe's first use compiles code in the server: during the warmup, not the window
        }
        TimeUnit.SECONDS.sleep(o.warmupS());

        phase.value = RequestChain.Phase.MEASURE;
        long t0 = System.nanoTime();
        ServerStats a0 = server == null ? null : server.stats();
        long s0 = server == null ? -1 : server.cpuNanos();
        ClientUsage.Snapshot c0 = client.snapshot(); // after the server's probe, which is not the client's work
        Thread progress = new Thread(() -> progress(ops, t0, err), "load-progress");
        progress.setDaemon(true);
        progress.start();
        TimeUnit.NANOSECONDS.sleep(TimeUnit.SECONDS.toNanos(o.durationS()));
        phase.value = RequestChain.Phase.STOP;
        long elapsed = System.nanoTime() - t0;
        ClientUsage.Snapshot c1 = client.snapshot();
        long s1 = server == null ? -1 : server.cpuNanos();
        long rss = ServerMemory.rssNow(server);
        ServerStats a1 = server == null ? null : server.stats();
        progress.interrupt();
        if (!stopped.await(15, TimeUnit.SECONDS)) {
            err.println("warning: " + stopped.getCount() + " requests still outstanding after 15 s");
        }
        ServerMemory memory = ServerMemory.after(server, rss);

        LatencyHistogram latency = new LatencyHistogram();
        histograms.forEach(latency::add);
        long done = ops.sum();
        long errorCount = errors.values().stream().mapToLong(LongAdder::sum).sum();
        double seconds = elapsed / 1e9;
        long perOpDivisor = Math.max(1, done);
        String serverCpu = s0 < 0 || s1 < 0 ? "n/a" : fmt((s1 - s0) / 1e3 / perOpDivisor);
        String serverAlloc = a0 == null || a1 == null ? "n/a"
                : Long.toString(Math.max(0, a1.allocatedBytes() - a0.allocatedBytes()) / perOpDivisor);
        double clientCpu = (c1.cpuNanos() - c0.cpuNanos()) / 1e3 / perOpDivisor;
        long clientAlloc = c1.allocatedSince(c0) / perOpDivisor;

        Map<String, String> result = new LinkedHashMap<>();
        result.put("scenario", o.scenario());
        result.put("server", o.server() == null ? "url" : o.server());
        result.put("client", o.clientName());
        result.put("security", o.securityName());
        result.put("sessions", Integer.toString(o.sessions()));
        result.put("inflight", Integer.toString(o.inflight()));
        result.put("values", Integer.toString(o.values()));
        result.put("duration_s", fmt(seconds));
        result.put("ops", Long.toString(done));
        result.put("ops_per_s", fmt(done / seconds));
        result.put("p50_us", fmt(latency.quantile(0.50) / 1e3));
        result.put("p90_us", fmt(latency.quantile(0.90) / 1e3));
        result.put("p99_us", fmt(latency.quantile(0.99) / 1e3));
        result.put("max_us", fmt(latency.max() / 1e3));
        result.put("errors", Long.toString(errorCount));
        result.put("server_cpu_us_per_op", serverCpu);
        result.put("server_alloc_b_per_op", serverAlloc);
        result.put("client_cpu_us_per_op", fmt(clientCpu));
        result.put("client_alloc_b_per_op", Long.toString(clientAlloc));
        memory.putInto(result);

        err.printf(Locale.ROOT, "%s: %d ops in %.2f s = %s ops/s; latency us p50 %s p90 %s p99 %s max %s%n",
                o.securityName(), done, seconds, result.get("ops_per_s"), result.get("p50_us"), result.get("p90_us"),
                result.get("p99_us"), result.get("max_us"));
        err.printf(Locale.ROOT, "per op: server CPU %s us, server alloc %s B, client CPU %s us, client alloc %d B%n",
                serverCpu, serverAlloc, result.get("client_cpu_us_per_op"), clientAlloc);
        err.println("allocation by thread in the window, B/op (* counted as the client's): "
                + c1.describeAllocations(c0, perOpDivisor));
        errors.forEach((status, count) -> err.println("errors " + status + ": " + count.sum()));
        if (s0 >= 0 && s1 >= 0 && c1.cpuNanos() - c0.cpuNanos() > s1 - s0) {
            err.println("note: the client used more CPU than the server; the harness may limit throughput");
        }
        jitNote(ServerStats.jitMillisBetween(a0, a1), s1 - s0, err);
        printResult(result, out);
    }

    /** The one stdout line of a run: {@code RESULT key=value ...} in the map's order. */
    static void printResult(Map<String, String> result, PrintStream out) {
        StringBuilder line = new StringBuilder("RESULT");
        result.forEach((k, v) -> line.append(' ').append(k).append('=').append(v));
        out.println(line);
        out.flush();
    }

    private static void progress(LongAdder ops, long t0, PrintStream err) {
        try {
            while (true) {
                TimeUnit.SECONDS.sleep(1);
                err.printf(Locale.ROOT, "  %.0f s: %d ops%n", (System.nanoTime() - t0) / 1e9, ops.sum());
            }
        } catch (InterruptedException e) {
            // the window is over
        }
    }

    /**
     * Warns when the server's JIT compilations took more than a tenth of the server's CPU time in the
     * window: compiler threads count as server CPU. Compilation time is elapsed time, so on busy
     * cores it overstates the CPU they used.
     */
    static void jitNote(long jitMillis, long serverCpuNanos, PrintStream err) {
        if (jitMillis >= 0 && serverCpuNanos > 0 && jitMillis * 1_000_000 > serverCpuNanos / 10) {
            err.printf(Locale.ROOT, "note: the server's JIT compilations took %d ms in the window, against %d ms "
                    + "of server CPU; a longer --warmup measures the steady state%n", jitMillis,
                    serverCpuNanos / 1_000_000);
        }
    }

    /**
     * A RESULT number: two decimals below 10 (a client's 0.85 µs per notification against Milo's 2.14 is a ratio
     * that one decimal would blur by a tenth), one above.
     */
    static String fmt(double v) {
        return String.format(Locale.ROOT, Math.abs(v) < 10 ? "%.2f" : "%.1f", v);
    }

    /** The harness JVM's process CPU, and the bytes allocated by client and harness threads. */
    static final class ClientUsage {

        /** The threads of raw sessions and of {@code --client ours}, and the harness's own. */
        static final List<String> RAW_THREADS = List.of("opcua-client-", "load-");

        private final ThreadAllocations threads = new ThreadAllocations();
        private final com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        private final List<String> clientThreads;

        ClientUsage() {
            this(RAW_THREADS);
        }

        /** @param clientThreads prefixes of the names of the threads whose allocations count as the client's */
        ClientUsage(List<String> clientThreads) {
            this.clientThreads = List.copyOf(clientThreads);
        }

        record Snapshot(long cpuNanos, Map<Long, ThreadAllocations.Sample> allocations, List<String> clientThreads) {

            /** Bytes the client and harness threads allocated since {@code start}. */
            long allocatedSince(Snapshot start) {
                return ThreadAllocations.between(start.allocations, allocations, this::isClient);
            }

            private boolean isClient(String name) {
                for (String prefix : clientThreads) {
                    if (name.startsWith(prefix)) {
                        return true;
                    }
                }
                return false;
            }

            /**
             * Bytes per operation allocated since {@code start} by every group of threads (names without their
             * trailing number), largest first, those counted as the client's marked with {@code *}: shows
             * whether a client allocates on threads the count misses.
             */
            String describeAllocations(Snapshot start, long ops) {
                Map<String, Long> byGroup = new java.util.TreeMap<>();
                allocations.forEach((id, sample) -> {
                    ThreadAllocations.Sample before = start.allocations.get(id);
                    long bytes = sample.bytes() - (before == null ? 0 : before.bytes());
                    if (bytes > 0) {
                        byGroup.merge(ThreadCpu.group(sample.name()), bytes, Long::sum);
                    }
                });
                StringBuilder text = new StringBuilder();
                byGroup.entrySet().stream()
                        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                        .filter(e -> e.getValue() / ops > 0)
                        .forEach(e -> text.append(text.length() == 0 ? "" : ", ").append(e.getKey())
                                .append(isClient(e.getKey()) ? "* " : " ").append(e.getValue() / ops));
                return text.length() == 0 ? "none" : text.toString();
            }
        }

        Snapshot snapshot() {
            return new Snapshot(os.getProcessCpuTime(), threads.snapshot(), clientThreads);
        }
    }
}
