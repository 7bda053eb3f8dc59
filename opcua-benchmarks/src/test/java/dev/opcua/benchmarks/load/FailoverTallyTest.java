package dev.opcua.benchmarks.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.benchmarks.server.BenchAddressSpace;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.Variant;
import org.junit.jupiter.api.Test;

class FailoverTallyTest {

    private static DataValue value(long n) {
        return DataValue.of(Variant.ofDouble(BenchAddressSpace.SIMULATION_BASE + n));
    }

    @Test
    void a_gap_in_an_items_sequence_counts_its_values_as_missed_and_a_repeat_as_duplicate() {
        FailoverTally tally = new FailoverTally(10);
        tally.value(3, value(3));
        tally.value(3, value(13));
        tally.value(3, value(53)); // 23, 33, 43 missed
        tally.value(3, value(43)); // older than the last: a duplicate

        assertThat(tally.snapshot()).containsExactly(4, 3, 1, 0, 0);
    }

    @Test
    void missed_values_due_while_no_server_ran_count_as_absent_too() {
        FailoverTally tally = new FailoverTally(10);
        tally.value(3, value(3));
        tally.absent(20, 40); // 23 and 33 were never set
        tally.value(3, value(53)); // 13, 23, 33, 43 missed

        long[] counts = tally.snapshot();
        assertThat(counts[1]).as("missed").isEqualTo(4);
        assertThat(counts[4]).as("absent").isEqualTo(2);
    }

    @Test
    void values_not_of_the_simulation_are_foreign() {
        FailoverTally tally = new FailoverTally(10);
        tally.value(3, DataValue.of(Variant.ofDouble(0.0)));
        tally.value(3, value(4)); // another item's value

        assertThat(tally.snapshot()[3]).isEqualTo(2);
    }
}
