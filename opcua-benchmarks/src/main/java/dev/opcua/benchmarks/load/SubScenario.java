package dev.opcua.benchmarks.load;

import dev.opcua.benchmarks.server.BenchAddressSpace;
import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.MonitoredItemCreateRequest;
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadResponse;
import dev.opcua.stack.core.types.structured.ReadValueId;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The {@code sub} and {@code events} scenarios: {@code --sessions} subscriber sessions, each with
 * {@code --subscriptions} subscriptions (Part 4, 5.13) of {@code --items} monitored items (Part 4,
 * 5.12), and one more session whose {@link ValueWriter} feeds them. Every subscriber keeps {@code 2 +
 * subscriptions} Publish requests outstanding.
 * <ul>
 *   <li>{@code sub}: data-change items on the variables {@code Var.i}; the writer writes them, by
 *       default each once per publishing interval; with {@code --changes server} no writer writes: the
 *       server changes them itself at the same rate ({@code --simulate} of the bench servers, see
 *       {@link dev.opcua.benchmarks.server.ValueSimulator}), and the extra session only reads the
 *       server's count of changed values ({@code Bench.Simulated}) at the start and end of the window.
 *   <li>{@code events}: event items on the Server object with an EventFilter (see {@link ItemRequests});
 *       the writer calls the bench servers' {@code Emit}, {@value LoadOptions#DEFAULT_EVENT_RATE}
 *       events per second by default, and every event item gets every event.
 * </ul>
 *
 * <p>Measured over the window: notifications per second; the delivery ratio, distinct values (events)
 * of the window the items received (up to a grace period after it) over the values written to their
 * variables (the events emitted) in the window; latency from Write (Call) sent to notification received,
 * or with server-side changes from the value's source timestamp (wall clock, same machine) to notification
 * received, which for {@code sub} includes waiting for the next sample and the next publishing cycle;
 * keep-alives; errors by service and status; server CPU and allocated bytes, and client CPU, per
 * notification. Server CPU includes handling the writer's requests, or with server-side changes the
 * simulation's thread (one DataValue stored per change). Data-change items get a queue
 * for the samples of one publishing interval and one more; a write rate above one write per variable
 * and sampling interval loses values by design of sampling.
 */
final class SubScenario {

    /** Send times kept for latency: 30 s at the expected rate, within 64 Ki .. 8 Mi entries. */
    private static final long RING_SECONDS = 30;

    /** Thread names of the writer's raw session and of the writer with a client under test: not the client's. */
    static final String WRITER_THREADS = "sub-writer";

    /** Seconds between the rehearsed probes and the window. */
    private static final int PROBES_SETTLE_S = 2;
    /** Enough for the probes' per-thread code to pass the JIT's thresholds (a few ms of the warm-up each). */
    private static final int PROBE_REHEARSALS = 20;

    private SubScenario() {
    }

