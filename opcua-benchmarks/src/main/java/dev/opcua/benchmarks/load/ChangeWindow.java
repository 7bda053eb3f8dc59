package dev.opcua.benchmarks.load;

import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The measurement window of a scenario whose child server changes the values itself ({@code sessions}, {@code
 * items}): it opens at the server's count of values set (its {@code STATS} probe), lasts {@code durationS} seconds
 * with a progress line every {@value SessionsScenario#PROGRESS_S} s, and closes at the server's count, so that
 * {@code values} knows which values of each variable the window's notifications should carry. It takes the
 * server's CPU from /proc and the harness's CPU and allocation at both edges.
 *
 * @param elapsedNanos the window's length
 * @param serverCpu0 the server's CPU at the start, ns; -1 when unreadable
 * @param serverCpu1 the server's CPU at the end, ns; -1 when unreadable
 */
record ChangeWindow(long elapsedNanos, long serverCpu0, long serverCpu1, LoadHarness.ClientUsage.Snapshot client0,
        LoadHarness.ClientUsage.Snapshot client1) {

    /** Runs the window; the metrics' phase is DRAIN afterwards. */
    static ChangeWindow run(ChildServer server, WriteSequence values, SubMetrics metrics, int durationS,
            PrintStream err) throws InterruptedException {
        return run(server, values, metrics, durationS, LoadHarness.ClientUsage.RAW_THREADS, err);
    }

    /**
     * Runs the window, counting the allocations of the threads named with {@code clientThreads} as the client's; the
     * metrics' phase is DRAIN afterwards.
     */
    static ChangeWindow run(ChildServer server, WriteSequence values, SubMetrics metrics, int durationS,
            List<String> clientThreads, PrintStream err) throws InterruptedException {
        LoadHarness.ClientUsage client = new LoadHarness.ClientUsage(clientThreads);
        ServerStats a0 = server.stats();
        long s0 = server.cpuNanos();
        LoadHarness.ClientUsage.Snapshot c0 = client.snapshot();
        if (a0 == null || a0.simulatedValues() < 0) {
            throw new IllegalStateException("the server's probe did not tell its simulated values");
        }
        long t0 = System.nanoTime();
        values.openWindowAt(a0.simulatedValues());
        metrics.openWindow();
        Thread progress = new Thread(() -> SessionsScenario.windowProgress(metrics, t0, durationS, err),
                "load-progress");
        progress.setDaemon(true);
        progress.start();
        TimeUnit.SECONDS.sleep(durationS);
        metrics.closeWindow(RequestChain.Phase.DRAIN);
        long elapsed = System.nanoTime() - t0;
        long s1 = server.cpuNanos();
        LoadHarness.ClientUsage.Snapshot c1 = client.snapshot();
        ServerStats a1 = server.stats();
        progress.interrupt();
        if (a1 == null || a1.simulatedValues() <= a0.simulatedValues()) {
            throw new IllegalStateException("the server changed no value in the window");
        }
        values.closeWindowAt(a1.simulatedValues());
        return new ChangeWindow(elapsed, s0, s1, c0, c1);
    }

    double seconds() {
        return elapsedNanos / 1e9;
    }

    /** The server's CPU over the window per {@code operations}, µs; n/a when /proc could not tell. */
    String serverCpuMicrosPer(long operations) {
        return serverCpu0 < 0 || serverCpu1 < 0 ? "n/a"
                : LoadHarness.fmt((serverCpu1 - serverCpu0) / 1e3 / Math.max(1, operations));
    }

    /** The server's CPU over the window, ms per second; n/a when /proc could not tell. */
    String serverCpuMillisPerSecond() {
        return serverCpu0 < 0 || serverCpu1 < 0 ? "n/a"
                : LoadHarness.fmt((serverCpu1 - serverCpu0) / 1e6 / seconds());
    }
}
