package dev.opcua.benchmarks.server;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The bench servers' stdout probe for the load harness: each stdin line {@code STATS} is answered by one
 * stdout line {@code STATS cpu_ns=<process CPU> alloc_bytes=<bytes allocated by live threads>
 * jit_ms=<time the JIT compilers spent so far, -1 when unknown> simulated=<values the simulation set so far,
 * -1 without one> rejected=<requests the request queue refused so far, -1 when the server does not tell>}. The count comes through this pipe rather than a Read of {@code Bench.Simulated} at the
 * window's edges: such a Read is the first Int64 the server encodes in a while, which deoptimised and
 * recompiled its encoder inside the window. {@code alloc_bytes} is a running total kept per thread id: each
 * answer adds what every live thread allocated since the previous answer (all of it for a thread born in
 * between), so a thread that dies (a cached pool's idle thread) takes only its bytes since the previous
 * answer with it and never makes the total go back: the delta of two answers is then a lower bound, not
 * the nonsense a plain sum over live threads gives when a long-lived thread dies. A server appends its
 * {@link RunningBenchServer#subscriptionStats()} pairs to the line, and one that mirrors its sessions
 * (HotAndMirrored) its {@link RunningBenchServer#mirrorStats()} pairs.
 *
 * <p>A stdin line {@code GC} collects garbage twice and is answered by {@code FOOTPRINT heap_used=<bytes
 * after the collection> threads=<live threads> connections=<n> channels=<n> sessions=<n>} (the counts -1
 * when the server does not tell): the {@code churn} scenario compares two of them.
 *
 * <p>A stdin line {@code SIMULATE} starts a simulation held until then (see {@link ValueSimulator#HOLD_PROPERTY})
 * and is answered by {@code SIMULATING}.
 */
final class StatsProbe {

    static final String COMMAND = "STATS";
    static final String GC = "GC";
    static final String SIMULATE = "SIMULATE";

    private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private final CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private final java.util.function.LongSupplier simulated;
    private final java.util.function.LongSupplier rejected;
    private final java.util.function.Supplier<String> counters;
    private final java.util.function.Supplier<String> mirror;
    private final Runnable startSimulation;
    private Map<Long, Long> lastSeen = new HashMap<>();
    private long allocated;

    /** A probe of a server without a held simulation. */
    StatsProbe(java.util.function.LongSupplier simulated, java.util.function.LongSupplier rejected,
            java.util.function.Supplier<String> counters) {
        this(simulated, rejected, counters, () -> "", () -> { });
    }

    /**
     * @param mirror the {@code key=value} pairs appended to the line (the subscriptions' counts, the session
     *        mirror's cost), empty for none
     * @param startSimulation starts a simulation held until the {@code SIMULATE} probe command
     */
    StatsProbe(java.util.function.LongSupplier simulated, java.util.function.LongSupplier rejected,
            java.util.function.Supplier<String> counters, java.util.function.Supplier<String> mirror,
            Runnable startSimulation) {
        this.simulated = simulated;
        this.startSimulation = startSimulation;
        this.rejected = rejected;
        this.counters = counters;
        this.mirror = mirror;
        // enabled up front so that the first answer already counts every live thread's bytes
        threads.setThreadAllocatedMemoryEnabled(true);
    }

    /** The answer line for the current moment. */
    String statsLine() {
        long total = allocatedBytes();
        long jitMillis = jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : -1;
        String mirrored = mirror.get();
        return String.format(Locale.ROOT, "STATS cpu_ns=%d alloc_bytes=%d jit_ms=%d simulated=%d rejected=%d%s",
                os.getProcessCpuTime(), total, jitMillis, simulated.getAsLong(), rejected.getAsLong(),
                mirrored.isEmpty() ? "" : " " + mirrored);
    }

    /** The answer to {@code GC}: collects garbage twice, then the heap in use, live threads and the server's counts. */
    String footprintLine() {
        System.gc();
        System.gc();
        long heapUsed = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        return String.format(Locale.ROOT, "FOOTPRINT heap_used=%d threads=%d %s", heapUsed, threads.getThreadCount(),
                counters.get());
    }

    /** The running allocation total: the bytes of each live thread since it was last seen, added up. */
    synchronized long allocatedBytes() {
        long[] ids = threads.getAllThreadIds();
        long[] bytes = threads.getThreadAllocatedBytes(ids);
        Map<Long, Long> seen = new HashMap<>(ids.length * 2);
        for (int i = 0; i < ids.length; i++) {
            if (bytes[i] >= 0) { // -1: the thread ended while we asked
                allocated += Math.max(0, bytes[i] - lastSeen.getOrDefault(ids[i], 0L));
                seen.put(ids[i], bytes[i]);
            }
        }
        lastSeen = seen;
        return allocated;
    }

    /** Answers {@code STATS} lines from stdin on the daemon thread {@code bench-stats} until stdin ends. */
    void start(PrintStream out) {
        Thread thread = new Thread(() -> answer(out), "bench-stats");
        thread.setDaemon(true);
        thread.start();
    }

    private void answer(PrintStream out) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.strip().equals(COMMAND)) {
                    out.println(statsLine());
                    out.flush();
                } else if (line.strip().equals(GC)) {
                    out.println(footprintLine());
                    out.flush();
                } else if (line.strip().equals(SIMULATE)) {
                    startSimulation.run();
                    out.println("SIMULATING");
                    out.flush();
                }
            }
        } catch (IOException e) {
            // stdin closed with the parent: nobody is left to ask
        }
    }
}
