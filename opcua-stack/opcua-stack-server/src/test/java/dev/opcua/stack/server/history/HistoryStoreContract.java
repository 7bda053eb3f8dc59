package dev.opcua.stack.server.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What every {@link HistoryStore} does: the behaviour the services rely on, run against each store. */
public abstract class HistoryStoreContract {

    protected static final long SECOND = 10_000_000L;
    protected static final long T0 = DateTime.ofEpochMillis(1_700_000_000_000L).utcTicks();
    protected static final NodeId A = NodeId.string(2, "A");
    protected static final NodeId B = NodeId.string(2, "B");

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

    protected static DataValue value(double v, long ticks) {
        DateTime time = DateTime.ofTicks(ticks);
        return DataValue.of(Variant.ofDouble(v), StatusCode.GOOD, time, time);
    }

    /** Values 0..count-1 of a node, one second apart from T0. */
    protected void fill(NodeId node, int count) {
        List<HistorySample> samples = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            samples.add(new HistorySample(node, value(i, T0 + i * SECOND)));
        }
        store.append(samples).join();
    }

    protected static List<Double> numbers(HistoryPage page) {
        return page.values().stream().map(v -> (Double) v.value().value()).toList();
    }

    @Test
    void reads_a_range_forward_with_the_start_included_and_the_end_excluded() {
        fill(A, 10);
        fill(B, 3);
        HistoryPage page = store.read(HistoryQuery.forward(A, T0 + 2 * SECOND, T0 + 5 * SECOND, 0)).join();
        assertThat(numbers(page)).containsExactly(2.0, 3.0, 4.0);
        assertThat(page.more()).isFalse();
        assertThat(page.values().get(0).sourceTimestamp().utcTicks()).isEqualTo(T0 + 2 * SECOND);
    }

    @Test
    void reads_backward_newest_first_and_pages_with_a_limit() {
        fill(A, 10);
        HistoryQuery query = HistoryQuery.backward(A, T0 + 8 * SECOND, T0, 3);
        HistoryPage first = store.read(query).join();
        assertThat(numbers(first)).containsExactly(8.0, 7.0, 6.0);
        assertThat(first.more()).isTrue();
        HistoryPage rest = store.read(query.after(first.lastTicks()).withLimit(0)).join();
        assertThat(numbers(rest)).containsExactly(5.0, 4.0, 3.0, 2.0, 1.0);
        assertThat(rest.more()).isFalse();
    }

    @Test
    void a_limit_that_ends_exactly_with_the_range_says_no_more() {
        fill(A, 4);
        HistoryPage page = store.read(HistoryQuery.forward(A, T0, T0 + 4 * SECOND, 4)).join();
        assertThat(page.values()).hasSize(4);
        assertThat(page.more()).isFalse();
    }

    @Test
    void finds_bounding_values_and_nothing_for_an_unknown_node() {
        fill(A, 5);
        assertThat(store.latestAtOrBefore(A, T0 + 2 * SECOND + 1).join().orElseThrow().value().value()).isEqualTo(2.0);
        assertThat(store.earliestAtOrAfter(A, T0 + 2 * SECOND + 1).join().orElseThrow().value().value()).isEqualTo(3.0);
        assertThat(store.latestAtOrBefore(A, T0 - 1).join()).isEmpty();
        assertThat(store.read(HistoryQuery.forward(B, 0, Long.MAX_VALUE, 0)).join().values()).isEmpty();
    }

    @Test
    void append_replaces_a_value_at_the_same_time() {
        fill(A, 3);
        store.append(List.of(new HistorySample(A, value(42, T0 + SECOND)))).join();
        assertThat(numbers(store.read(HistoryQuery.forward(A, 0, Long.MAX_VALUE, 0)).join()))
                .containsExactly(0.0, 42.0, 2.0);
    }

    @Test
    void update_inserts_replaces_and_refuses_per_value() {
        fill(A, 3);
        List<UpdateOutcome> insert = store.update(A, UpdateMode.INSERT,
                List.of(value(10, T0 + SECOND), value(11, T0 + 5 * SECOND))).join();
        assertThat(insert).containsExactly(UpdateOutcome.ENTRY_EXISTS, UpdateOutcome.INSERTED);
        List<UpdateOutcome> replace = store.update(A, UpdateMode.REPLACE,
                List.of(value(20, T0 + SECOND), value(21, T0 + 7 * SECOND))).join();
        assertThat(replace).containsExactly(UpdateOutcome.REPLACED, UpdateOutcome.NO_ENTRY_EXISTS);
        List<UpdateOutcome> upsert = store.update(A, UpdateMode.UPSERT,
                List.of(value(30, T0 + 2 * SECOND), value(31, T0 + 9 * SECOND))).join();
        assertThat(upsert).containsExactly(UpdateOutcome.REPLACED, UpdateOutcome.INSERTED);
        assertThat(numbers(store.read(HistoryQuery.forward(A, 0, Long.MAX_VALUE, 0)).join()))
                .containsExactly(0.0, 20.0, 30.0, 11.0, 31.0);
    }

    @Test
    void delete_removes_a_half_open_range_of_one_node() {
        fill(A, 10);
        fill(B, 10);
        assertThat(store.delete(A, T0 + 2 * SECOND, T0 + 5 * SECOND).join()).isEqualTo(3L);
        assertThat(numbers(store.read(HistoryQuery.forward(A, 0, Long.MAX_VALUE, 0)).join()))
                .containsExactly(0.0, 1.0, 5.0, 6.0, 7.0, 8.0, 9.0);
        assertThat(store.read(HistoryQuery.forward(B, 0, Long.MAX_VALUE, 0)).join().values()).hasSize(10);
        assertThat(store.delete(A, T0 + 2 * SECOND, T0 + 5 * SECOND).join()).isZero();
    }

    @Test
    void trim_deletes_values_older_than_the_age() {
        fill(A, 10);
        long now = T0 + 10 * SECOND;
        long deleted = store.trim(new HistoryRetention(Duration.ofSeconds(4), 0), now).join();
        assertThat(deleted).isEqualTo(6L);
        assertThat(numbers(store.read(HistoryQuery.forward(A, 0, Long.MAX_VALUE, 0)).join()))
                .containsExactly(6.0, 7.0, 8.0, 9.0);
    }
}
