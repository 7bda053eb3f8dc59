package dev.opcua.benchmarks.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.history.embedded.SyncPolicy;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The recording benchmark counts what it claims: a short, slow run stores every value it set, and says so. */
class HistoryRecordBenchIT {

    @TempDir
    Path directory;

    private static RecordResult run(RecordOptions options, BenchStores.Opened store, ByteArrayOutputStream out)
            throws Exception {
        try (store; PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8)) {
            return RecordRun.run(options, store, print);
        }
    }

    @Test
    void a_short_run_into_the_embedded_store_reads_back_every_value_set_and_the_initial_ones() throws Exception {
        RecordOptions options = new RecordOptions(20, 2_000, 0, 2, "embedded", directory, SyncPolicy.EVERY_COMMIT,
                null);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RecordResult result = run(options, BenchStores.open("embedded", directory, SyncPolicy.EVERY_COMMIT, null),
                out);

        assertThat(result.expected()).as("values set plus one initial value per variable").isGreaterThan(20);
        assertThat(result.stored()).isEqualTo(result.expected());
        assertThat(result.dropped()).isZero();
        assertThat(result.refused()).isZero();
        assertThat(result.complete()).isTrue();
        assertThat(result.line()).startsWith("RESULT bench=record store=embedded variables=20 ")
                .contains("complete=true");
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("measure t=1s", "measure t=2s", "backlog=");
    }

    @Test
    void a_lost_value_makes_the_run_incomplete() throws Exception {
        RecordOptions options = new RecordOptions(5, 500, 0, 1, "memory", null, SyncPolicy.EVERY_COMMIT, null);
        RecordResult result = run(options, BenchStores.open("memory", null, SyncPolicy.EVERY_COMMIT, null),
                new ByteArrayOutputStream());
        assertThat(result.complete()).isTrue();

        RecordResult lost = new RecordResult(result.store(), result.variables(), result.rate(), result.seconds(),
                result.recordedPerSecond(), result.backlogMax(), 0, 0, 0, 0, 0, 0, 0, 0, result.expected(),
                result.stored() - 1, 0);
        assertThat(lost.complete()).isFalse();
        assertThat(lost.line()).contains("complete=false");
    }
}
