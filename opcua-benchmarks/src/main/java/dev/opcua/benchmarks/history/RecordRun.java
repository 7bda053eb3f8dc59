package dev.opcua.benchmarks.history;

import dev.opcua.benchmarks.server.BenchAddressSpace;
import dev.opcua.benchmarks.server.ValueSimulator;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.history.HistoryPage;
import dev.opcua.stack.server.history.HistoryQuery;
import dev.opcua.stack.server.history.HistoryRecorder;
import dev.opcua.stack.server.history.HistoryStore;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.nodes.InMemoryNodeManagerBuilder;
import dev.opcua.stack.server.services.history.HistorySettings;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * One run of {@link HistoryRecordBench}: our {@link OpcUaServer} with {@code variables} historizing Double
 * variables, changed by the server itself ({@link ValueSimulator} on its thread {@code bench-simulator}, as a device
 * driver would, through {@link VariableNode#setValue}) at {@code rate} values per second, recorded by the server's
 * {@link HistoryRecorder} into the store. Each second it prints a progress line; after the warm-up it measures for
 * {@code seconds}; then it stops the changes, waits until the recorder has nothing left, closes the server and counts
 * what the store holds (after reopening it where it keeps values on disk).
 *
 * <p>Value number {@code n} (0, 1, ...) goes to {@code Var.(n % variables)} with the source timestamp {@code t0 +
 * n / rate} (its scheduled time, so every value of a variable has a time of its own: none replaces another in the
 * store) and the tick's wall-clock time as server timestamp. Every variable's initial value is recorded too, when
 * the recorder starts: {@code variables} values more.
 */
final class RecordRun {

    private static final long SECOND_TICKS = 10_000_000L;
    /** The thread that makes the values; it also runs the recorder's listener, which queues each value. */
    static final Predicate<String> DEVICE = "bench-simulator"::equals;
    private static final Predicate<String> STORE = name -> name.startsWith("opcua-history-");

    private RecordRun() {
    }

    static RecordResult run(RecordOptions options, BenchStores.Opened opened, PrintStream out) throws Exception {
        int n = options.variables();
        InMemoryNodeManagerBuilder nodes = InMemoryNodeManager.builder(BenchAddressSpace.NAMESPACE_URI)
                .folder(BenchAddressSpace.BENCH, f -> f.id(BenchAddressSpace.BENCH));
        for (int i = 0; i < n; i++) {
            String id = BenchAddressSpace.variableId(i);
            nodes.variable(BenchAddressSpace.BENCH + "." + BenchAddressSpace.variableBrowseName(i), BuiltinType.Double,
                    v -> v.id(id).displayName(id).value(Variant.ofDouble(0.0)).historizing());
        }
        InMemoryNodeManager manager = nodes.build();
        OpcUaServer server = OpcUaServer.builder()
                .applicationUri("urn:dev.opcua:bench:record")
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("127.0.0.1"))
                .nodeManager(manager)
                .history(opened.store(), HistorySettings.DEFAULT)
                .build();
        ProcessUsage.enable();
        server.start();
        List<NodeId> nodeIds = new ArrayList<>(n);
        VariableNode[] variables = new VariableNode[n];
        for (int i = 0; i < n; i++) {
            NodeId id = manager.nodeId(BenchAddressSpace.BENCH + "." + BenchAddressSpace.variableBrowseName(i));
            nodeIds.add(id);
            variables[i] = (VariableNode) manager.store().get(id);
        }
        HistoryRecorder recorder = server.historyRecorder();
        if (recorder.recordedNodes().size() != n) {
            throw new IllegalStateException("the recorder records " + recorder.recordedNodes().size()
                    + " variables, expected " + n);
        }
        out.printf(Locale.ROOT, "record: %d variables, %.0f values/s, store %s; warm-up %d s, measured %d s%n", n,
                options.rate(), opened.describe(), options.warmupSeconds(), options.seconds());
        Device device = new Device(variables, options.rate());
        ValueSimulator<DateTime> simulator = new ValueSimulator<>(n, options.rate(), device);
        Window window = new Window(n, recorder, simulator);
        Window.Point start = window.point();
        Window.Point measureStart = null;
        Window.Point last = start;
        long backlogMax = 0;
        long began = System.nanoTime();
        try {
            int total = options.warmupSeconds() + options.seconds();
            for (int second = 1; second <= total; second++) {
                long deadline = began + second * 1_000_000_000L;
                long wait;
                while ((wait = deadline - System.nanoTime()) > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                Window.Point now = window.point();
                out.println(window.progress(second, second <= options.warmupSeconds() ? "warmup" : "measure", last,
                        now));
                if (second == options.warmupSeconds()) {
                    measureStart = now;
                } else if (second > options.warmupSeconds()) {
                    backlogMax = Math.max(backlogMax, now.backlog());
                }
                last = now;
            }
        } finally {
            simulator.close();
        }
        Window.Point measureEnd = last;
        if (measureStart == null) {
            measureStart = start;
        }
        long drainBegan = System.nanoTime();
        recorder.flush().get(5, TimeUnit.MINUTES);
        while (window.point().backlog() > 0 && System.nanoTime() - drainBegan < TimeUnit.MINUTES.toNanos(5)) {
            recorder.flush().get(5, TimeUnit.MINUTES); // values queued by the last tick while it flushed
        }
        double drainSeconds = (System.nanoTime() - drainBegan) / 1e9;
        Window.Point end = window.point();
        server.close();
        long expected = simulator.valuesSet() + n;
        HistoryStore reopened = opened.reopen();
        long stored = count(reopened, nodeIds);
        return RecordResult.of(options, opened.describe(), measureStart, measureEnd, backlogMax, end, expected, stored,
                drainSeconds);
    }

    /** Every value of the nodes, read back page by page. */
    static long count(HistoryStore store, List<NodeId> nodes) throws Exception {
        long total = 0;
        for (NodeId node : nodes) {
            HistoryQuery query = HistoryQuery.forward(node, Long.MIN_VALUE, Long.MAX_VALUE, 100_000);
            while (true) {
                HistoryPage page = store.read(query).get(1, TimeUnit.MINUTES);
                total += page.values().size();
                if (!page.more()) {
                    break;
                }
                query = query.after(dev.opcua.stack.server.history.HistoryTime.ticksOf(
                        page.values().get(page.values().size() - 1)));
            }
        }
        return total;
    }

    /** The simulated device: sets value number n on its variable with the source time t0 + n / rate. */
    private static final class Device implements ValueSimulator.Target<DateTime> {

        private final VariableNode[] variables;
        private final double ticksPerValue;
        private final long t0 = DateTime.now().utcTicks() + SECOND_TICKS; // after every initial value's time

        Device(VariableNode[] variables, double rate) {
            this.variables = variables;
            this.ticksPerValue = SECOND_TICKS / rate;
        }

        @Override
        public DateTime timestamp(Instant now) {
            return DateTime.ofInstant(now);
        }

        @Override
        public void set(int variable, double value, DateTime serverTime) {
            long number = (long) value - BenchAddressSpace.SIMULATION_BASE;
            DateTime source = DateTime.ofTicks(t0 + (long) (number * ticksPerValue));
            variables[variable].setValue(DataValue.of(Variant.ofDouble(value), StatusCode.GOOD, source, 0, serverTime,
                    0));
        }

        @Override
        public void progress(long count) {
        }
    }

    /** The counters of one moment, and the progress line between two of them. */
    static final class Window {

        record Point(long nanos, long set, long appended, long dropped, long refused, long backlog,
                ProcessUsage usage) {
        }

        private final int initialValues;
        private final HistoryRecorder recorder;
        private final ValueSimulator<?> simulator;

        Window(int initialValues, HistoryRecorder recorder, ValueSimulator<?> simulator) {
            this.initialValues = initialValues;
            this.recorder = recorder;
            this.simulator = simulator;
        }

        Point point() {
            long set = simulator.valuesSet();
            return new Point(System.nanoTime(), set, recorder.appendedValues(), recorder.droppedValues(),
                    recorder.failedValues(), recorder.backlog(), ProcessUsage.now());
        }

        String progress(int second, String phase, Point a, Point b) {
            long appended = b.appended - a.appended;
            double seconds = (b.nanos - a.nanos) / 1e9;
            return String.format(Locale.ROOT, "%s t=%ds set=%d recorded=%d recorded_per_s=%.0f backlog=%d dropped=%d"
                            + " refused=%d cpu_us_per_value=%.2f bytes_per_value=%.0f",
                    phase, second, b.set, b.appended, appended / seconds, b.backlog, b.dropped, b.refused,
                    perValue(b.usage.processCpuNanos() - a.usage.processCpuNanos(), appended) / 1000,
                    perValue(b.usage.allocatedSince(a.usage, name -> true), appended));
        }
    }

    static double perValue(double amount, long values) {
        return values == 0 ? Double.NaN : amount / values;
    }

    /** Thread names of the store's and recorder's own threads. */
    static Predicate<String> storeThreads() {
        return STORE;
    }
}
