package dev.opcua.benchmarks.server;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

/**
 * The names of the bench address space, identical in both servers: in namespace {@value #NAMESPACE_URI},
 * a folder {@code Bench} under Objects (Part 5, 8.2.4) with Double variables {@code Var.i}, an Int32
 * {@code Counter} and an Int64 {@code Simulated} (see {@link ValueSimulator}), and an object {@code Methods}
 * with {@code Add(Int32 a, Int32 b) -> Int32} and
 * {@code Emit(Int64 first, Int32 count)}, which reports {@code count} events of BaseEventType (Part 5,
 * 6.4.2) on the Server object, source the Server object, Severity {@value #EVENT_SEVERITY}, whose
 * Messages are the numbers {@code first, first + 1, ...} in decimal ({@link #eventMessage(long)}).
 * Node ids are strings; a variable's BrowseName is {@code Var<i>} because the in-memory builder uses
 * dots as path separators (its NodeId identifier stays {@code Var.i}).
 */
public final class BenchAddressSpace {

    public static final String NAMESPACE_URI = "urn:bench";
    public static final String BENCH = "Bench";
    public static final String COUNTER = "Counter";
    public static final String METHODS = "Methods";
    public static final String ADD = "Methods.Add";
    public static final String EMIT = "Methods.Emit";
    public static final int EVENT_SEVERITY = 500;
    /** The most events one Emit call reports; a larger count is refused with BadInvalidArgument. */
    public static final int MAX_EMIT = 10_000;
    public static final long COUNTER_PERIOD_MS = 100;
    /** Int64 variable: the values a {@link ValueSimulator} has set so far (0 without {@code --simulate}). */
    public static final String SIMULATED = "Simulated";
    /**
     * The first simulated value: above every value a short run writes and every Var's initial 0, below
     * 2^52 so that every simulated value is an exact Double.
     */
    public static final long SIMULATION_BASE = 1L << 40;

    private BenchAddressSpace() {
    }

    /**
     * Prints {@code READY <endpoint url>} and blocks until SIGTERM or Ctrl-C, whose shutdown hook
     * closes the server. The main thread waits because Milo's threads are daemons: the JVM would
     * otherwise exit as soon as main returns. After READY it answers {@code STATS} probes on stdin
     * (see {@link StatsProbe}).
     */
    static void serveUntilStopped(RunningBenchServer server) {
        StatsProbe probe = new StatsProbe(server::simulatedValues, server::rejectedRequests, server::counters,
                () -> (server.subscriptionStats() + " " + server.mirrorStats()).strip(), server::startSimulation);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.close();
            } finally {
                stopped.countDown();
            }
        }, "bench-shutdown"));
        System.out.println("READY " + server.endpointUrl());
        System.out.flush();
        probe.start(System.out);
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The Message text of the event Emit reports for number {@code n}. */
    public static String eventMessage(long n) {
        return Long.toString(n);
    }

    /** The string identifier of variable {@code i}. */
    public static String variableId(int i) {
        return "Var." + i;
    }

    /** The BrowseName (name part) of variable {@code i}. */
    public static String variableBrowseName(int i) {
        return "Var" + i;
    }

    /**
     * Calls {@code sink} with 1, 2, 3 ... every {@link #COUNTER_PERIOD_MS} ms on the daemon thread
     * {@code bench-counter}; shutting the executor down stops it.
     */
    static ScheduledExecutorService startCounter(IntConsumer sink) {
        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "bench-counter");
            thread.setDaemon(true);
            return thread;
        });
        int[] value = {0};
        executor.scheduleAtFixedRate(() -> sink.accept(++value[0]), COUNTER_PERIOD_MS, COUNTER_PERIOD_MS,
                TimeUnit.MILLISECONDS);
        return executor;
    }
}
