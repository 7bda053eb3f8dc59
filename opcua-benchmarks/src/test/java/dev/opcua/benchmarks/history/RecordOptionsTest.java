package dev.opcua.benchmarks.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.history.embedded.SyncPolicy;
import org.junit.jupiter.api.Test;

/** The options of {@code HistoryRecordBench}. */
class RecordOptionsTest {

    @Test
    void options_are_parsed_over_the_defaults_and_bad_ones_are_named() {
        RecordOptions options = RecordOptions.parse("--variables", "10", "--rate", "500", "--sync", "operating-system");
        assertThat(options.variables()).isEqualTo(10);
        assertThat(options.rate()).isEqualTo(500);
        assertThat(options.sync()).isEqualTo(SyncPolicy.OPERATING_SYSTEM);
        assertThat(options.store()).isEqualTo("embedded");
        assertThat(RecordOptions.parse("--jdbc-url", "jdbc:postgresql://db/h").store()).isEqualTo("postgres");

        assertThatThrownBy(() -> RecordOptions.parse("--colour", "red")).hasMessageContaining("unknown option --colour");
        assertThatThrownBy(() -> RecordOptions.parse("--rate", "fast")).hasMessageContaining("--rate needs a number");
        assertThatThrownBy(() -> RecordOptions.parse("--store", "oracle")).hasMessageContaining("oracle");
        assertThatThrownBy(() -> RecordOptions.parse("--variables", "0")).hasMessageContaining("--variables >= 1");
        assertThatThrownBy(() -> RecordOptions.parse("--sync", "never")).hasMessageContaining("--sync");
    }
}
