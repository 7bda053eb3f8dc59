package dev.opcua.stack.server.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.nodes.NamespaceTable;
import dev.opcua.stack.server.nodes.NodeManager;
import dev.opcua.stack.server.nodes.NodeManagers;
import dev.opcua.stack.server.nodes.OperationContext;
import dev.opcua.stack.server.nodes.ReadOperation;
import dev.opcua.stack.server.nodes.WriteOperation;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The recorder finds historizing variables, records pushed and sampled changes, and applies retention. */
class HistoryRecorderTest {

    /** How long the recorder may take to reach the store on a loaded machine, and how often the test looks. */
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Duration POLL = Duration.ofMillis(20);

    private static final String NS = "urn:test:recorder";

    private final AtomicReference<Double> temperature = new AtomicReference<>(20.0);
    private InMemoryHistoryStore store;
    private InMemoryNodeManager nodes;
    private NodeManagers managers;
    private HistoryRecorder recorder;

    @BeforeEach
    void setUp() {
        store = new InMemoryHistoryStore();
        nodes = InMemoryNodeManager.builder(NS)
                .variable("Stored", BuiltinType.Double, v -> v.value(Variant.ofDouble(1)).historizing())
                .variable("Supplied", BuiltinType.Double, v -> v.valueSupplier(
                        () -> Variant.ofDouble(temperature.get())).historizing())
                .variable("Listed", BuiltinType.Double, v -> v.value(Variant.ofDouble(5)))
                .variable("Ignored", BuiltinType.Double, v -> v.value(Variant.ofDouble(9)))
                .build();
        managers = new NodeManagers(new NamespaceTable("urn:test:recorder:server"));
        managers.register(nodes);
        managers.startup();
    }

    @AfterEach
    void tearDown() {
        if (recorder != null) {
            recorder.close();
        }
        store.close();
    }

    private List<Double> history(String path) {
        return store.read(HistoryQuery.forward(nodes.nodeId(path), 0, Long.MAX_VALUE, 0)).join().values().stream()
                .map(v -> (Double) v.value().value()).toList();
    }

    @Test
    void records_pushed_and_sampled_changes_of_historizing_and_listed_variables() throws Exception {
        NodeId listed = nodes.nodeId("Listed");
        recorder = new HistoryRecorder(store, managers, HistoryRecording.DEFAULT.withNodes(Set.of(listed), true)
                .withSamplingInterval(Duration.ofMillis(20)));
        recorder.start();
        assertThat(recorder.recordedNodes()).containsExactlyInAnyOrder(nodes.nodeId("Stored"),
                nodes.nodeId("Supplied"), listed);
        VariableNode listedNode = (VariableNode) nodes.store().get(listed);
        assertThat(listedNode.historizing()).isTrue();
        assertThat(listedNode.accessLevel() & 0x0C).isEqualTo(0x0C);

        VariableNode stored = (VariableNode) nodes.store().get(nodes.nodeId("Stored"));
        DateTime t1 = DateTime.ofEpochMillis(1_700_000_000_000L);
        stored.setValue(DataValue.of(Variant.ofDouble(2), StatusCode.GOOD, t1, null));
        stored.setValue(DataValue.of(Variant.ofDouble(3), StatusCode.GOOD, DateTime.ofEpochMillis(1_700_000_001_000L),
                null));
        temperature.set(21.5);
        await().atMost(WAIT).pollInterval(POLL)
                .until(() -> history("Stored").containsAll(List.of(1.0, 2.0, 3.0))
                        && history("Supplied").contains(21.5));
        assertThat(history("Supplied")).containsExactly(20.0, 21.5); // unchanged samples are not recorded again
        assertThat(history("Listed")).containsExactly(5.0);
        assertThat(history("Ignored")).isEmpty();
        recorder.close();
        assertThat(recorder.appendedValues()).isEqualTo(store.size());
        assertThat(recorder.droppedValues()).isZero();
    }

    @Test
    void a_sample_read_while_a_newer_value_is_recorded_does_not_record_the_older_value() throws Exception {
        // another manager's variable, sampled; its read answers when the test says so
        CompletableFuture<Void> readGate = new CompletableFuture<>();
        CountDownLatch reading = new CountDownLatch(1);
        NodeManager gated = new NodeManager() {
            @Override
            public List<String> namespaceUris() {
                return List.of("urn:test:gated");
            }

            @Override
            public CompletableFuture<Void> read(OperationContext context, List<ReadOperation> operations) {
                reading.countDown();
                return readGate.thenRun(() -> operations.forEach(op -> op.complete(DataValue.of(Variant.ofDouble(1),
                        StatusCode.GOOD, DateTime.ofEpochMillis(1_700_000_000_000L), null))));
            }

            @Override
            public CompletableFuture<Void> write(OperationContext context, List<WriteOperation> operations) {
                return CompletableFuture.completedFuture(null);
            }
        };
        NodeManagers gatedManagers = new NodeManagers(new NamespaceTable("urn:test:recorder:server"));
        gatedManagers.register(gated);
        gatedManagers.startup();
        NodeId variable = NodeId.string(gatedManagers.namespaces().indexOf("urn:test:gated"), "Level");
        recorder = new HistoryRecorder(store, gatedManagers, HistoryRecording.DEFAULT.withNodes(Set.of(variable), false)
                .withSamplingInterval(Duration.ofHours(1)));
        recorder.start();
        assertThat(reading.await(30, TimeUnit.SECONDS)).as("the first sample reads").isTrue();

        // the manager reports a newer value while the sample's read of the older one is under way
        recorder.record(variable, DataValue.of(Variant.ofDouble(2), StatusCode.GOOD,
                DateTime.ofEpochMillis(1_700_000_001_000L), null));
        readGate.complete(null);
        recorder.close();

        assertThat(store.read(HistoryQuery.forward(variable, 0, Long.MAX_VALUE, 0)).join().values())
                .extracting(v -> v.value().value()).containsExactly(2.0);
        assertThat(recorder.appendedValues()).isEqualTo(1);
    }