    /**
     * @param resources the raw sessions' threads: the subscribers' and the writer's with {@code --client raw}, only
     *        the writer's with a client under test
     * @param security the raw sessions' security; null with a client under test: the writer's session, if one is
     *        needed, finds it when it opens
     * @param clients the client under test ({@code --client ours|milo}, {@code sub} only), whose subscription
     *        API the subscribers use; null for raw subscriber sessions
     */
    static void run(LoadOptions o, String url, ChildServer server, ClientResources resources, LoadSecurity security,
            LoadClients clients, PrintStream out, PrintStream err) throws Exception {
        boolean events = o.scenario().equals("events");
        // every event reaches every event item: one slot for all
        int slots = events ? 1 : o.monitoredNodes();
        double expectedRate = rate(o, slots, o.publishingMs());
        int ring = (int) Math.max(1 << 16, Math.min(1 << 23, expectedRate * RING_SECONDS));
        // a random base per run: values a server still holds from an earlier run are recognised as foreign
        long base = (1L << 40) + ThreadLocalRandom.current().nextLong(1L << 40);
        boolean serverChanges = o.serverChanges();
        WriteSequence values = serverChanges ? WriteSequence.serverSide(BenchAddressSpace.SIMULATION_BASE, slots)
                : new WriteSequence(base, slots, ring);
        SubMetrics metrics = new SubMetrics();
        // raw subscriber sessions (--client raw), or the client's subscribers: one of the two stays empty
        List<SubscriberSession> rawSubscribers = new ArrayList<>();
        List<LoadSubscriber> clientSubscribers = new ArrayList<>();
        List<Subscriber> subscribers = new ArrayList<>();
        List<LoadSession> sessions = new ArrayList<>();
        ValueWriter writer = null;
        try {
            for (int i = 0; i < o.sessions(); i++) {
                if (clients != null) {
                    clientSubscribers.add(clients.subscriber(metrics));
                } else {
                    LoadSession session = LoadSession.open(url, resources, security);
                    sessions.add(session);
                    rawSubscribers.add(new SubscriberSession(session, values, metrics, resources.timer()));
                }
            }
            subscribers.addAll(clients != null ? clientSubscribers : rawSubscribers);
            // the extra session: the writer's, or the one that reads the simulated count. A client under test with
            // server-side changes of a child server needs none (the clients resolve the namespace, the server's
            // stats tell the count): no raw session's threads run beside the client's then
            ExtraSession extra = new ExtraSession(url, resources, security, o, sessions);
            NodeId[] nodeIds = new NodeId[o.nodes()];
            if (clients == null || !serverChanges || server == null) {
                int ns = extra.ns();
                for (int i = 0; i < nodeIds.length; i++) {
                    nodeIds[i] = NodeId.string(ns, BenchAddressSpace.variableId(i));
                }
            }

            long setup = System.nanoTime();
            long subscription = 0;
            for (int i = 0; i < o.sessions(); i++) {
                for (int j = 0; j < o.subscriptions(); j++, subscription++) {
                    MonitoredItemCreateRequest[] items = new MonitoredItemCreateRequest[o.items()];
                    int[] itemSlots = new int[o.items()];
                    for (int k = 0; k < items.length; k++) {
                        if (events) {
                            items[k] = ItemRequests.event(k, o.publishingMs(), expectedRate);
                        } else {
                            itemSlots[k] = (int) ((subscription * o.items() + k) % o.nodes());
                            items[k] = ItemRequests.dataChange(nodeIds[itemSlots[k]], k, o.publishingMs(),
                                    o.samplingMs());
                        }
                    }
                    if (clients != null) {
                        // the same items as the raw path's: variables, sampling interval, queue, discard oldest
                        clientSubscribers.get(i).subscribe(o.publishingMs(), o.samplingMs(),
                                ItemRequests.queueSize(o.publishingMs(), o.samplingMs()), itemSlots,
                                new SubscriptionTally(subscription, itemSlots, values));
                    } else {
                        rawSubscribers.get(i).subscribe(o.publishingMs(), items, itemSlots);
                    }
                }
            }
            Subscriber first = subscribers.get(0);
            double publishingMs = first.revisedPublishingMs();
            double rate = serverChanges ? o.changesPerSecond() : rate(o, slots, publishingMs);
            long tickNanos = Math.max(TimeUnit.MILLISECONDS.toNanos(1), (long) (publishingMs * 1e6 / 10));
            err.printf(Locale.ROOT, "created %d subscriptions of %d %s items in %d ms; revised: publishing %s ms, "
                    + "sampling %s ms, keep-alive %d ms; %s %s %s/s%n", subscription, o.items(),
                    events ? "event" : "data-change", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - setup),
                    LoadHarness.fmt(publishingMs), LoadHarness.fmt(first.revisedSamplingMs()), first.keepAliveMs(),
                    events ? "emitting" : serverChanges ? "the server changes" : "writing", LoadHarness.fmt(rate),
                    events ? "events" : "values to " + slots + " variables");
            err.printf(Locale.ROOT, "%s: %d sessions x %d subscriptions x %d items, security %s, warmup %d s, "
                    + "measuring %d s%n", o.scenario(), o.sessions(), o.subscriptions(), o.items(), o.securityName(),
                    o.warmupS(), o.durationS());

            Thread writerThread = null;
            if (!serverChanges) {
                Batches batches = events ? new EmitBatches(extra.session(), extra.ns(), values, metrics)
                        : new WriteBatches(extra.session(), Arrays.copyOf(nodeIds, slots), values, metrics);
                writer = new ValueWriter(batches, values, rate, tickNanos);
            }
            // a client's subscribers publish since their subscriptions exist, as many Publish requests as it keeps
            int outstanding = 2 + o.subscriptions();
            CountDownLatch stopped = new CountDownLatch(rawSubscribers.size() * outstanding);
            rawSubscribers.forEach(s -> s.startPublishing(outstanding, stopped));
            if (writer != null) {
                // with a client under test the writer is load, not client: a name outside load-*
                writerThread = new Thread(writer, clients == null ? "load-sub-writer" : WRITER_THREADS + "-values");
                writerThread.setDaemon(true);
                writerThread.start();
            }
            if (server != null) {
                server.stats(); // the probe's first use compiles code in the server: during the warmup, not the window
            }
            List<String> clientThreads = clients == null ? LoadHarness.ClientUsage.RAW_THREADS
                    : clients.threadPrefixes();
            LoadHarness.ClientUsage client = new LoadHarness.ClientUsage(clientThreads);
            TimeUnit.SECONDS.sleep(Math.max(0, o.warmupS() - PROBES_SETTLE_S));
            rehearseProbes(server, client, metrics);
            TimeUnit.SECONDS.sleep(Math.min(o.warmupS(), PROBES_SETTLE_S));
            // a bench server child tells its simulated count with its stats; another server is asked with a Read
            // (outside the window, but the first Int64 it encodes in a while may recompile its encoder in it)
            long simulatedFrom = serverChanges && server == null ? simulatedCount(extra) : 0;

            long[] counts0 = clientCounts(clientSubscribers);
            ServerStats a0 = server == null ? null : server.stats();
            if (serverChanges && server != null) {
                simulatedFrom = simulatedFromStats(a0, extra);
            }
            long s0 = server == null ? -1 : server.cpuNanos();
            Map<Long, ThreadCpu.Sample> threads0 = server == null ? Map.of() : ThreadCpu.snapshot(server.pid());
            // the client's window inside the server's: probing the server (its stats, its threads in /proc) costs
            // this JVM's main thread a few ms that are not the client's work (0.1 us per notification at 10,000/s)
            Map<Long, ThreadCpu.Sample> own0 = ThreadCpu.snapshot(ProcessHandle.current().pid());
            LoadHarness.ClientUsage.Snapshot c0 = client.snapshot();
            long t0 = System.nanoTime();
            if (serverChanges) {
                values.openWindowAt(simulatedFrom);
            } else {
                values.openWindow();
            }
            metrics.openWindow();
            Thread progress = new Thread(() -> progress(metrics, t0, err), "load-progress");
            progress.setDaemon(true);
            progress.start();
            TimeUnit.SECONDS.sleep(o.durationS());
            metrics.closeWindow(RequestChain.Phase.DRAIN);
            if (!serverChanges) {
                values.closeWindow();
            }
            long elapsed = System.nanoTime() - t0;
            LoadHarness.ClientUsage.Snapshot c1 = client.snapshot();
            Map<String, Long> ownThreads = ThreadCpu.between(own0, ThreadCpu.snapshot(ProcessHandle.current().pid()));
            long s1 = server == null ? -1 : server.cpuNanos();
            long rss = ServerMemory.rssNow(server);
            Map<String, Long> threads = server == null ? Map.of()
                    : ThreadCpu.between(threads0, ThreadCpu.snapshot(server.pid()));
            long[] counts1 = clientCounts(clientSubscribers);
            // what the client counted itself in the window: its keep-alives, and notifications it lost or dropped
            metrics.keepAlives.add(counts1[0] - counts0[0]);
            if (counts1[1] > counts0[1]) {
                metrics.errors.computeIfAbsent("Client:lost_or_dropped_notifications", k -> new LongAdder())
                        .add(counts1[1] - counts0[1]);
            }
            ServerStats a1 = server == null ? null : server.stats();
            if (serverChanges) {
                // after the probes: a Read costs the server a little, outside the window
                long simulatedTo = server != null ? simulatedFromStats(a1, extra) : simulatedCount(extra);
                if (simulatedTo <= simulatedFrom) {
                    throw new IllegalStateException("the server changed no value in the window (Bench.Simulated "
                            + simulatedFrom + " .. " + simulatedTo + "): --changes server needs a bench server "
                            + "started with --simulate " + slots + "," + o.changesPerSecond());
                }
                values.closeWindowAt(simulatedTo);
            }
            progress.interrupt();

            // late notifications of values written in the window still count for delivery and latency
            TimeUnit.MILLISECONDS.sleep((long) Math.max(1000, 4 * Math.max(publishingMs, first.revisedSamplingMs())));
            metrics.phase.value = RequestChain.Phase.STOP;
            if (writer != null) {
                writer.stop();
                writerThread.join(TimeUnit.SECONDS.toMillis(5));
            }
            if (extra.opened() != null) {
                closeQuietly(extra.opened(), err);
            }
            // closing the sessions deletes their subscriptions and answers the parked Publish requests
            for (SubscriberSession subscriber : rawSubscribers) {
                closeQuietly(subscriber.session(), err);
            }
            for (LoadSubscriber subscriber : clientSubscribers) {
                try {
                    subscriber.disconnect();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (Exception e) {
                    err.println("warning: disconnecting a subscriber failed: " + e);
                }
            }
            if (!stopped.await(first.keepAliveMs() + 10_000, TimeUnit.MILLISECONDS)) {
                err.println("warning: " + stopped.getCount() + " Publish requests still outstanding");
            }
            ServerMemory memory = ServerMemory.after(server, rss);

            report(o, metrics, values, subscribers, writer, elapsed, c0, c1, s0, s1, a0, a1, threads, ownThreads,
                    clientThreads, publishingMs, first.revisedSamplingMs(), memory, out, err);
        } finally {
            // after a failure too: no Publish is sent again, nothing more is written
            metrics.phase.value = RequestChain.Phase.STOP;
            if (writer != null) {
                writer.stop();
            }
            for (LoadSession session : sessions) {
                session.close();
            }
            for (LoadSubscriber subscriber : clientSubscribers) {
                subscriber.close();
            }
        }
    }

