package dev.opcua.benchmarks.load;

import dev.opcua.benchmarks.proc.ProcessMemory;
import dev.opcua.benchmarks.server.BenchAddressSpace;
import dev.opcua.stack.client.session.SessionOptions;
import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.structured.MonitoredItemCreateRequest;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * The {@code sessions} scenario: {@code --sessions} concurrent sessions (Part 4, 5.6), each on
 * its own secure channel of the {@code --security}/{@code --policy} given, each with {@code --subscriptions} (1)
 * subscription (Part 4, 5.13) of {@code --items} (10) data-change items at {@code --publishing-ms} (1,000); our
 * bench server in a child JVM changes the monitored variables itself ({@code --simulate}, each once per
 * publishing interval) and admits the sessions ({@code --max-sessions}).
 *
 * <p>Phases: the footprint of the server with no session (heap after a full collection, threads, RSS, open
 * files); the ramp-up, {@value #CONNECTS_IN_FLIGHT} handshakes in flight at a time (paced by their answers, so
 * that none waits long enough to time out) with progress every {@value #PROGRESS_S} s; the footprint with every
 * session idle, whose heap less the first, divided by the sessions, is the heap per idle session; the
 * subscriptions; {@code --warmup}; the window of {@code --duration} s; a grace period for the window's last
 * changes; the footprint with every session subscribed; closing.
 *
 * <p>It verifies that every session received every change of its items' variables made in the window
 * (delivered equals expected, per session), and that no subscription's NotificationMessage sequence numbers
 * (Part 4, 7.25) have a gap; it reports the connect rate, server CPU per notification, heap per idle session,
 * RSS, threads and the client's cost. The RESULT line's {@code verified=true} says that all of it held.
 */
final class SessionsScenario {

    /**
     * Handshakes in flight at once: enough to keep both processes busy (RSA on one side while the other
     * answers), few enough that a handshake never waits behind thousands of others and times out.
     */
    static final int CONNECTS_IN_FLIGHT = 16;
    /** Seconds between progress lines while the sessions ramp up or subscribe. */
    static final int PROGRESS_S = 5;
    /** Attempts per session before the ramp-up gives it up (a refused or timed-out handshake is retried). */
    private static final int ATTEMPTS = 3;
    /**
     * Session timeout the sessions ask for: the ramp-up of thousands of secure sessions takes minutes, in which
     * the first ones send nothing; the harness's usual two minutes would let the server drop them.
     */
    static final Duration SESSION_TIMEOUT = Duration.ofMinutes(30);

    private SessionsScenario() {
    }

    static void run(LoadOptions o, String url, ChildServer server, ClientResources resources, LoadSecurity security,
            PrintStream out, PrintStream err) throws Exception {
        int n = o.sessions();
        int slots = o.monitoredNodes();
        WriteSequence values = WriteSequence.serverSide(BenchAddressSpace.SIMULATION_BASE, slots);
        SubMetrics metrics = new SubMetrics();
        SessionOptions sessionOptions = security.session().toBuilder().sessionTimeout(SESSION_TIMEOUT).build();
        SubscriberSession[] subscribers = new SubscriberSession[n];
        ExecutorService connectors = Executors.newFixedThreadPool(CONNECTS_IN_FLIGHT, named("load-connect-"));
        try {
            Footprint empty = server.footprint();
            long rssEmpty = ProcessMemory.rssBytesOrUnknown(server.pid());

            // ramp-up
            long rampStart = System.nanoTime();
            LongAdder connectFailures = new LongAdder();
            AtomicReference<Exception> lastFailure = new AtomicReference<>();
            AtomicInteger opened = new AtomicInteger();
            inParallel(connectors, n, i -> {
                for (int attempt = 1; ; attempt++) {
                    try {
                        LoadSession session = LoadSession.open(url, resources, security, sessionOptions);
                        subscribers[i] = new SubscriberSession(session, values, metrics, resources.timer());
                        opened.incrementAndGet();
                        return;
                    } catch (Exception e) {
                        connectFailures.increment();
                        lastFailure.set(e);
                        if (attempt == ATTEMPTS) {
                            return;
                        }
                    }
                }
            }, () -> String.format(Locale.ROOT, "ramp-up: %d of %d sessions open, %.1f/s, %d failed handshakes",
                    opened.get(), n, opened.get() / seconds(rampStart), connectFailures.sum()), err);
            double rampSeconds = seconds(rampStart);
            int open = opened.get();
            err.printf(Locale.ROOT, "opened %d of %d sessions (%s) in %.1f s: %.1f sessions/s, %d failed handshakes%s%n",
                    open, n, o.securityName(), rampSeconds, open / rampSeconds, connectFailures.sum(),
                    lastFailure.get() == null ? "" : ", last: " + lastFailure.get());
            if (open == 0) {
                throw new IllegalStateException("no session opened", lastFailure.get());
            }
            Footprint idle = server.footprint();
            long rssIdle = ProcessMemory.rssBytesOrUnknown(server.pid());

            // one subscription of M items per session
            SubscriberSession first = firstOpen(subscribers);
            int ns = first.session().namespaceIndex(o.namespace());
            long subscribeStart = System.nanoTime();
            AtomicInteger subscribed = new AtomicInteger();
            LongAdder subscribeFailures = new LongAdder();
            inParallel(connectors, n, i -> {
                if (subscribers[i] == null) {
                    return;
                }
                for (int j = 0; j < o.subscriptions(); j++) {
                    long subscription = (long) i * o.subscriptions() + j;
                    MonitoredItemCreateRequest[] items = new MonitoredItemCreateRequest[o.items()];
                    int[] itemSlots = new int[o.items()];
                    for (int k = 0; k < items.length; k++) {
                        itemSlots[k] = (int) ((subscription * o.items() + k) % o.nodes());
                        items[k] = ItemRequests.dataChange(NodeId.string(ns, BenchAddressSpace.variableId(itemSlots[k])),
                                k, o.publishingMs(), o.samplingMs());
                    }
                    try {
                        subscribers[i].subscribe(o.publishingMs(), items, itemSlots);
                    } catch (Exception e) {
                        subscribeFailures.increment();
                        lastFailure.set(e);
                        return;
                    }
                }
                subscribed.incrementAndGet();
            }, () -> String.format(Locale.ROOT, "subscribing: %d of %d sessions", subscribed.get(), open), err);
            err.printf(Locale.ROOT, "subscribed %d sessions x %d subscriptions x %d items in %.1f s; revised: "
                    + "publishing %s ms, sampling %s ms, keep-alive %d ms; the server changes %d values/s on %d "
                    + "variables%n", subscribed.get(), o.subscriptions(), o.items(), seconds(subscribeStart),
                    LoadHarness.fmt(first.revisedPublishingMs()), LoadHarness.fmt(first.revisedSamplingMs()),
                    first.keepAliveMs(), o.changesPerSecond(), slots);

            int outstanding = 1 + o.subscriptions();
            CountDownLatch stopped = new CountDownLatch(open * outstanding);
            for (SubscriberSession s : subscribers) {
                if (s != null) {
                    s.startPublishing(outstanding, stopped);
                }
            }
            server.stats(); // the probe's first use compiles code in the server: during the warmup, not the window
            TimeUnit.SECONDS.sleep(o.warmupS());

            ChangeWindow window = ChangeWindow.run(server, values, metrics, o.durationS(), err);
            // the window's last changes: sampled, queued and published within two publishing intervals
            TimeUnit.MILLISECONDS.sleep((long) Math.max(2000, 3 * first.revisedPublishingMs()));
            Footprint busy = server.footprint();
            long rssBusy = ProcessMemory.rssBytesOrUnknown(server.pid());
            metrics.phase.value = RequestChain.Phase.STOP;

            Verdict verdict = verify(subscribers, err);
            report(o, n, open, rampSeconds, connectFailures.sum(), subscribeFailures.sum(), first.revisedSamplingMs(),
                    metrics, verdict, window, empty, idle, busy, rssEmpty, rssIdle, rssBusy, out, err);

            // closing the sessions deletes their subscriptions and answers the parked Publish requests
            inParallel(connectors, n, i -> {
                if (subscribers[i] != null) {
                    try {
                        subscribers[i].session().closeSessionAndChannel();
                    } catch (Exception e) {
                        // the channel is closed either way; the server drops the session on its timeout
                    }
                }
            }, () -> "closing sessions", err);
            if (!stopped.await(first.keepAliveMs() + 10_000, TimeUnit.MILLISECONDS)) {
                err.println("warning: " + stopped.getCount() + " Publish requests still outstanding");
            }
        } finally {
            metrics.phase.value = RequestChain.Phase.STOP;
            connectors.shutdownNow();
            for (SubscriberSession s : subscribers) {
                if (s != null) {
                    s.session().close();
                }
            }
        }
    }

    /** What the sessions received against what the server changed in the window. */
    record Verdict(long delivered, long expected, int sessionsShort, long sequenceGaps, long messages,
            long minPerSession, long maxPerSession) {

        boolean complete(int sessions, int open) {
            return open == sessions && sessionsShort == 0 && sequenceGaps == 0 && expected > 0;
        }
    }

    /** Counts, per session, the window's values it received against those its items' variables took. */
    static Verdict verify(SubscriberSession[] subscribers, PrintStream err) {
        long delivered = 0;
        long expected = 0;
        int sessionsShort = 0;
        long gaps = 0;
        long messages = 0;
        long min = Long.MAX_VALUE;
        long max = 0;
        int reported = 0;
        for (int i = 0; i < subscribers.length; i++) {
            if (subscribers[i] == null) {
                continue;
            }
            long sessionDelivered = 0;
            long sessionExpected = 0;
            long sessionGaps = 0;
            for (SubscriptionTally tally : subscribers[i].tallies()) {
                sessionDelivered += tally.delivered();
                sessionExpected += tally.expected();
                sessionGaps += tally.sequenceGaps();
                messages += tally.messages();
            }
            delivered += sessionDelivered;
            expected += sessionExpected;
            gaps += sessionGaps;
            min = Math.min(min, sessionDelivered);
            max = Math.max(max, sessionDelivered);
            if (sessionDelivered < sessionExpected || sessionGaps > 0) {
                sessionsShort++;
                if (reported++ < 10) {
                    err.printf(Locale.ROOT, "session %d: delivered %d of %d values, %d sequence numbers missing%n", i,
                            sessionDelivered, sessionExpected, sessionGaps);
                }
            }
        }
        return new Verdict(delivered, expected, sessionsShort, gaps, messages, min == Long.MAX_VALUE ? 0 : min, max);
    }

    private static void report(LoadOptions o, int n, int open, double rampSeconds, long connectFailures,
            long subscribeFailures, double samplingMs, SubMetrics metrics, Verdict v, ChangeWindow window,
            Footprint empty, Footprint idle, Footprint busy, long rssEmpty, long rssIdle, long rssBusy, PrintStream out,
            PrintStream err) {
        double seconds = window.seconds();
        long notifications = metrics.notifications();
        long perNotification = Math.max(1, notifications);
        String serverCpu = window.serverCpuMicrosPer(notifications);
        LoadHarness.ClientUsage.Snapshot c0 = window.client0();
        LoadHarness.ClientUsage.Snapshot c1 = window.client1();
        Map<String, String> result = new LinkedHashMap<>();
        result.put("scenario", o.scenario());
        result.put("server", o.server());
        result.put("client", o.clientName());
        result.put("security", o.securityName());
        result.put("sessions", Integer.toString(n));
        result.put("sessions_open", Integer.toString(open));
        result.put("subscriptions", Integer.toString(o.subscriptions()));
        result.put("items", Integer.toString(o.items()));
        result.put("publishing_ms", Integer.toString(o.publishingMs()));
        result.put("sampling_ms", LoadHarness.fmt(samplingMs));
        result.put("ramp_s", LoadHarness.fmt(rampSeconds));
        result.put("connects_per_s", LoadHarness.fmt(open / rampSeconds));
        result.put("connect_failures", Long.toString(connectFailures));
        result.put("subscribe_failures", Long.toString(subscribeFailures));
        result.put("duration_s", LoadHarness.fmt(seconds));
        result.put("notifications", Long.toString(notifications));
        result.put("notifications_per_s", LoadHarness.fmt(notifications / seconds));
        result.put("delivered", Long.toString(v.delivered()));
        result.put("expected", Long.toString(v.expected()));
        result.put("sessions_short", Integer.toString(v.sessionsShort()));
        result.put("sequence_gaps", Long.toString(v.sequenceGaps()));
        result.put("messages", Long.toString(v.messages()));
        result.put("min_per_session", Long.toString(v.minPerSession()));
        result.put("max_per_session", Long.toString(v.maxPerSession()));
        result.put("keepalives", Long.toString(metrics.keepAlives.sum()));
        result.put("errors", Long.toString(metrics.errorCount()));
        result.put("server_cpu_us_per_notification", serverCpu);
        result.put("server_cpu_ms_per_s", window.serverCpuMillisPerSecond());
        result.put("heap_empty_mb", ServerMemory.mb(empty == null ? -1 : empty.heapUsed()));
        result.put("heap_idle_mb", ServerMemory.mb(idle == null ? -1 : idle.heapUsed()));
        result.put("heap_subscribed_mb", ServerMemory.mb(busy == null ? -1 : busy.heapUsed()));
        result.put("heap_per_idle_session_b", empty == null || idle == null ? "n/a"
                : Long.toString((idle.heapUsed() - empty.heapUsed()) / open));
        result.put("heap_per_subscribed_session_b", empty == null || busy == null ? "n/a"
                : Long.toString((busy.heapUsed() - empty.heapUsed()) / open));
        result.put("rss_empty_mb", ServerMemory.mb(rssEmpty));
        result.put("rss_idle_mb", ServerMemory.mb(rssIdle));
        result.put("rss_subscribed_mb", ServerMemory.mb(rssBusy));
        result.put("server_threads", busy == null ? "n/a" : Long.toString(busy.threads()));
        result.put("server_open_files", busy == null ? "n/a" : Long.toString(busy.openFiles()));
        result.put("client_cpu_us_per_notification",
                LoadHarness.fmt((c1.cpuNanos() - c0.cpuNanos()) / 1e3 / perNotification));
        result.put("client_alloc_b_per_notification", Long.toString(c1.allocatedSince(c0) / perNotification));
        result.put("client_rss_mb", ServerMemory.mb(ProcessMemory.rssBytesOrUnknown(ProcessHandle.current().pid())));
        result.put("client_threads", Integer.toString(ManagementFactory.getThreadMXBean().getThreadCount()));
        boolean verified = v.complete(n, open) && metrics.errorCount() == 0;
        result.put("verified", Boolean.toString(verified));

        err.printf(Locale.ROOT, "%s: %d sessions, %d notifications in %.1f s (%s/s); delivered %d of %d values, %d "
                + "sessions short, %d sequence numbers missing; %s%n", o.securityName(), open, notifications, seconds,
                result.get("notifications_per_s"), v.delivered(), v.expected(), v.sessionsShort(), v.sequenceGaps(),
                verified ? "every notification delivered" : "NOT every notification delivered");
        err.printf(Locale.ROOT, "server: CPU %s us per notification (%s ms/s), heap after GC %s MB empty, %s MB idle "
                + "(%s B per idle session), %s MB subscribed; RSS %s / %s / %s MB; %s threads, %s open files%n",
                serverCpu, result.get("server_cpu_ms_per_s"), result.get("heap_empty_mb"), result.get("heap_idle_mb"),
                result.get("heap_per_idle_session_b"), result.get("heap_subscribed_mb"), result.get("rss_empty_mb"),
                result.get("rss_idle_mb"), result.get("rss_subscribed_mb"), result.get("server_threads"),
                result.get("server_open_files"));
        err.printf(Locale.ROOT, "client: CPU %s us, alloc %s B per notification; RSS %s MB, %s threads%n",
                result.get("client_cpu_us_per_notification"), result.get("client_alloc_b_per_notification"),
                result.get("client_rss_mb"), result.get("client_threads"));
        metrics.errors.forEach((status, count) -> err.println("errors " + status + ": " + count.sum()));
        LoadHarness.printResult(result, out);
    }

    /** A task per index on {@code pool}, waited for, with {@code progress} logged every {@value #PROGRESS_S} s. */
    static void inParallel(ExecutorService pool, int count, IndexTask task,
            java.util.function.Supplier<String> progress, PrintStream err) throws Exception {
        AtomicInteger next = new AtomicInteger();
        List<Future<?>> workers = new ArrayList<>();
        for (int w = 0; w < CONNECTS_IN_FLIGHT; w++) {
            workers.add(pool.submit(() -> {
                for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
                    task.run(i);
                }
                return null;
            }));
        }
        for (Future<?> worker : workers) {
            while (true) {
                try {
                    worker.get(PROGRESS_S, TimeUnit.SECONDS);
                    break;
                } catch (java.util.concurrent.TimeoutException e) {
                    err.println("  " + progress.get());
                }
            }
        }
    }

    @FunctionalInterface
    interface IndexTask {
        void run(int index) throws Exception;
    }

    private static SubscriberSession firstOpen(SubscriberSession[] subscribers) {
        for (SubscriberSession s : subscribers) {
            if (s != null) {
                return s;
            }
        }
        throw new IllegalStateException("no session open");
    }

    static void windowProgress(SubMetrics metrics, long t0, int durationS, PrintStream err) {
        try {
            while (true) {
                TimeUnit.SECONDS.sleep(PROGRESS_S);
                err.printf(Locale.ROOT, "  %.0f of %d s: %d notifications, %d keep-alives, %d errors%n",
                        (System.nanoTime() - t0) / 1e9, durationS, metrics.notifications(),
                        metrics.keepAlives.sum(), metrics.errorCount());
            }
        } catch (InterruptedException e) {
            // the window is over
        }
    }

    static double seconds(long since) {
        return Math.max(1e-3, (System.nanoTime() - since) / 1e9);
    }

    static java.util.concurrent.ThreadFactory named(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + count.getAndIncrement());
            t.setDaemon(true);
            return t;
        };
    }
}
