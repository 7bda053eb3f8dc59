package dev.opcua.stack.server.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.HistoryUpdateType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What every {@link HistoryStore} that keeps modified values (Part 11, 6.5.3.3) does, run against each store. */
public abstract class ModifiedValuesContract {

    protected static final long SECOND = 10_000_000L;
    protected static final long T0 = DateTime.ofEpochMillis(1_700_000_000_000L).utcTicks();
    protected static final NodeId A = NodeId.string(2, "A");
    protected static final NodeId B = NodeId.string(2, "B");
    private static final HistoryModification ALICE =
            new HistoryModification(DateTime.ofTicks(T0 + 1000 * SECOND), "alice");
    private static final HistoryModification ANONYMOUS =
            new HistoryModification(DateTime.ofTicks(T0 + 2000 * SECOND), null);

    protected HistoryStore store;

    protected abstract HistoryStore open() throws Exception;

    @BeforeEach
    void openStore() throws Exception {
        store = open();
    }

    @AfterEach
    void closeStore() {
        if (store != null) {
            store.close();
        }
    }

    private static DataValue value(double v, long seconds) {
        DateTime time = DateTime.ofTicks(T0 + seconds * SECOND);
        return DataValue.of(Variant.ofDouble(v), StatusCode.GOOD, time, time);
    }

    private void fill(NodeId node, int count) {
        List<HistorySample> samples = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            samples.add(new HistorySample(node, value(i, i)));
        }
        store.append(samples).join();
    }

    private static List<String> describe(ModifiedPage page) {
        return page.values().stream().map(m -> m.info().updateType() + " " + m.value().value().value() + " @"
                + (m.ticks() - T0) / SECOND + "#" + m.sequence() + " by " + m.info().userName()).toList();
    }

    private ModifiedPage all(NodeId node) {
        return store.readModified(HistoryQuery.forward(node, Long.MIN_VALUE, Long.MAX_VALUE, 0), null).join();
    }

    @Test
    void keeps_the_inserted_value_and_the_values_replaced_with_who_and_when() {
        fill(A, 3);
        store.update(A, UpdateMode.INSERT, List.of(value(10, 5)), ALICE).join();
        store.update(A, UpdateMode.REPLACE, List.of(value(11, 1)), ALICE).join();
        store.update(A, UpdateMode.UPSERT, List.of(value(12, 1), value(13, 7)), ANONYMOUS).join();
        store.update(A, UpdateMode.INSERT, List.of(value(14, 2)), ALICE).join(); // refused: nothing modified
        ModifiedPage page = all(A);
        assertThat(describe(page)).containsExactly("Replace 1.0 @1#1 by alice", "Update 11.0 @1#2 by null",
                "Insert 10.0 @5#1 by alice", "Insert 13.0 @7#1 by null");
        assertThat(page.values().get(0).info().modificationTime()).isEqualTo(ALICE.time());
        assertThat(all(B).values()).isEmpty();
        // the raw history holds the new values
        assertThat(store.read(HistoryQuery.forward(A, T0, T0 + 2 * SECOND, 0)).join().values().get(1).value())
                .isEqualTo(Variant.ofDouble(12));
    }

    @Test
    void keeps_deleted_values_and_reads_backward_in_pages_across_one_time() {
        fill(A, 5);
        store.update(A, UpdateMode.REPLACE, List.of(value(20, 2)), ALICE).join();
        assertThat(store.delete(A, T0 + SECOND, T0 + 4 * SECOND, ANONYMOUS).join()).isEqualTo(3L);
        assertThat(describe(all(A))).containsExactly("Delete 1.0 @1#1 by null", "Replace 2.0 @2#1 by alice",
                "Delete 20.0 @2#2 by null", "Delete 3.0 @3#1 by null");
        HistoryQuery backward = HistoryQuery.backward(A, T0 + 10 * SECOND, T0, 2);
        ModifiedPage first = store.readModified(backward, null).join();
        assertThat(describe(first)).containsExactly("Delete 3.0 @3#1 by null", "Delete 20.0 @2#2 by null");
        assertThat(first.more()).isTrue();
        ModifiedPage second = store.readModified(backward, first.values().get(1)).join();
        assertThat(describe(second)).containsExactly("Replace 2.0 @2#1 by alice", "Delete 1.0 @1#1 by null");
        assertThat(second.more()).isFalse();
        ModifiedPage range = store.readModified(HistoryQuery.forward(A, T0 + 2 * SECOND, T0 + 3 * SECOND, 0), null)
                .join();
        assertThat(describe(range)).containsExactly("Replace 2.0 @2#1 by alice", "Delete 20.0 @2#2 by null");
    }

    @Test
    void trim_deletes_modified_values_older_than_the_age() {
        fill(A, 10);
        store.delete(A, T0, T0 + 10 * SECOND, ANONYMOUS).join();
        store.trim(new HistoryRetention(Duration.ofSeconds(4), 0), T0 + 10 * SECOND).join();
        assertThat(describe(all(A))).containsExactly("Delete 6.0 @6#1 by null", "Delete 7.0 @7#1 by null",
                "Delete 8.0 @8#1 by null", "Delete 9.0 @9#1 by null");
    }
}
