package dev.opcua.benchmarks.load;

import dev.opcua.benchmarks.proc.ProcessMemory;
import dev.opcua.benchmarks.server.BenchAddressSpace;
import dev.opcua.benchmarks.server.ValueSimulator;
import dev.opcua.stack.client.transport.ClientResources;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * The {@code items} scenario: many data-change monitored items (Part 4, 5.12) on one server. Our bench server (or
 * Milo's) in a child JVM of an explicit heap, its GC log in a file, or the open62541 peer ({@code --server open62541},
 * no heap: its RSS per item instead), holds {@code --variables} variables; {@code
 * --sessions} sessions, one subscription each (Part 4, 5.13.2), create {@code --items-per-session} items each,
 * sampling {@code --sampling-ms} (1 s), queue {@code --queue} (1), in CreateMonitoredItems requests of at most the
 * server's MaxMonitoredItemsPerCall (Part 5, 6.3.11). The sessions are the harness's raw sessions ({@code --client
 * raw}), our {@code OpcUaClient}s ({@code --client ours}) or Eclipse Milo's ({@code --client milo}), one a session,
 * which split the items by that limit themselves, see {@link ItemsHolder}. The server changes the values itself, {@code --changes-per-s}
 * a second spread over the variables in order, as a device driver's source does; no Write request loads the path.
 *
 * <p>Phases: the server's footprint with no session; the sessions (footprint and the harness's heap again); the
 * items, created by {@value SessionsScenario#CONNECTS_IN_FLIGHT} sessions at a time, with a progress line every
 * {@value SessionsScenario#PROGRESS_S} s; publishing, until every item's first value arrived; the footprint with
 * every item idle (no value changes yet: the simulation is held until then), whose heap less that with the
 * sessions, over the items, is the heap per idle item; the changes, {@code --warmup}, the window of {@code
 * --duration} s, a grace period for the window's last changes, the verdict.
 *
 * <p>Verified per item: every value its variable took in the window was delivered (the values are numbered, so
 * a notification tells which change it carries), none twice, and no NotificationMessage sequence number is
 * missing (our client: none it could not recover, no notification dropped, no listener failed). Reported: create
 * time and rate, the server's heap per idle item, RSS, CPU per notification, the
 * latency from a change's source timestamp to its arrival (it includes the wait for the next sample and the next
 * publishing cycle), the client's heap per item (the harness's tallies and our client's record of each item) and
 * the server's longest GC pause from the sessions on (the collections the footprints ask for left out).
 */
final class ItemsScenario {

    /** How long publishing may take to deliver every item's first value. */
    private static final long FIRST_VALUES_TIMEOUT_S = 120;

    private ItemsScenario() {
    }

    static int run(ItemsOptions o, PrintStream out, PrintStream err) throws Exception {
        Path gcLog = Files.createTempFile("load-items-gc-", ".log");
        List<String> jvm = List.of("-Xmx" + o.serverHeap(), "-Xlog:gc,gc+phases,gc+cpu:file=" + gcLog,
                "-D" + ValueSimulator.HOLD_PROPERTY + "=true");
        try (ChildServer server = ChildServer.start(o.server(), o.open62541(), o.variables(), false, o.serverOptions(),
                jvm);
                ClientResources resources = ClientResources.create()) {
            err.println("server " + o.server() + " pid " + server.pid() + " at " + server.url() + ", log "
                    + server.log() + ", GC log " + gcLog);
            return measure(o, server, resources, gcLog, out, err) ? 0 : 1;
        }
    }

    private static boolean measure(ItemsOptions o, ChildServer server, ClientResources resources, Path gcLog,
            PrintStream out, PrintStream err) throws Exception {
        int n = o.sessions();
        long total = o.totalItems();
        WriteSequence values = WriteSequence.serverSide(BenchAddressSpace.SIMULATION_BASE, o.variables());
        SubMetrics metrics = new SubMetrics();
        ItemsHolder[] subscribers = new ItemsHolder[n];
        ItemsHolder.Opener opener = ItemsHolder.opener(o, server.url(), resources, values, metrics);
        ExecutorService workers = Executors.newFixedThreadPool(SessionsScenario.CONNECTS_IN_FLIGHT,
                SessionsScenario.named("load-items-"));
        try {
            Footprint empty = server.footprint();
            int startGcLines = GcPauses.lines(gcLog); // the start's pauses and this footprint's are not the run's

            AtomicInteger opened = new AtomicInteger();
            AtomicReference<Exception> failure = new AtomicReference<>();
            SessionsScenario.inParallel(workers, n, i -> {
                try {
                    subscribers[i] = opener.open();
                    opened.incrementAndGet();
                } catch (Exception e) {
                    failure.set(e);
                }
            }, () -> "sessions: " + opened.get() + " of " + n + " open", err);
            if (opened.get() < n) {
                throw new IllegalStateException(opened.get() + " of " + n + " sessions opened", failure.get());
            }
            int perCall = subscribers[0].perCall(o, err);
            Footprint sessions = server.footprint();
            long rssSessions = ProcessMemory.rssBytesOrUnknown(server.pid());
            long clientSessions = clientHeapAfterGc();

            // the items
            LongAdder created = new LongAdder();
            long createStart = System.nanoTime();
            SessionsScenario.inParallel(workers, n, i -> {
                try {
                    subscribers[i].subscribe(o, i, perCall, created::add);
                } catch (Exception e) {
                    failure.set(e);
                }
            }, () -> String.format(Locale.ROOT, "creating: %d of %d items, %.0f items/s", created.sum(), total,
                    created.sum() / SessionsScenario.seconds(createStart)), err);
            double createSeconds = SessionsScenario.seconds(createStart);
            if (created.sum() < total) {
                throw new IllegalStateException("created " + created.sum() + " of " + total + " items",
                        failure.get());
            }
            err.printf(Locale.ROOT, "created %d items in %.1f s: %.0f items/s, %d per call; revised: publishing %s ms,"
                    + " sampling %s ms%n", total, createSeconds, total / createSeconds, perCall,
                    LoadHarness.fmt(subscribers[0].revisedPublishingMs()),
                    LoadHarness.fmt(subscribers[0].revisedSamplingMs()));

            // publishing: every item's first value, then the items are idle
            CountDownLatch stopped = new CountDownLatch(n * 2);
            for (ItemsHolder s : subscribers) {
                s.startPublishing(stopped);
            }
            long firstValues = System.nanoTime();
            while (metrics.notifications() < total && SessionsScenario.seconds(firstValues) < FIRST_VALUES_TIMEOUT_S) {
                TimeUnit.MILLISECONDS.sleep(100);
            }
            err.printf(Locale.ROOT, "first values: %d of %d in %.1f s%n", metrics.notifications(), total,
                    SessionsScenario.seconds(firstValues));
            Footprint idle = server.footprint();
            long rssIdle = ProcessMemory.rssBytesOrUnknown(server.pid());
            long clientIdle = clientHeapAfterGc();

            // the changes
            server.startSimulation();
            server.stats(); // the probe's first use compiles code in the server: during the warmup, not the window
            TimeUnit.SECONDS.sleep(o.warmupS());
            Map<String, Long> serverCounts0 = serverCounts(server);
            ItemsHolder.ClientCounts clientCounts0 = ItemsHolder.ClientCounts.sum(subscribers);
            ItemsPublishSampler sampler = ItemsPublishSampler.start(subscribers);
            ChangeWindow window = ChangeWindow.run(server, values, metrics, o.durationS(),
                    subscribers[0].threadPrefixes(), err);
            long rssBusy = ProcessMemory.rssBytesOrUnknown(server.pid());
            // the window's last changes: sampled, queued and published within a few intervals
            TimeUnit.MILLISECONDS.sleep(Math.max(2000, 3L * Math.max(o.samplingMs(), o.publishingMs())));
            if (sampler != null) {
                sampler.close();
            }
            Map<String, Long> serverCounts1 = serverCounts(server);
            ItemsHolder.ClientCounts clientCounts1 = ItemsHolder.ClientCounts.sum(subscribers);
            metrics.phase.value = RequestChain.Phase.STOP;

            Verdict verdict = Verdict.of(subscribers);
            GcPauses pauses = o.jvmServer() ? GcPauses.read(gcLog, startGcLines) : null;
            Map<String, String> result = new LinkedHashMap<>();
            result.put("scenario", "items");
            result.put("server", o.server());
            result.put("client", subscribers[0].client());
            result.put("sessions", Integer.toString(n));
            result.put("items_per_session", Integer.toString(o.itemsPerSession()));
            result.put("items", Long.toString(total));
            result.put("variables", Integer.toString(o.variables()));
            result.put("sampling_ms", LoadHarness.fmt(subscribers[0].revisedSamplingMs()));
            result.put("publishing_ms", LoadHarness.fmt(subscribers[0].revisedPublishingMs()));
            result.put("queue", Integer.toString(o.queueSize()));
            result.put("per_call", Integer.toString(perCall));
            result.put("create_s", LoadHarness.fmt(createSeconds));
            result.put("items_per_s", LoadHarness.fmt(total / createSeconds));
            double seconds = window.seconds();
            result.put("changes_per_s", LoadHarness.fmt((values.windowTo() - values.windowFrom()) / seconds));
            result.put("duration_s", LoadHarness.fmt(seconds));
            long notifications = metrics.notifications();
            long perNotification = Math.max(1, notifications);
            result.put("notifications", Long.toString(notifications));
            result.put("notifications_per_s", LoadHarness.fmt(notifications / seconds));
            result.put("delivered", Long.toString(verdict.delivered()));
            result.put("expected", Long.toString(verdict.expected()));
            result.put("items_short", Long.toString(verdict.itemsShort()));
            result.put("duplicates", Long.toString(verdict.duplicates()));
            result.put("sequence_gaps", Long.toString(verdict.sequenceGaps()));
            result.put("errors", Long.toString(metrics.errorCount()));
            result.put("p50_ms", LoadHarness.fmt(verdict.latency().quantile(0.50) / 1e6));
            result.put("p99_ms", LoadHarness.fmt(verdict.latency().quantile(0.99) / 1e6));
            result.put("max_ms", LoadHarness.fmt(verdict.latency().max() / 1e6));
            result.put("server_heap_sessions_mb", ServerMemory.mb(heap(sessions)));
            result.put("server_heap_items_idle_mb", ServerMemory.mb(heap(idle)));
            result.put("server_heap_per_item_b", heap(sessions) < 0 || heap(idle) < 0 ? "n/a"
                    : Long.toString((idle.heapUsed() - sessions.heapUsed()) / total));
            result.put("server_heap_empty_mb", ServerMemory.mb(heap(empty)));
            result.put("server_rss_sessions_mb", ServerMemory.mb(rssSessions));
            result.put("server_rss_idle_mb", ServerMemory.mb(rssIdle));
            result.put("server_rss_per_item_b", rssPerItem(rssSessions, rssIdle, total));
            result.put("server_rss_mb", ServerMemory.mb(rssBusy));
            String serverCpu = window.serverCpuMicrosPer(notifications);
            result.put("server_cpu_us_per_op", serverCpu);
            result.put("server_cpu_ms_per_s", window.serverCpuMillisPerSecond());
            result.put("server_gc_pauses", pauses == null ? "n/a" : Integer.toString(pauses.pauses()));
            result.put("server_gc_max_pause_ms", pauses == null ? "n/a" : LoadHarness.fmt(pauses.maxMillis()));
            result.put("server_gc_p99_pause_ms", pauses == null ? "n/a" : LoadHarness.fmt(pauses.p99Millis()));
            result.put("server_gc_max_pause_cpu_ms", pauses == null || pauses.maxCpuMillis() < 0 ? "n/a"
                    : LoadHarness.fmt(pauses.maxCpuMillis()));
            result.put("client_heap_per_item_b", Long.toString((clientIdle - clientSessions) / total));
            result.put("client_cpu_us_per_op", LoadHarness.fmt((window.client1().cpuNanos()
                    - window.client0().cpuNanos()) / 1e3 / perNotification));
            result.put("client_alloc_b_per_op", Long.toString(window.client1().allocatedSince(window.client0())
                    / perNotification));
            // the window and its grace period: the server's subscriptions, our clients' Publish pipelines
            result.put("server_queue_overflows", countBetween(serverCounts0, serverCounts1, "queue_overflows"));
            result.put("server_late_cycles", countBetween(serverCounts0, serverCounts1, "late_cycles"));
            ItemsHolder.ClientCounts clientWindow = clientCounts0 == null ? null : clientCounts1.minus(clientCounts0);
            result.put("client_more_notifications", clientWindow == null ? "n/a"
                    : Long.toString(clientWindow.moreNotifications()));
            result.put("client_publish_emptied", clientWindow == null ? "n/a"
                    : Long.toString(clientWindow.pipelineEmptied()));
            result.put("client_publish_outstanding_min", sampler == null ? "n/a" : Integer.toString(sampler.min()));
            result.put("client_publish_outstanding_mean", sampler == null ? "n/a" : sampler.mean());
            result.put("client_publish_none_pct", sampler == null ? "n/a" : sampler.zeroPercent());
            result.put("client_max_stall_ms", sampler == null ? "n/a" : Long.toString(sampler.maxStallMillis()));
            boolean verified = verdict.complete() && metrics.errorCount() == 0;
            result.put("verified", Boolean.toString(verified));

            err.printf(Locale.ROOT, "%d items: %d notifications in %.1f s (%s/s); delivered %d of %d values, %d items "
                    + "short, %d duplicates, %d sequence numbers missing; %s%n", total, notifications, seconds,
                    result.get("notifications_per_s"), verdict.delivered(), verdict.expected(), verdict.itemsShort(),
                    verdict.duplicates(), verdict.sequenceGaps(),
                    verified ? "every change delivered" : "NOT every change delivered");
            err.printf(Locale.ROOT, "server: heap after GC %s MB empty, %s MB with sessions, %s MB with items idle"
                    + " (%s B per item); RSS %s MB with sessions, %s MB idle (%s B per item), %s MB under load; CPU %s"
                    + " us per notification; GC pauses %s, max %s ms, p99 %s ms, most CPU of one %s ms%n",
                    result.get("server_heap_empty_mb"),
                    result.get("server_heap_sessions_mb"), result.get("server_heap_items_idle_mb"),
                    result.get("server_heap_per_item_b"), result.get("server_rss_sessions_mb"),
                    result.get("server_rss_idle_mb"), result.get("server_rss_per_item_b"), result.get("server_rss_mb"),
                    serverCpu, result.get("server_gc_pauses"), result.get("server_gc_max_pause_ms"),
                    result.get("server_gc_p99_pause_ms"), result.get("server_gc_max_pause_cpu_ms"));
            metrics.errors.forEach((status, count) -> err.println("errors " + status + ": " + count.sum()));
            err.printf(Locale.ROOT, "server subscriptions in the window: %s values overwritten or discarded in item"
                    + " queues, %s publishing cycles late (no Publish request parked)%n",
                    result.get("server_queue_overflows"), result.get("server_late_cycles"));
            if (clientWindow != null) {
                err.printf(Locale.ROOT, "the clients in the window: %d responses with moreNotifications, %d times no"
                        + " Publish request outstanding after a response; outstanding per session min %s, mean %s,"
                        + " none in %s %% of samples; the harness stalled %s ms at most%n",
                        clientWindow.moreNotifications(),
                        clientWindow.pipelineEmptied(), result.get("client_publish_outstanding_min"),
                        result.get("client_publish_outstanding_mean"), result.get("client_publish_none_pct"),
                        result.get("client_max_stall_ms"));
            }
            if (clientCounts1 != null) {
                ItemsHolder.ClientCounts c = clientCounts1;
                err.printf(Locale.ROOT, "the clients counted %d notifications received (their listeners %d), %d"
                        + " messages republished, %d sequence numbers lost, %d notifications dropped, %d listener"
                        + " errors%n", c.received(), metrics.notificationsSinceStart(), c.republished(), c.lost(),
                        c.dropped(), c.listenerErrors());
            }
            if (!verdict.shortBySession().isEmpty()) {
                err.println("items short by session (the first " + Verdict.SHORT_SESSIONS_NAMED
                        + " sessions with any): "
                        + verdict.shortBySession());
            }
            LoadHarness.printResult(result, out);

            SessionsScenario.inParallel(workers, n, i -> {
                try {
                    subscribers[i].closeSession();
                } catch (Exception e) {
                    // the channel is closed either way
                }
            }, () -> "closing sessions", err);
            return verified;
        } finally {
            metrics.phase.value = RequestChain.Phase.STOP;
            workers.shutdownNow();
            for (ItemsHolder s : subscribers) {
                if (s != null) {
                    s.close();
                }
            }
            opener.close();
        }
    }

    /** The numbers of the server's STATS answer; empty when it does not answer. */
    private static Map<String, Long> serverCounts(ChildServer server) throws InterruptedException {
        String line = server.statsLine();
        return line == null ? Map.of() : Footprint.numbers(line);
    }

    /**
     * A STATS count's growth between two answers, or {@code n/a} when either lacks it (a server that does not tell).
     */
    static String countBetween(Map<String, Long> start, Map<String, Long> end, String key) {
        Long a = start.get(key);
        Long b = end.get(key);
        return a == null || b == null ? "n/a" : Long.toString(b - a);
    }

    /** The harness's heap in use after two collections, bytes. */
    private static long clientHeapAfterGc() {
        System.gc();
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static long heap(Footprint footprint) {
        return footprint == null ? -1 : footprint.heapUsed();
    }

    /**
     * The server's RSS with the items idle less that with the sessions, over the items, bytes; n/a when either is
     * unknown. The measure of a server without a heap probe (the open62541 peer, which gives freed memory back to
     * the system before each footprint); for a JVM it holds heap the collector has not given back as well.
     */
    static String rssPerItem(long rssSessions, long rssIdle, long items) {
        return rssSessions < 0 || rssIdle < 0 || items <= 0 ? "n/a" : Long.toString((rssIdle - rssSessions) / items);
    }

    /** What the items received against what their variables took in the window, over all sessions. */
    record Verdict(long delivered, long expected, long itemsShort, long duplicates, long sequenceGaps,
            LatencyHistogram latency, Map<Integer, Long> shortBySession) {

        /** Sessions named with their items short at most: whether a shortfall is spread or one session's. */
        private static final int SHORT_SESSIONS_NAMED = 10;

        static Verdict of(ItemsHolder[] subscribers) {
            long delivered = 0;
            long expected = 0;
            long itemsShort = 0;
            long duplicates = 0;
            long gaps = 0;
            LatencyHistogram latency = new LatencyHistogram();
            Map<Integer, Long> shortBySession = new LinkedHashMap<>();
            for (int i = 0; i < subscribers.length; i++) {
                ItemsHolder s = subscribers[i];
                gaps += s.losses();
                for (SubscriptionTally tally : s.tallies()) {
                    delivered += tally.delivered();
                    expected += tally.expected();
                    int sessionShort = tally.itemsShort();
                    itemsShort += sessionShort;
                    if (sessionShort > 0 && shortBySession.size() < SHORT_SESSIONS_NAMED) {
                        shortBySession.merge(i, (long) sessionShort, Long::sum);
                    }
                    duplicates += tally.duplicates();
                    gaps += tally.sequenceGaps();
                    tally.addLatencyTo(latency);
                }
            }
            return new Verdict(delivered, expected, itemsShort, duplicates, gaps, latency, shortBySession);
        }

        boolean complete() {
            return expected > 0 && delivered == expected && itemsShort == 0 && duplicates == 0 && sequenceGaps == 0;
        }
    }
}
