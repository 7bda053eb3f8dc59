package dev.opcua.benchmarks.load;

import dev.opcua.stack.client.transport.ClientResources;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The {@code churn} scenario (DESIGN.md section 9: nothing a peer does may leak): {@code --cycles}
 * connect / CreateSession / ActivateSession / CloseSession / close cycles on raw sessions, spread over
 * {@code --sessions} threads, then {@code --cuts} connections that send the first bytes of a Hello and
 * OpenSecureChannel (cut at a random point, from none to all of them) and close, half with a reset. The
 * child server's footprint (heap after a garbage collection, threads, open files, its connection, channel
 * and session counts) is taken before and after: the RESULT line says whether it came back
 * ({@code back_to_start=true}), allowing a few threads for pools that retire after their keep-alive and
 * 16 MiB of heap for what the JIT and the JVM keep.
 *
 * <p>The "before" is taken after a warm-up of a tenth of the cycles and cuts (at most 1,000 and 100), so
 * that it holds what the server starts on demand and keeps for good: its I/O event loops, the workers up
 * to {@code requests.min-threads}, the subscription and session timers (a cold server has none of them, and
 * the first full run counted them as 9 threads "not back"). The cold footprint is logged too.
 */
final class ChurnScenario {

    /** Threads a server may hold more after the churn: worker and I/O pools shrink after their keep-alive. */
    static final long THREAD_SLACK = 8;
    /** Heap a server may hold more after the churn and a collection: code caches, interned strings, pools. */
    static final long HEAP_SLACK = 16L << 20;
    /** At most this many warm-up cycles (a tenth of {@code --cycles}) before the baseline. */
    static final long MAX_WARMUP_CYCLES = 1_000;
    /** At most this many warm-up cuts (a tenth of {@code --cuts}) before the baseline. */
    static final int MAX_WARMUP_CUTS = 100;

    private ChurnScenario() {
    }

    static void run(LoadOptions o, String url, ChildServer server, ClientResources resources, LoadSecurity security,
            PrintStream out, PrintStream err) throws Exception {
        if (server == null) {
            throw new IllegalArgumentException("--scenario churn needs --server ours|milo: it compares the child "
                    + "server's footprint before and after");
        }
        Footprint cold = server.footprint();
        err.println("server cold: " + describe(cold));
        long warmCycles = Math.min(MAX_WARMUP_CYCLES, o.cycles() / 10);
        int warmCuts = Math.min(MAX_WARMUP_CUTS, o.cuts() / 10);
        ConcurrentHashMap<String, LongAdder> warmErrors = new ConcurrentHashMap<>();
        runCycles(o, url, resources, security, warmCycles, new LongAdder(), warmErrors, err);
        cuts(url, warmCuts, err);
        Footprint before = settled(server, cold); // once the warm-up's last connections closed
        err.println("churn: warmed up with " + warmCycles + " cycles and " + warmCuts + " cuts; " + o.cycles()
                + " session cycles on " + o.sessions() + " threads, then " + o.cuts()
                + " handshakes cut short; server before: " + describe(before));

        long t0 = System.nanoTime();
        LongAdder done = new LongAdder();
        ConcurrentHashMap<String, LongAdder> errors = new ConcurrentHashMap<>(warmErrors);
        runCycles(o, url, resources, security, o.cycles(), done, errors, err);
        double cycleSeconds = (System.nanoTime() - t0) / 1e9;

        long cutErrors = cuts(url, o.cuts(), err);

        Footprint after = settled(server, before);
        boolean back = before != null && after != null && before.backTo(after, THREAD_SLACK, HEAP_SLACK);
        long errorCount = errors.values().stream().mapToLong(LongAdder::sum).sum();

        Map<String, String> result = new LinkedHashMap<>();
        result.put("scenario", "churn");
        result.put("server", o.server());
        result.put("security", o.securityName());
        result.put("threads", Integer.toString(o.sessions()));
        result.put("warmup_cycles", Long.toString(warmCycles));
        result.put("warmup_cuts", Integer.toString(warmCuts));
        result.put("cycles", Long.toString(done.sum()));
        result.put("cycles_per_s", LoadHarness.fmt(done.sum() / cycleSeconds));
        result.put("cycle_errors", Long.toString(errorCount));
        result.put("cuts", Integer.toString(o.cuts()));
        result.put("cut_errors", Long.toString(cutErrors));
        put(result, "heap_kib", before, after, f -> f.heapUsed() / 1024);
        put(result, "threads", before, after, Footprint::threads);
        put(result, "open_files", before, after, Footprint::openFiles);
        put(result, "connections", before, after, Footprint::connections);
        put(result, "channels", before, after, Footprint::channels);
        put(result, "sessions", before, after, Footprint::sessions);
        result.put("back_to_start", Boolean.toString(back));

        err.println("server after: " + describe(after) + (back ? "; back to the start" : "; NOT back to the start"));
        errors.forEach((status, count) -> err.println("cycle errors " + status + ": " + count.sum()));
        LoadHarness.printResult(result, out);
    }