    /** The raw session besides the subscribers, opened when first needed; closed with {@code sessions}. */
    private static final class ExtraSession {

        private final String url;
        private final ClientResources resources;
        private final LoadOptions o;
        private final List<LoadSession> sessions;
        private LoadSecurity security;
        private LoadSession session;
        private int ns;

        /** @param security null: found when the session is opened (GetEndpoints of a secured run) */
        ExtraSession(String url, ClientResources resources, LoadSecurity security, LoadOptions o,
                List<LoadSession> sessions) {
            this.url = url;
            this.resources = resources;
            this.security = security;
            this.o = o;
            this.sessions = sessions;
        }

        LoadSession session() throws Exception {
            if (session == null) {
                if (security == null) {
                    security = LoadSecurity.of(o.security(), url, resources);
                }
                LoadSession opened = LoadSession.open(url, resources, security);
                sessions.add(opened);
                ns = opened.namespaceIndex(o.namespace());
                session = opened;
            }
            return session;
        }

        /** The index of the bench namespace, from the server's NamespaceArray. */
        int ns() throws Exception {
            session();
            return ns;
        }

        /** The session, or null when none was needed. */
        LoadSession opened() {
            return session;
        }
    }

    /** Keep-alives and lost or dropped notifications the client subscribers counted so far, all together. */
    private static long[] clientCounts(List<LoadSubscriber> subscribers) {
        long[] counts = new long[2];
        for (LoadSubscriber subscriber : subscribers) {
            counts[0] += subscriber.keepAlives();
            counts[1] += subscriber.losses();
        }
        return counts;
    }

