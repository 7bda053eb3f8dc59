package dev.opcua.benchmarks.load;

import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadResponse;
import dev.opcua.stack.core.types.structured.ReadValueId;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The {@code flood} scenario (flood isolation, DESIGN.md section 3: "one greedy client cannot starve the
 * rest"): sessions 2..N are quiet, each sending Reads of one value at {@code --quiet-rate} per second
 * (paced, one outstanding at a time); session 1 floods, keeping {@code --flood-inflight} Reads outstanding
 * and sending the next the moment any answer comes, BadServerTooBusy included; or, with
 * {@code --flood-client raw}, a {@link RawFlooder} on a connection of its own writes Reads without waiting for
 * any answer (session 1 then stays idle). The quiet sessions run on
 * client I/O threads of their own, so that their latency is the server's and the network's, not a queue
 * behind the flooder's responses in the harness (on a small machine the harness still shares the cores).
 *
 * <p>Two windows of {@code --duration} seconds each: first the quiet sessions alone (their baseline
 * latency), then with the flood running (after {@code --warmup} seconds of flood). The RESULT line gives
 * both latency distributions of the quiet sessions and their ratio, their errors, the flooder's Good and
 * BadServerTooBusy answers per second, and the server's refusals per second from its request-queue
 * counter (the {@code rejected} field of the bench server's STATS probe; {@code n/a} for a server that
 * does not tell).
 */
final class FloodScenario {

    /** Thread name prefix of the quiet sessions' own client resources (the flooder's are the harness's). */
    static final String QUIET_THREADS = "load-quiet";

    private static final int WARMUP = 0;
    private static final int BASELINE = 1;
    private static final int BETWEEN = 2;
    private static final int FLOOD = 3;
    private static final int STOP = 4;

    private FloodScenario() {
    }

    static void run(LoadOptions o, String url, ChildServer server, List<LoadSession> sessions, NodeId[] nodeIds,
            ClientResources resources, PrintStream out, PrintStream err) throws Exception {
        Phase quietPhase = new Phase();
        List<QuietReader> readers = new ArrayList<>();
        for (int s = 1; s < sessions.size(); s++) {
            readers.add(new QuietReader(sessions.get(s), nodeIds[s % nodeIds.length], quietPhase));
        }
        boolean raw = o.floodClient().equals("raw");
        RequestChain.Phase floodPhase = new RequestChain.Phase();
        LongAdder floodGood = new LongAdder();
        ConcurrentHashMap<String, LongAdder> floodErrors = new ConcurrentHashMap<>();
        int chains = raw ? 0 : o.floodInflight(); // the raw flooder is no request chain of a session
        CountDownLatch floodStopped = new CountDownLatch(chains);
        List<RequestChain> flood = new ArrayList<>();
        for (int f = 0; f < chains; f++) {
            flood.add(new RequestChain(sessions.get(0), "read", 1, nodeIds, f, floodPhase, floodGood, floodErrors,
                    resources.executor(), floodStopped));
        }
        err.printf(Locale.ROOT, "flood: %d quiet sessions x %d Reads/s, 1 flooding session %s, warmup %d s,"
                + " two windows of %d s%n", readers.size(), o.quietRate(), raw ? "writing Reads without waiting (raw)"
                : "x " + o.floodInflight() + " in flight", o.warmupS(), o.durationS());
        RawFlooder rawFlooder = raw ? RawFlooder.open(url) : null;

        ScheduledExecutorService pacer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "load-pacer");
            thread.setDaemon(true);
            return thread;
        });
        try {
            long periodNanos = TimeUnit.SECONDS.toNanos(1) / o.quietRate();
            for (int i = 0; i < readers.size(); i++) {
                QuietReader reader = readers.get(i);
                // spread the quiet sessions' ticks over the period
                pacer.scheduleAtFixedRate(reader::tick, periodNanos * i / readers.size(), periodNanos,
                        TimeUnit.NANOSECONDS);
            }
            TimeUnit.SECONDS.sleep(o.warmupS());

            quietPhase.value = BASELINE;
            Window baseline = Window.measure(o, server, err, "baseline (quiet sessions alone)");
            quietPhase.value = BETWEEN;

            flood.forEach(RequestChain::issue);
            if (rawFlooder != null) {
                rawFlooder.start(nodeIds[0]);
            }
            TimeUnit.SECONDS.sleep(o.warmupS());
            quietPhase.value = FLOOD;
            floodPhase.value = RequestChain.Phase.MEASURE;
            if (rawFlooder != null) {
                rawFlooder.count();
            }
            Window flooded = Window.measure(o, server, err, "with the flood");
            floodPhase.value = RequestChain.Phase.STOP;
            quietPhase.value = STOP;
            long floodSent = -1;
            double writeBlockedPct = -1;
            if (rawFlooder != null) {
                // the counts at the end of the window; the flooder stops in the finally block below, what is still
                // in flight is dropped with its connection
                floodSent = rawFlooder.sent();
                writeBlockedPct = rawFlooder.writeNanos() / 1e7 / flooded.seconds;
                floodGood.add(rawFlooder.good());
                floodErrors.computeIfAbsent("BadServerTooBusy", k -> new LongAdder()).add(rawFlooder.busy());
                rawFlooder.otherErrors().forEach((status, count) ->
                        floodErrors.computeIfAbsent(status, k -> new LongAdder()).add(count.sum()));
            }
            if (!floodStopped.await(15, TimeUnit.SECONDS)) {
                err.println("warning: " + floodStopped.getCount() + " flood requests still outstanding after 15 s");
            }

            report(o, readers, baseline, flooded, floodGood.sum(), floodSent, writeBlockedPct, floodErrors, out, err);
        } finally {
            pacer.shutdownNow();
            if (rawFlooder != null) {
                rawFlooder.close();
            }
        }
    }

    private static void report(LoadOptions o, List<QuietReader> readers, Window baseline, Window flooded,
            long floodGood, long floodSent, double writeBlockedPct, Map<String, LongAdder> floodErrors, PrintStream out,
            PrintStream err) {
        LatencyHistogram quietBefore = new LatencyHistogram();
        LatencyHistogram quietDuring = new LatencyHistogram();
        long quietErrors = 0;
        long late = 0;
        for (QuietReader reader : readers) {
            synchronized (reader) {
                quietBefore.add(reader.baseline);
                quietDuring.add(reader.flooded);
                quietErrors += reader.errors;
                late += reader.late;
            }
        }
        long busy = floodErrors.entrySet().stream().filter(e -> e.getKey().startsWith("BadServerTooBusy"))
                .mapToLong(e -> e.getValue().sum()).sum();
        long otherErrors = floodErrors.values().stream().mapToLong(LongAdder::sum).sum() - busy;
        double p99Before = quietBefore.quantile(0.99) / 1e3;
        double p99During = quietDuring.quantile(0.99) / 1e3;

        Map<String, String> result = new LinkedHashMap<>();
        result.put("scenario", "flood");
        result.put("server", o.server() == null ? "url" : o.server());
        result.put("client", o.clientName());
        result.put("security", o.securityName());
        result.put("sessions", Integer.toString(o.sessions()));
        result.put("quiet_rate", Integer.toString(o.quietRate()));
        result.put("flood_client", o.floodClient());
        result.put("flood_inflight", o.floodClient().equals("raw") ? "n/a" : Integer.toString(o.floodInflight()));
        result.put("duration_s", LoadHarness.fmt(flooded.seconds));
        result.put("baseline_reads", Long.toString(quietBefore.count()));
        result.put("baseline_p50_us", LoadHarness.fmt(quietBefore.quantile(0.50) / 1e3));
        result.put("baseline_p99_us", LoadHarness.fmt(p99Before));
        result.put("flood_reads", Long.toString(quietDuring.count()));
        result.put("flood_p50_us", LoadHarness.fmt(quietDuring.quantile(0.50) / 1e3));
        result.put("flood_p99_us", LoadHarness.fmt(p99During));
        result.put("p99_ratio", p99Before > 0 ? String.format(Locale.ROOT, "%.2f", p99During / p99Before) : "n/a");
        result.put("quiet_errors", Long.toString(quietErrors));
        result.put("quiet_late", Long.toString(late));
        result.put("flooder_sent_per_s", floodSent < 0 ? "n/a" : LoadHarness.fmt(floodSent / flooded.seconds));
        result.put("flooder_in_write_pct", writeBlockedPct < 0 ? "n/a" : LoadHarness.fmt(writeBlockedPct));
        result.put("flooder_good_per_s", LoadHarness.fmt(floodGood / flooded.seconds));
        result.put("flooder_busy_per_s", LoadHarness.fmt(busy / flooded.seconds));
        result.put("flooder_other_errors", Long.toString(otherErrors));
        result.put("server_rejected_per_s", flooded.rejectedPerSecond());
        result.put("server_cpu_pct", flooded.serverCpuPercent());

        err.printf(Locale.ROOT, "quiet Reads: baseline p50 %s us p99 %s us; with the flood p50 %s us p99 %s us (x%s);"
                + " errors %d, late ticks %d%n", result.get("baseline_p50_us"), result.get("baseline_p99_us"),
                result.get("flood_p50_us"), result.get("flood_p99_us"), result.get("p99_ratio"), quietErrors, late);
        err.printf(Locale.ROOT, "flooder: %s sent/s (%s %% of the window in socket writes), %s Good/s,"
                + " %s BadServerTooBusy/s, %d other errors; server refused %s/s%n", result.get("flooder_sent_per_s"),
                result.get("flooder_in_write_pct"), result.get("flooder_good_per_s"), result.get("flooder_busy_per_s"),
                otherErrors, result.get("server_rejected_per_s"));
        floodErrors.forEach((status, count) -> err.println("flooder errors " + status + ": " + count.sum()));
        LoadHarness.printResult(result, out);
    }

    /** The quiet sessions' phase; written by the harness, read by the callbacks. */
    private static final class Phase {
        volatile int value = WARMUP;
    }

    /** A measured window: its length, and the server's CPU and refusals over it when the server tells them. */
    private record Window(double seconds, ServerStats start, ServerStats end) {

        static Window measure(LoadOptions o, ChildServer server, PrintStream err, String name)
                throws InterruptedException {
            err.println("window: " + name);
            long t0 = System.nanoTime();
            ServerStats start = server == null ? null : server.stats();
            TimeUnit.SECONDS.sleep(o.durationS());
            ServerStats end = server == null ? null : server.stats();
            return new Window((System.nanoTime() - t0) / 1e9, start, end);
        }

        String rejectedPerSecond() {
            if (start == null || end == null || start.rejectedRequests() < 0 || end.rejectedRequests() < 0) {
                return "n/a";
            }
            return LoadHarness.fmt((end.rejectedRequests() - start.rejectedRequests()) / seconds);
        }

        String serverCpuPercent() {
            if (start == null || end == null) {
                return "n/a";
            }
            return LoadHarness.fmt((end.cpuNanos() - start.cpuNanos()) / 1e7 / seconds);
        }
    }

    /**
     * One quiet session: on each tick of the pacer it sends a Read of one value unless the previous one is
     * still outstanding (then the tick counts as late). Its counters are guarded by its monitor: ticks and
     * answers come on different threads, at a few dozen per second.
     */
    private static final class QuietReader {

        private final LoadSession session;
        private final ReadValueId[] items;
        private final Phase phase;
        final LatencyHistogram baseline = new LatencyHistogram();
        final LatencyHistogram flooded = new LatencyHistogram();
        long errors;
        long late;
        private boolean outstanding;

        QuietReader(LoadSession session, NodeId node, Phase phase) {
            this.session = session;
            this.items = new ReadValueId[] {new ReadValueId(node, AttributeIds.Value, null, QualifiedName.NULL)};
            this.phase = phase;
        }

        void tick() {
            synchronized (this) {
                if (outstanding) {
                    if (phase.value == BASELINE || phase.value == FLOOD) {
                        late++;
                    }
                    return;
                }
                outstanding = true;
            }
            int sentIn = phase.value;
            long start = System.nanoTime();
            session.channel().request(new ReadRequest(session.header(), 0, TimestampsToReturn.Neither, items),
                    ReadResponse.class).whenComplete((r, e) -> done(sentIn, start, r, e));
        }

        private synchronized void done(int sentIn, long start, ReadResponse response, Throwable failure) {
            outstanding = false;
            if (sentIn != phase.value || (sentIn != BASELINE && sentIn != FLOOD)) {
                return; // sent in another phase: counts in neither window
            }
            String error = RequestChain.error(response == null ? null : response.responseHeader(),
                    response == null ? null : RequestChain.statuses(response.results()), failure);
            if (error != null) {
                errors++;
            } else {
                (sentIn == BASELINE ? baseline : flooded).record(System.nanoTime() - start);
            }
        }
    }
}
