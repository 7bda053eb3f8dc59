package dev.opcua.benchmarks.load;

import dev.opcua.stack.client.transport.ClientResources;
import java.io.BufferedWriter;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The {@code soak} scenario (DESIGN.md section 9): a long run at 80 % of the server's
 * measured capacity with a mixed load ({@link SoakLoad}: Reads, Writes, Browses, subscriptions, a session
 * opened and closed every second, one flooder), sampling the child server every {@code --sample} seconds
 * into {@code soak.csv} ({@link SoakSample}: RSS, heap after a collection, threads, open files, connection,
 * channel and session counts, the load) and drawing {@code soak.png} from it ({@link SoakChart}).
 *
 * <p>Capacity, unless {@code --rate} gives the rate: the same mix closed-loop, {@value #CAPACITY_INFLIGHT}
 * in flight per worker session, {@code --warmup} seconds, then {@value #CAPACITY_S} seconds counted. The
 * verdict ({@link SoakVerdict}): RSS within 5 % from {@code --settle} seconds on (minute 10) and no leak
 * report in the server's log. Each sample has the server collect garbage (its {@code GC} probe), which a
 * server would not do by itself every 10 s: heap after GC is what tells a leak from garbage. The child runs
 * with {@link #SERVER_JVM_OPTIONS}, Netty's leak detector at {@code simple} among them.
 */
final class SoakScenario {

    static final int CAPACITY_INFLIGHT = 4;
    static final int CAPACITY_S = 20;
    static final double LOAD_SHARE = 0.8;
    /**
     * The child server's heap fixed and touched up front: otherwise G1 grows the young generation under
     * load and gives it back after each sample's collection, and RSS swings by half (155 to 303 MiB in a
     * first run) with no leak at all. With the heap constant, RSS moves only with what is not heap
     * (direct buffers, metaspace, code cache, thread stacks): the memory a leak there would show in.
     */
    static final List<String> SERVER_JVM_OPTIONS = List.of("-Xms256m", "-Xmx256m", "-XX:+AlwaysPreTouch",
            "-Dio.netty.leakDetection.level=simple"); // the bench server's own default is off, as a starter's

    private SoakScenario() {
    }

    static void run(LoadOptions o, String url, ChildServer server, ClientResources resources, LoadSecurity security,
            PrintStream out, PrintStream err) throws Exception {
        if (server == null) {
            throw new IllegalArgumentException("--scenario soak needs --server ours|milo: it samples the child "
                    + "server's memory, threads and files");
        }
        SoakOptions so = o.soak();
        Path dir = Path.of(so.report());
        Files.createDirectories(dir);
        Path csv = dir.resolve("soak.csv");
        Path png = dir.resolve("soak.png");
        List<SoakSample> samples = new ArrayList<>();
        double capacity = -1;
        double rate = so.rate();
        long capacityErrors = 0;
        SoakLoad load = SoakLoad.open(o, url, resources, security);
        try {
            if (rate <= 0) {
                capacity = capacity(o, load, err);
                rate = capacity * LOAD_SHARE;
                capacityErrors = load.errorCount();
                load.errors.clear();
            }
            err.printf(Locale.ROOT, "soak: %d s at %.0f operations/s (%s) over %d sessions, %d subscribers x %d items,"
                    + " 1 connect/s, a flooder (%d Reads every %d s); samples every %d s to %s%n", o.durationS(), rate,
                    capacity > 0 ? String.format(Locale.ROOT, "80 %% of %.0f measured", capacity) : "--rate",
                    o.sessions(), SoakLoad.SUBSCRIBERS, SoakLoad.ITEMS_PER_SUBSCRIPTION, SoakLoad.FLOOD_BURST,
                    SoakLoad.FLOOD_PERIOD_S, so.sampleS(), csv);
            sample(o, load, server, rate, csv, samples, err);
        } finally {
            load.close();
        }

        SoakVerdict verdict = SoakVerdict.judge(samples, so.settleS(), SoakVerdict.leakReports(server.log()));
        SoakChart.render(samples, so.settleS(), String.format(Locale.ROOT,
                "soak of our server: %.0f ops/s mixed, %d min; RSS %s %.0f %% from minute %.0f", rate,
                o.durationS() / 60, verdict.rssWithin() ? "within" : "NOT within", SoakVerdict.TOLERANCE * 100, so.settleS() / 60.0),
                png);
        report(o, rate, capacity, capacityErrors, load, samples, verdict, csv, png, out, err);
    }

    /** The mix's closed-loop throughput: the server's capacity for it, on this machine. */
    private static double capacity(LoadOptions o, SoakLoad load, PrintStream err) throws InterruptedException {
        err.printf(Locale.ROOT, "soak: measuring capacity: the mix closed-loop, %d sessions x %d in flight, %d s warm-up"
                + " and %d s counted%n", o.sessions(), CAPACITY_INFLIGHT, o.warmupS(), CAPACITY_S);
        load.startClosedLoop(CAPACITY_INFLIGHT);
        TimeUnit.SECONDS.sleep(o.warmupS());
        long before = load.ops.sum();
        long t0 = System.nanoTime();
        TimeUnit.SECONDS.sleep(CAPACITY_S);
        double capacity = (load.ops.sum() - before) / ((System.nanoTime() - t0) / 1e9);
        load.stopClosedLoop();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (load.outstanding() > 0 && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(50);
        }
        err.printf(Locale.ROOT, "soak: capacity %.0f operations/s%n", capacity);
        return capacity;
    }

    /** Runs the paced load for {@code --duration} seconds, a sample every {@code --sample} seconds. */
    private static void sample(LoadOptions o, SoakLoad load, ChildServer server, double rate, Path csv,
            List<SoakSample> samples, PrintStream err) throws Exception {
        long sampleNanos = TimeUnit.SECONDS.toNanos(o.soak().sampleS());
        try (BufferedWriter writer = Files.newBufferedWriter(csv)) {
            writer.write(SoakSample.HEADER);
            writer.newLine();
            long t0 = System.nanoTime();
            load.startPaced(rate);
            long lastOps = load.ops.sum(); // the capacity measurement's are not this run's
            long lastNotifications = load.notifications.sum();
            long last = t0;
            for (int k = 1; ; k++) {
                long due = t0 + k * sampleNanos;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                long now = System.nanoTime();
                double seconds = (now - last) / 1e9;
                long opsNow = load.ops.sum();
                long notificationsNow = load.notifications.sum();
                Footprint f = server.footprint();
                SoakSample sample = new SoakSample((now - t0) / 1_000_000_000L, SoakSample.rssKib(server.pid()),
                        f == null ? -1 : f.heapUsed() / 1024, f == null ? -1 : f.threads(),
                        Footprint.openFiles(server.pid()), f == null ? -1 : f.connections(),
                        f == null ? -1 : f.channels(), f == null ? -1 : f.sessions(), (opsNow - lastOps) / seconds,
                        (notificationsNow - lastNotifications) / seconds, load.errorCount(), load.floodBusy.sum());
                samples.add(sample);
                writer.write(sample.csv());
                writer.newLine();
                writer.flush();
                err.printf(Locale.ROOT, "  %4d s: RSS %.1f MiB, heap after GC %.1f MiB, %d threads, %d files, %d sessions;"
                        + " %.0f ops/s, %.0f notifications/s, %d errors, %d shed, flooder busy %d%n", sample.elapsedS(),
                        sample.rssKib() / 1024.0, sample.heapKib() / 1024.0, sample.threads(), sample.openFiles(),
                        sample.sessions(), sample.opsPerS(), sample.notificationsPerS(), sample.errors(),
                        load.shed.sum(), sample.floodBusy());
                lastOps = opsNow;
                lastNotifications = notificationsNow;
                last = now;
                if (now - t0 >= TimeUnit.SECONDS.toNanos(o.durationS())) {
                    return;
                }
            }
        }
    }

    private static void report(LoadOptions o, double rate, double capacity, long capacityErrors, SoakLoad load,
            List<SoakSample> samples, SoakVerdict verdict, Path csv, Path png, PrintStream out, PrintStream err) {
        SoakSample first = samples.get(0);
        SoakSample lastSample = samples.get(samples.size() - 1);
        Map<String, String> result = new LinkedHashMap<>();
        result.put("scenario", "soak");
        result.put("server", o.server());
        result.put("security", o.securityName());
        result.put("sessions", Integer.toString(o.sessions()));
        result.put("duration_s", Long.toString(lastSample.elapsedS()));
        result.put("capacity_ops_per_s", capacity > 0 ? LoadHarness.fmt(capacity) : "n/a");
        result.put("rate_ops_per_s", LoadHarness.fmt(rate));
        result.put("ops_per_s", LoadHarness.fmt(samples.stream().mapToDouble(SoakSample::opsPerS).average().orElse(0)));
        result.put("notifications_per_s",
                LoadHarness.fmt(samples.stream().mapToDouble(SoakSample::notificationsPerS).average().orElse(0)));
        result.put("connects", Long.toString(load.connects.sum()));
        result.put("flood_good", Long.toString(load.floodGood.sum()));
        result.put("flood_busy", Long.toString(load.floodBusy.sum()));
        result.put("shed", Long.toString(load.shed.sum()));
        result.put("errors", Long.toString(load.errorCount()));
        result.put("capacity_errors", Long.toString(capacityErrors));
        result.put("samples", Integer.toString(samples.size()));
        result.put("rss_kib_first", Long.toString(first.rssKib()));
        result.put("rss_kib_settled", Long.toString(verdict.rssBaseKib()));
        result.put("rss_kib_last", Long.toString(lastSample.rssKib()));
        result.put("rss_max_deviation_pct", String.format(Locale.ROOT, "%.2f", verdict.rssMaxDeviation() * 100));
        result.put("heap_kib_first", Long.toString(first.heapKib()));
        result.put("heap_kib_last", Long.toString(lastSample.heapKib()));
        result.put("threads_first", Long.toString(first.threads()));
        result.put("threads_last", Long.toString(lastSample.threads()));
        result.put("open_files_first", Long.toString(first.openFiles()));
        result.put("open_files_last", Long.toString(lastSample.openFiles()));
        result.put("leak_reports", Long.toString(verdict.leakReports()));
        result.put("verdict", verdict.passed() ? "pass" : "fail");
        result.put("csv", csv.toString());
        result.put("png", png.toString());
        load.errors.forEach((status, count) -> err.println("soak errors " + status + ": " + count.sum()));
        err.printf(Locale.ROOT, "soak: %s: RSS from %d s on within %.2f %% of %.1f MiB (%d samples; at most %.0f %%), "
                + "%d leak reports in the server log; %d errors; chart %s%n", verdict.passed() ? "PASS" : "FAIL",
                o.soak().settleS(), verdict.rssMaxDeviation() * 100, verdict.rssBaseKib() / 1024.0,
                verdict.judgedSamples(), SoakVerdict.TOLERANCE * 100, verdict.leakReports(), load.errorCount(), png);
        LoadHarness.printResult(result, out);
    }
}