    /** The simulated count of a stats answer; a Read when the server's probe does not tell it. */
    private static long simulatedFromStats(ServerStats stats, ExtraSession extra) throws Exception {
        return stats.simulatedValues() >= 0 ? stats.simulatedValues() : simulatedCount(extra);
    }

    /** The server's count of values its simulation set ({@code Bench.Simulated}). */
    private static long simulatedCount(ExtraSession extra) throws Exception {
        LoadSession session = extra.session();
        NodeId simulated = NodeId.string(extra.ns(), BenchAddressSpace.SIMULATED);
        ReadResponse response = session.request(new ReadRequest(session.header(), 0, TimestampsToReturn.Neither,
                new ReadValueId[] {new ReadValueId(simulated, AttributeIds.Value, null, QualifiedName.NULL)}),
                ReadResponse.class).get(10, TimeUnit.SECONDS);
        DataValue[] results = response.results();
        if (results == null || results.length != 1 || !(results[0].value() != null
                && results[0].value().value() instanceof Long count)) {
            throw new IllegalStateException("reading " + simulated + " gave no Int64: " + (results == null
                    || results.length == 0 ? "no result" : results[0].statusCode()));
        }
        return count;
    }

    /** Values (events) per second: {@code --write-rate}, or the scenario's default. */
    private static double rate(LoadOptions o, int slots, double publishingMs) {
        if (o.writeRate() > 0) {
            return o.writeRate();
        }
        return o.scenario().equals("events") ? LoadOptions.DEFAULT_EVENT_RATE : slots * 1000.0 / publishingMs;
    }