    @Test
    void a_store_that_falls_behind_bounds_the_backlog_and_newly_recorded_values_are_dropped_and_counted()
            throws Exception {
        List<CompletableFuture<Void>> pending = new CopyOnWriteArrayList<>();
        AtomicLong handed = new AtomicLong();
        // appends complete only when the test says so; everything else as the in-memory store
        HistoryStore stalled = new HistoryStore() {
            @Override
            public CompletableFuture<Void> append(List<HistorySample> samples) {
                CompletableFuture<Void> done = new CompletableFuture<>();
                pending.add(done);
                handed.addAndGet(samples.size());
                List<HistorySample> copy = List.copyOf(samples);
                return done.thenCompose(ignored -> store.append(copy));
            }

            @Override
            public CompletableFuture<HistoryPage> read(HistoryQuery query) {
                return store.read(query);
            }

            @Override
            public CompletableFuture<List<UpdateOutcome>> update(NodeId nodeId, UpdateMode mode,
                    List<DataValue> values) {
                return store.update(nodeId, mode, values);
            }

            @Override
            public CompletableFuture<Long> delete(NodeId nodeId, long startTicks, long endTicks) {
                return store.delete(nodeId, startTicks, endTicks);
            }

            @Override
            public CompletableFuture<Long> trim(HistoryRetention retention, long nowTicks) {
                return store.trim(retention, nowTicks);
            }

            @Override
            public void close() {
            }
        };
        recorder = new HistoryRecorder(stalled, managers, HistoryRecording.DEFAULT);
        recorder.start(); // records the initial values of Stored and Supplied (one of them maybe after the flood)
        NodeId node = nodes.nodeId("Ignored");
        long kept = HistoryRecorder.MAX_QUEUED + HistoryRecorder.MAX_APPENDING;
        int offered = (int) kept + 1_000;
        // the flusher hands the store at most MAX_APPENDING unacknowledged values (offered in parts the queue
        // holds, each handed over before the next: nothing dropped yet) ...
        int i = 0;
        while (handed.get() < HistoryRecorder.MAX_APPENDING) {
            for (int part = i + 40_000; i < part; i++) {
                record(node, i);
            }
            await().atMost(WAIT).pollInterval(POLL)
                    .until(() -> recorder.backlog() == handed.get() || handed.get() == HistoryRecorder.MAX_APPENDING);
        }
        assertThat(recorder.droppedValues()).isZero();
        // ... and the queue holds MAX_QUEUED more; the rest is dropped
        for (; i < offered; i++) {
            record(node, i);
        }
        await().atMost(WAIT).pollInterval(POLL).until(() -> recorder.backlog() == kept);
        assertThat(handed.get()).isEqualTo(HistoryRecorder.MAX_APPENDING);
        assertThat(recorder.droppedValues()).isGreaterThanOrEqualTo(offered - kept);
        assertThat(recorder.appendedValues()).isZero();

        await().atMost(WAIT).pollInterval(POLL).until(() -> { // the store catches up: the queued values follow
            pending.forEach(done -> done.complete(null));
            return recorder.backlog() == 0;
        });
        assertThat(recorder.appendedValues()).isEqualTo(kept);
        List<Double> history = history("Ignored");
        long others = history("Stored").size() + history("Supplied").size();
        assertThat(history.size() + others).isEqualTo(kept);
        assertThat(recorder.droppedValues()).isEqualTo(offered + others - kept);
        for (int k = 0; k < history.size(); k++) {
            assertThat(history.get(k)).as("the oldest are kept, the newest dropped").isEqualTo((double) k);
        }
    }

    /** Records value {@code i} of a node at a time of its own. */
    private void record(NodeId node, int i) {
        DateTime time = DateTime.ofTicks(1_000_000L * (i + 1));
        recorder.record(node, DataValue.of(Variant.ofDouble(i), StatusCode.GOOD, time, time));
    }

    @Test
    void retention_deletes_values_older_than_the_maximum_age() throws Exception {
        NodeId stored = nodes.nodeId("Stored");
        DateTime old = DateTime.ofInstant(java.time.Instant.now().minus(Duration.ofDays(2)));
        store.append(List.of(new HistorySample(stored, DataValue.of(Variant.ofDouble(-1), StatusCode.GOOD, old, old))))
                .join();
        recorder = new HistoryRecorder(store, managers, new HistoryRecording(Set.of(), false, Duration.ofMillis(50),
                new HistoryRetention(Duration.ofDays(1), 0), Duration.ofSeconds(1)));
        recorder.start();
        await().atMost(WAIT).pollInterval(POLL)
                .until(() -> !history("Stored").contains(-1.0) && history("Stored").contains(1.0));
    }
}