    /** Runs {@code count} session cycles on {@code --sessions} threads, logging progress every 5 s. */
    private static void runCycles(LoadOptions o, String url, ClientResources resources, LoadSecurity security,
            long count, LongAdder done, ConcurrentHashMap<String, LongAdder> errors, PrintStream err)
            throws InterruptedException {
        long t0 = System.nanoTime();
        AtomicLong left = new AtomicLong(count);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < o.sessions(); i++) {
            Thread thread = new Thread(() -> cycles(url, resources, security, left, done, errors), "load-churn-" + i);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
        while (!joined(threads, 5)) {
            err.printf(Locale.ROOT, "  %.0f s: %d of %d cycles%n", (System.nanoTime() - t0) / 1e9, done.sum(), count);
        }
    }

    private static void cycles(String url, ClientResources resources, LoadSecurity security, AtomicLong left,
            LongAdder done, ConcurrentHashMap<String, LongAdder> errors) {
        while (left.getAndDecrement() > 0) {
            try {
                LoadSession.open(url, resources, security).closeSessionAndChannel();
                done.increment();
            } catch (Exception e) {
                errors.computeIfAbsent(ConnectLoop.describe(e), k -> new LongAdder()).increment();
            }
        }
    }

    /** Opens {@code count} connections that send a random prefix of HEL + OPN and close; returns the failed connects. */
    private static long cuts(String url, int count, PrintStream err) {
        URI uri = URI.create(url);
        byte[] handshake = HandshakeBytes.helloAndOpen(url);
        SplittableRandom random = new SplittableRandom(count);
        long failed = 0;
        long t0 = System.nanoTime();
        long reported = t0;
        for (int i = 0; i < count; i++) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), 5_000);
                OutputStream stream = socket.getOutputStream();
                stream.write(handshake, 0, random.nextInt(handshake.length + 1));
                stream.flush();
                if (random.nextBoolean()) {
                    socket.setSoLinger(true, 0); // close with a reset rather than a FIN
                }
            } catch (IOException e) {
                failed++;
            }
            if (System.nanoTime() - reported > TimeUnit.SECONDS.toNanos(5)) {
                reported = System.nanoTime();
                err.printf(Locale.ROOT, "  cuts: %d of %d%n", i + 1, count);
            }
        }
        return failed;
    }

    /**
     * The server's footprint once its connection, channel and session counts and its open files are back
     * where they were (the last cut connections close asynchronously: a socket's descriptor may outlive the
     * server's count of it by a moment), or the last one taken after 30 s.
     */
    private static Footprint settled(ChildServer server, Footprint before) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        Footprint after = server.footprint();
        while (after != null && before != null && System.nanoTime() < deadline
                && (after.connections() != before.connections() || after.channels() != before.channels()
                        || after.sessions() != before.sessions() || after.openFiles() > before.openFiles())) {
            TimeUnit.MILLISECONDS.sleep(500);
            after = server.footprint();
        }
        return after;
    }

    private static boolean joined(List<Thread> threads, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        for (Thread thread : threads) {
            long left = deadline - System.nanoTime();
            if (left > 0) {
                TimeUnit.NANOSECONDS.timedJoin(thread, left);
            }
            if (thread.isAlive()) {
                return false;
            }
        }
        return true;
    }

    private static void put(Map<String, String> result, String name, Footprint before, Footprint after,
            java.util.function.ToLongFunction<Footprint> field) {
        result.put(name + "_before", before == null ? "n/a" : Long.toString(field.applyAsLong(before)));
        result.put(name + "_after", after == null ? "n/a" : Long.toString(field.applyAsLong(after)));
    }

    private static String describe(Footprint f) {
        return f == null ? "n/a (no footprint probe)" : String.format(Locale.ROOT,
                "heap %d KiB after GC, %d threads, %d open files, %d connections, %d channels, %d sessions",
                f.heapUsed() / 1024, f.threads(), f.openFiles(), f.connections(), f.channels(), f.sessions());
    }
}