    private static void report(LoadOptions o, SubMetrics metrics, WriteSequence values,
            List<Subscriber> subscribers, ValueWriter writer, long elapsed, LoadHarness.ClientUsage.Snapshot c0,
            LoadHarness.ClientUsage.Snapshot c1, long s0, long s1, ServerStats a0, ServerStats a1,
            Map<String, Long> serverThreads, Map<String, Long> ownThreads, List<String> clientThreads,
            double publishingMs, double samplingMs, ServerMemory memory, PrintStream out, PrintStream err) {
        LatencyHistogram latency = new LatencyHistogram();
        long delivered = 0;
        long expected = 0;
        long foreign = 0;
        for (Subscriber subscriber : subscribers) {
            for (SubscriptionTally tally : subscriber.tallies()) {
                delivered += tally.delivered();
                expected += tally.expected();
                foreign += tally.foreign();
                tally.addLatencyTo(latency);
            }
        }
        double seconds = elapsed / 1e9;
        long notifications = metrics.notifications();
        long perNotification = Math.max(1, notifications);
        // the server process's CPU in the window, all threads; -1 when /proc could not tell
        long serverNanos = s0 < 0 || s1 < 0 ? -1 : s1 - s0;
        String serverCpu = serverNanos < 0 ? "n/a" : LoadHarness.fmt(serverNanos / 1e3 / perNotification);
        String serverAlloc = a0 == null || a1 == null ? "n/a"
                : Long.toString(Math.max(0, a1.allocatedBytes() - a0.allocatedBytes()) / perNotification);
        String clientCpu = LoadHarness.fmt((c1.cpuNanos() - c0.cpuNanos()) / 1e3 / perNotification);
        String clientAlloc = Long.toString(c1.allocatedSince(c0) / perNotification);
        // the CPU of the client's and the harness's threads alone (not GC, JIT, a writer), from /proc
        String clientThreadsCpu = ownThreads.isEmpty() ? "n/a"
                : LoadHarness.fmt(ThreadCpu.matchingNanos(ownThreads, clientThreads) / 1e3 / perNotification);
        double writesPerS = (values.windowTo() - values.windowFrom()) / seconds;
        String ratio = expected == 0 ? "n/a" : String.format(Locale.ROOT, "%.4f", (double) delivered / expected);

        Map<String, String> result = new LinkedHashMap<>();
        result.put("scenario", o.scenario());
        result.put("server", o.server() == null ? "url" : o.server());
        result.put("client", o.clientName());
        result.put("security", o.securityName());
        result.put("sessions", Integer.toString(o.sessions()));
        result.put("subscriptions", Integer.toString(o.subscriptions()));
        result.put("items", Integer.toString(o.items()));
        result.put("monitored_items", Long.toString(o.monitoredItems()));
        result.put("publishing_ms", LoadHarness.fmt(publishingMs));
        result.put("sampling_ms", LoadHarness.fmt(samplingMs));
        if (o.scenario().equals("sub")) {
            result.put("changes", o.serverChanges() ? "server" : "writer");
        }
        result.put(o.scenario().equals("events") ? "emitted_per_s" : o.serverChanges() ? "changes_per_s"
                : "writes_per_s", LoadHarness.fmt(writesPerS));
        result.put("duration_s", LoadHarness.fmt(seconds));
        result.put("notifications", Long.toString(notifications));
        result.put("notifications_per_s", LoadHarness.fmt(notifications / seconds));
        result.put("delivery_ratio", ratio);
        result.put("p50_us", LoadHarness.fmt(latency.quantile(0.50) / 1e3));
        result.put("p90_us", LoadHarness.fmt(latency.quantile(0.90) / 1e3));
        result.put("p99_us", LoadHarness.fmt(latency.quantile(0.99) / 1e3));
        result.put("max_us", LoadHarness.fmt(latency.max() / 1e3));
        result.put("keepalives", Long.toString(metrics.keepAlives.sum()));
        result.put("errors", Long.toString(metrics.errorCount()));
        result.put("server_cpu_us_per_notification", serverCpu);
        result.put("server_alloc_b_per_notification", serverAlloc);
        // the bench server's own load (simulation, counter, probe) and its JIT compilers, per thread from /proc:
        // parts of server CPU; what remains of the process's CPU (threads that ended in the window included) is
        // the server's work on the notification path
        String benchCpu = "n/a";
        String jitCpu = "n/a";
        String pathCpu = "n/a";
        if (!serverThreads.isEmpty() && serverNanos >= 0) {
            long bench = ThreadCpu.benchNanos(serverThreads);
            long jit = ThreadCpu.jitNanos(serverThreads);
            benchCpu = LoadHarness.fmt(bench / 1e3 / perNotification);
            jitCpu = LoadHarness.fmt(jit / 1e3 / perNotification);
            pathCpu = LoadHarness.fmt(Math.max(0, serverNanos - bench - jit) / 1e3 / perNotification);
        }
        result.put("server_bench_cpu_us_per_notification", benchCpu);
        result.put("server_jit_cpu_us_per_notification", jitCpu);
        result.put("server_path_cpu_us_per_notification", pathCpu);
        long jitMillis = ServerStats.jitMillisBetween(a0, a1);
        result.put("server_jit_ms", jitMillis < 0 ? "n/a" : Long.toString(jitMillis));
        result.put("client_cpu_us_per_notification", clientCpu);
        result.put("client_alloc_b_per_notification", clientAlloc);
        result.put("client_threads_cpu_us_per_notification", clientThreadsCpu);
        // the harness JVM's JIT compilers in the window: part of client CPU, as a longer warm-up shrinks it
        result.put("client_jit_cpu_us_per_notification", ownThreads.isEmpty() ? "n/a"
                : LoadHarness.fmt(ThreadCpu.jitNanos(ownThreads) / 1e3 / perNotification));
        // one notification is the operation, so perf/ab.sh of opcua-benchmarks summarises this scenario as the others
        result.put("ops", Long.toString(notifications));
        result.put("ops_per_s", result.get("notifications_per_s"));
        result.put("server_cpu_us_per_op", serverCpu);
        result.put("server_path_cpu_us_per_op", pathCpu);
        result.put("server_alloc_b_per_op", serverAlloc);
        result.put("client_cpu_us_per_op", clientCpu);
        result.put("client_alloc_b_per_op", clientAlloc);
        memory.putInto(result);

        err.printf(Locale.ROOT, "%s: %d notifications in %.2f s = %s/s, %s %s/s; delivered %d of %d values (%s), "
                + "%d foreign; latency us p50 %s p90 %s p99 %s max %s; keep-alives %s%n", o.securityName(),
                notifications, seconds, result.get("notifications_per_s"), LoadHarness.fmt(writesPerS),
                o.serverChanges() ? "changed" : "sent", delivered,
                expected, ratio, foreign, result.get("p50_us"), result.get("p90_us"), result.get("p99_us"),
                result.get("max_us"), result.get("keepalives"));
        err.printf(Locale.ROOT, "per notification: server CPU %s us, server alloc %s B, client CPU %s us (its "
                + "threads %s us), client alloc %s B%n", serverCpu, serverAlloc, clientCpu, clientThreadsCpu,
                clientAlloc);
        err.println("client allocation by thread in the window, B per notification (* counted as the client's): "
                + c1.describeAllocations(c0, perNotification));
        if (!ownThreads.isEmpty()) {
            err.println("harness threads, CPU ms per s: " + ThreadCpu.describe(ownThreads, seconds));
        }
        if (!serverThreads.isEmpty()) {
            err.println("server threads, CPU ms per s: " + ThreadCpu.describe(serverThreads, seconds));
            if (serverNanos >= 0) {
                long ended = serverNanos - ThreadCpu.totalNanos(serverThreads);
                err.printf(Locale.ROOT, "server threads that ended in the window (process CPU less the live threads'): "
                        + "%.1f ms per s%n", Math.max(0, ended) / 1e6 / seconds);
            }
        }
        metrics.errors.forEach((status, count) -> err.println("errors " + status + ": " + count.sum()));
        LoadHarness.jitNote(jitMillis, s1 - s0, err);
        if (writer != null && writer.skippedTicks() > 0) {
            err.println("note: the writer skipped " + writer.skippedTicks() + " ticks with "
                    + ValueWriter.MAX_OUTSTANDING + " requests unanswered; the rate may be below the target");
        }
        LoadHarness.printResult(result, out);
    }

