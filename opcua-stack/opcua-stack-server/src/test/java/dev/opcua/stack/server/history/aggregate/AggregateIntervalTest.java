package dev.opcua.stack.server.history.aggregate;

import static dev.opcua.stack.server.history.aggregate.RawData.ticks;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class AggregateIntervalTest {

    private static final long SECOND = RawData.TICKS_PER_SECOND;

    @Test
    void range_is_cut_into_processing_intervals_and_only_the_shorter_last_one_is_partial() {
        List<AggregateInterval> intervals = AggregateInterval.split(ticks(0), ticks(25), 10 * SECOND, 100);

        assertThat(intervals).containsExactly(
                new AggregateInterval(ticks(0), ticks(10), ticks(0), false),
                new AggregateInterval(ticks(10), ticks(20), ticks(10), false),
                new AggregateInterval(ticks(20), ticks(25), ticks(20), true));
    }

    @Test
    void processing_interval_zero_gives_one_interval_for_the_whole_range() {
        assertThat(AggregateInterval.split(ticks(0), ticks(25), 0, 100))
                .containsExactly(new AggregateInterval(ticks(0), ticks(25), ticks(0), false));
    }

    @Test
    void a_processing_interval_longer_than_the_range_gives_one_partial_interval() {
        assertThat(AggregateInterval.split(ticks(0), ticks(25), 60 * SECOND, 100))
                .containsExactly(new AggregateInterval(ticks(0), ticks(25), ticks(0), true));
    }

    @Test
    void reverse_range_is_cut_backwards_from_start_time_and_stamps_each_interval_with_its_later_end() {
        List<AggregateInterval> intervals = AggregateInterval.split(ticks(25), ticks(0), 10 * SECOND, 100);

        assertThat(intervals).containsExactly(
                new AggregateInterval(ticks(15), ticks(25), ticks(25), false),
                new AggregateInterval(ticks(5), ticks(15), ticks(15), false),
                new AggregateInterval(ticks(0), ticks(5), ticks(5), true));
    }

    @Test
    void equal_times_negative_intervals_and_too_many_intervals_are_rejected() {
        assertThatThrownBy(() -> AggregateInterval.split(ticks(5), ticks(5), SECOND, 100))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("equals");
        assertThatThrownBy(() -> AggregateInterval.split(ticks(0), ticks(5), -SECOND, 100))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("negative");
        assertThatThrownBy(() -> AggregateInterval.split(ticks(0), ticks(3600), SECOND, 100))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("3600 intervals");
    }
}
