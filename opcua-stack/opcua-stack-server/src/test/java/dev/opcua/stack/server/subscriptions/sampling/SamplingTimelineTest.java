package dev.opcua.stack.server.subscriptions.sampling;

import static dev.opcua.stack.server.subscriptions.sampling.FakeTime.MS;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The deadline arithmetic of one group: absolute grid, made-up ticks, restart beyond three intervals. */
class SamplingTimelineTest {

    @Test
    void deadlinesAreStartPlusWholeIntervalsWhateverTheWakeUpTimes() {
        SamplingTimeline timeline = new SamplingTimeline(10 * MS, 0);
        assertThat(timeline.takeTick(0)).isZero();
        assertThat(timeline.takeTick(13 * MS)).isEqualTo(10 * MS);
        assertThat(timeline.nextDeadline()).isEqualTo(20 * MS); // the next wait is 7 ms, not 10
        assertThat(timeline.takeTick(21 * MS)).isEqualTo(20 * MS);
    }

    @Test
    void aLagOfUpToThreeIntervalsIsMadeUpAndMoreRestartsFromNow() {
        SamplingTimeline timeline = new SamplingTimeline(10 * MS, 0);
        assertThat(timeline.lagsTooFar(30 * MS)).isFalse();
        assertThat(timeline.takeTick(30 * MS)).isZero();
        assertThat(timeline.nextDeadline()).isEqualTo(10 * MS);

        assertThat(timeline.lagsTooFar(40 * MS + 1)).isTrue();
        assertThat(timeline.takeTick(40 * MS + 1)).isEqualTo(40 * MS + 1);
        assertThat(timeline.nextDeadline()).isEqualTo(50 * MS + 1);
    }

    @Test
    void aOneHourIntervalOnANanosecondClockDoesNotOverflow() {
        long hour = 3_600_000 * MS;
        SamplingTimeline timeline = new SamplingTimeline(hour, Long.MAX_VALUE - hour / 2);
        long first = timeline.takeTick(Long.MAX_VALUE - hour / 2);
        assertThat(timeline.nextDeadline() - first).isEqualTo(hour);
        assertThat(timeline.lagsTooFar(first + hour)).isFalse();
        assertThat(timeline.lagsTooFar(first + 4 * hour + 1)).isTrue();
    }
}
