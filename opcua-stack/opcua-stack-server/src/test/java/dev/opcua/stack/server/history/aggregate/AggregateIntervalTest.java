package dev.opcua.stack.server.history.aggregate;

import static dev.opcua.stack.server.history.aggregate.RawData.ticks;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class AggregateIntervalTest {

    private static final long SECOND = RawData.TICKS_PER_SECOND;

    @Test
    void rangeIsCutIntoProcessingIntervalsAndOnlyTheShorterLastOneIsPartial() {
        List<AggregateInterval> intervals = AggregateInterval.split(ticks(0), ticks(25), 10 * SECOND, 100);

        assertThat(intervals).containsExactly(
                new AggregateInterval(ticks(0), ticks(10), ticks(0), false),
                new AggregateInterval(ticks(10), ticks(20), ticks(10), false),
                new AggregateInterval(ticks(20), ticks(25), ticks(20), true));
    }

    @Test
    void processingIntervalZeroGivesOneIntervalForTheWholeRange() {
        assertThat(AggregateInterval.split(ticks(0), ticks(25), 0, 100))
                .containsExactly(new AggregateInterval(ticks(0), ticks(25), ticks(0), false));
    }

    @Test
    void aProcessingIntervalLongerThanTheRangeGivesOnePartialInterval() {
        assertThat(AggregateInterval.split(ticks(0), ticks(25), 60 * SECOND, 100))
                .containsExactly(new AggregateInterval(ticks(0), ticks(25), ticks(0), true));
    }

    @Test
    void reverseRangeIsCutBackwardsFromStartTimeAndStampsEachIntervalWithItsLaterEnd() {
        List<AggregateInterval> intervals = AggregateInterval.split(ticks(25), ticks(0), 10 * SECOND, 100);

        assertThat(intervals).containsExactly(
                new AggregateInterval(ticks(15), ticks(25), ticks(25), false),
                new AggregateInterval(ticks(5), ticks(15), ticks(15), false),
                new AggregateInterval(ticks(0), ticks(5), ticks(5), true));
    }

    @Test
    void equalTimesNegativeIntervalsAndTooManyIntervalsAreRejected() {
        assertThatThrownBy(() -> AggregateInterval.split(ticks(5), ticks(5), SECOND, 100))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("equals");
        assertThatThrownBy(() -> AggregateInterval.split(ticks(0), ticks(5), -SECOND, 100))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("negative");
        assertThatThrownBy(() -> AggregateInterval.split(ticks(0), ticks(3600), SECOND, 100))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("3600 intervals");
    }
}
