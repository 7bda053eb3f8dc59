package dev.opcua.stack.history.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.history.HistoryPage;
import dev.opcua.stack.server.history.HistoryQuery;
import dev.opcua.stack.server.history.HistoryRetention;
import dev.opcua.stack.server.history.HistorySample;
import dev.opcua.stack.server.history.UpdateMode;
import dev.opcua.stack.server.history.UpdateOutcome;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/** {@link JdbcHistoryStore} against a real PostgreSQL ({@link TestPostgres}), one table per test. */
class JdbcHistoryStoreIT {

    private static final long SECOND = 10_000_000L;
    private static final long T0 = DateTime.ofInstant(Instant.parse("2026-01-01T00:00:00Z")).utcTicks();
    private static final NodeId SPEED = NodeId.string(2, "Line1.Speed");
    private static final NodeId FLOW = NodeId.numeric(3, 42);

    private static DataSource dataSource;
    private JdbcHistoryStore store;
    private String table;

    @BeforeAll
    static void startPostgres() throws Exception {
        dataSource = TestPostgres.dataSource();
    }

    @BeforeEach
    void open(TestInfo info) throws Exception {
        table = "h_" + info.getTestMethod().orElseThrow().getName().toLowerCase().replaceAll("[^a-z0-9]", "")
                .substring(0, 20);
        store = JdbcHistoryStore.open(dataSource, JdbcHistoryOptions.DEFAULT.withTable(table));
    }

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
    }

    private static DataValue value(long second, double v) {
        DateTime time = DateTime.ofTicks(T0 + second * SECOND);
        return DataValue.of(Variant.ofDouble(v), StatusCode.GOOD, time, 1234, time, 0);
    }

    private static List<HistorySample> samples(NodeId node, int count) {
        List<HistorySample> samples = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            samples.add(new HistorySample(node, value(i, i * 1.5)));
        }
        return samples;
    }

    private static List<Double> numbers(HistoryPage page) {
        List<Double> out = new ArrayList<>();
        page.values().forEach(v -> out.add(v.value().doubleValue()));
        return out;
    }

    @Test
    void appended_values_are_read_back_exactly_forward_and_backward_with_limits() throws Exception {
        store.append(samples(SPEED, 2_500)).get(60, TimeUnit.SECONDS);
        store.append(samples(FLOW, 3)).get(60, TimeUnit.SECONDS);

        HistoryPage forward = store.read(HistoryQuery.forward(SPEED, T0 + 10 * SECOND, T0 + 20 * SECOND, 0)).join();
        HistoryPage limited = store.read(HistoryQuery.forward(SPEED, T0, Long.MAX_VALUE, 4)).join();
        HistoryPage backward = store.read(HistoryQuery.backward(SPEED, T0 + 2 * SECOND, Long.MIN_VALUE, 0)).join();

        assertThat(forward.values()).hasSize(10);
        assertThat(forward.values().get(0)).isEqualTo(value(10, 15.0)); // status, both timestamps and picoseconds
        assertThat(forward.more()).isFalse();
        assertThat(numbers(limited)).containsExactly(0.0, 1.5, 3.0, 4.5);
        assertThat(limited.more()).isTrue();
        assertThat(numbers(backward)).containsExactly(3.0, 1.5, 0.0);
        assertThat(store.read(HistoryQuery.forward(FLOW, T0, Long.MAX_VALUE, 0)).join().values()).hasSize(3);
        assertThat(store.writtenCount()).isEqualTo(2_503);
    }

    @Test
    void an_append_at_an_existing_time_replaces_the_value() throws Exception {
        store.append(List.of(new HistorySample(SPEED, value(1, 1)))).get(60, TimeUnit.SECONDS);
        store.append(List.of(new HistorySample(SPEED, value(1, 2)), new HistorySample(SPEED, value(1, 3))))
                .get(60, TimeUnit.SECONDS);

        assertThat(numbers(store.read(HistoryQuery.forward(SPEED, T0, Long.MAX_VALUE, 0)).join())).containsExactly(3.0);
    }

    @Test
    void updates_insert_replace_and_upsert_per_part_eleven_rules() throws Exception {
        store.append(samples(SPEED, 2)).get(60, TimeUnit.SECONDS);

        List<UpdateOutcome> inserts = store.update(SPEED, UpdateMode.INSERT, List.of(value(1, 9), value(5, 9))).join();
        List<UpdateOutcome> replaces = store.update(SPEED, UpdateMode.REPLACE, List.of(value(0, 7), value(6, 7)))
                .join();
        List<UpdateOutcome> upserts = store.update(SPEED, UpdateMode.UPSERT, List.of(value(5, 8), value(7, 8))).join();

        assertThat(inserts).containsExactly(UpdateOutcome.ENTRY_EXISTS, UpdateOutcome.INSERTED);
        assertThat(replaces).containsExactly(UpdateOutcome.REPLACED, UpdateOutcome.NO_ENTRY_EXISTS);
        assertThat(upserts).containsExactly(UpdateOutcome.REPLACED, UpdateOutcome.INSERTED);
        assertThat(numbers(store.read(HistoryQuery.forward(SPEED, T0, Long.MAX_VALUE, 0)).join()))
                .containsExactly(7.0, 1.5, 8.0, 8.0);
    }

    @Test
    void delete_removes_the_half_open_range_of_one_node() throws Exception {
        store.append(samples(SPEED, 10)).get(60, TimeUnit.SECONDS);
        store.append(samples(FLOW, 10)).get(60, TimeUnit.SECONDS);

        long deleted = store.delete(SPEED, T0 + 2 * SECOND, T0 + 5 * SECOND).join();

        assertThat(deleted).isEqualTo(3);
        assertThat(store.read(HistoryQuery.forward(SPEED, T0, Long.MAX_VALUE, 0)).join().values()).hasSize(7);
        assertThat(store.read(HistoryQuery.forward(FLOW, T0, Long.MAX_VALUE, 0)).join().values()).hasSize(10);
    }

    @Test
    void retention_deletes_by_age_and_then_the_oldest_by_size() throws Exception {
        store.append(samples(SPEED, 1_000)).get(60, TimeUnit.SECONDS);

        long byAge = store.trim(new HistoryRetention(Duration.ofSeconds(500), 0), T0 + 999 * SECOND).join();
        assertThat(byAge).isEqualTo(499); // times 0..498 are older than 999 - 500
        long bySize = store.trim(new HistoryRetention(Duration.ZERO, 1), T0).join();

        assertThat(bySize).isEqualTo(501);
        assertThat(store.read(HistoryQuery.forward(SPEED, T0, Long.MAX_VALUE, 0)).join().values()).isEmpty();
    }

    @Test
    void schema_creation_is_idempotent_and_range_reads_use_the_primary_key_index() throws Exception {
        store.append(samples(SPEED, 100)).get(60, TimeUnit.SECONDS);
        store.close();
        store = JdbcHistoryStore.open(dataSource, JdbcHistoryOptions.DEFAULT.withTable(table));
        assertThat(store.read(HistoryQuery.forward(SPEED, T0, Long.MAX_VALUE, 0)).join().values()).hasSize(100);
        assertThat(store.isHypertable()).isFalse(); // no TimescaleDB in the test server: detected, not required

        StringBuilder plan = new StringBuilder();
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("SET enable_seqscan = off");
            try (ResultSet rows = statement.executeQuery("EXPLAIN SELECT dv FROM " + table
                    + " WHERE node_id = 'ns=2;s=Line1.Speed' AND ts >= 1 AND ts < 2 ORDER BY ts")) {
                while (rows.next()) {
                    plan.append(rows.getString(1)).append('\n');
                }
            }
        }
        assertThat(plan.toString()).contains("Index").contains(table + "_pkey").doesNotContain("Sort");
    }

    @Test
    void a_full_buffer_refuses_appends_with_bad_resource_unavailable() throws Exception {
        store.close();
        store = JdbcHistoryStore.open(dataSource, new JdbcHistoryOptions(table, 10, 10, Duration.ofSeconds(5), 1,
                false));
        assertThatThrownBy(() -> store.append(samples(SPEED, 11)).join())
                .isInstanceOf(CompletionException.class).cause().isInstanceOf(UaException.class)
                .satisfies(e -> assertThat(((UaException) e).statusCode().value())
                        .isEqualTo(StatusCodes.BadResourceUnavailable));
        store.append(samples(SPEED, 10)).get(60, TimeUnit.SECONDS);
    }

    @Test
    void close_writes_what_the_buffer_holds() throws Exception {
        store.close();
        store = JdbcHistoryStore.open(dataSource, new JdbcHistoryOptions(table, 1_000, 10_000, Duration.ofSeconds(30),
                1, false));
        var pending = store.append(samples(SPEED, 50));
        store.close();

        assertThat(pending).isCompleted();
        store = JdbcHistoryStore.open(dataSource, JdbcHistoryOptions.DEFAULT.withTable(table));
        assertThat(store.read(HistoryQuery.forward(SPEED, T0, Long.MAX_VALUE, 0)).join().values()).hasSize(50);
    }
}
