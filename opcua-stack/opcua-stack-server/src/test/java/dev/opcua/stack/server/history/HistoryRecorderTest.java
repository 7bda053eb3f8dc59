package dev.opcua.stack.server.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.nodes.NamespaceTable;
import dev.opcua.stack.server.nodes.NodeManagers;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The recorder finds historizing variables, records pushed and sampled changes, and applies retention. */
class HistoryRecorderTest {

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

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(condition.getAsBoolean()).as("condition within 30 s").isTrue();
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
        await(() -> history("Stored").containsAll(List.of(1.0, 2.0, 3.0)) && history("Supplied").contains(21.5));
        assertThat(history("Supplied")).containsExactly(20.0, 21.5); // unchanged samples are not recorded again
        assertThat(history("Listed")).containsExactly(5.0);
        assertThat(history("Ignored")).isEmpty();
        recorder.close();
        assertThat(recorder.appendedValues()).isEqualTo(store.size());
        assertThat(recorder.droppedValues()).isZero();
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
        await(() -> !history("Stored").contains(-1.0) && history("Stored").contains(1.0));
    }
}
