package dev.opcua.benchmarks.server;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The bench servers' stdout probe for the load harness: each stdin line {@code STATS} is answered by one
 * stdout line {@code STATS cpu_ns=<process CPU> alloc_bytes=<bytes allocated by live threads>
 * jit_ms=<time the JIT compilers spent so far, -1 when unknown> simulated=<values the simulation set so far,
 * -1 without one>}. The count comes through this pipe rather than a Read of {@code Bench.Simulated} at the
 * window's edges: such a Read is the first Int64 the server encodes in a while, which deoptimised and
 * recompiled its encoder inside the window. The
 * allocation sum covers only threads alive at the moment of the answer; a thread that died in between
 * takes its bytes with it, so the delta of two answers is a lower bound when threads come and go.
 */
final class StatsProbe {

    static final String COMMAND = "STATS";

    private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private final CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private final java.util.function.LongSupplier simulated;

    StatsProbe(java.util.function.LongSupplier simulated) {
        this.simulated = simulated;
        // enabled up front so that the first answer already counts every live thread's bytes
        threads.setThreadAllocatedMemoryEnabled(true);
    }

    /** The answer line for the current moment. */
    String statsLine() {
        long[] bytes = threads.getThreadAllocatedBytes(threads.getAllThreadIds());
        long total = 0;
        for (long b : bytes) {
            if (b > 0) {
                total += b;
            }
        }
        long jitMillis = jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : -1;
        return String.format(Locale.ROOT, "STATS cpu_ns=%d alloc_bytes=%d jit_ms=%d simulated=%d",
                os.getProcessCpuTime(), total, jitMillis, simulated.getAsLong());
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
                }
            }
        } catch (IOException e) {
            // stdin closed with the parent: nobody is left to ask
        }
    }
}