    private static void closeQuietly(LoadSession session, PrintStream err) {
        try {
            session.closeSessionAndChannel();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            err.println("warning: closing a session failed: " + e);
        }
    }

    /**
     * Runs the window's probes of this JVM (its threads in /proc, its CPU and allocations) and of the server, and
     * builds a progress line, a few times, {@link #PROBES_SETTLE_S} before the window opens: the JIT compiles the
     * code they run once it is warm, and that compiling belongs to the warm-up, not to the client's window.
     */
    private static void rehearseProbes(ChildServer server, LoadHarness.ClientUsage client, SubMetrics metrics) {
        long pid = ProcessHandle.current().pid();
        for (int i = 0; i < PROBE_REHEARSALS; i++) {
            if (server != null) {
                server.cpuNanos();
                ThreadCpu.snapshot(server.pid());
            }
            ThreadCpu.between(ThreadCpu.snapshot(pid), ThreadCpu.snapshot(pid));
            client.snapshot();
            progressLine(metrics, System.nanoTime());
        }
    }

    /** Prints the window's progress once a second. */
    private static void progress(SubMetrics metrics, long t0, PrintStream err) {
        try {
            while (true) {
                TimeUnit.SECONDS.sleep(1);
                err.println(progressLine(metrics, t0));
            }
        } catch (InterruptedException e) {
            // the window is over
        }
    }

    /** The progress line; its first string concatenation links a call site (ms of this JVM): rehearsed too. */
    private static String progressLine(SubMetrics metrics, long t0) {
        return "  " + Math.round((System.nanoTime() - t0) / 1e9) + " s: " + metrics.notifications()
                + " notifications, " + metrics.keepAlives.sum() + " keep-alives";
    }
}
