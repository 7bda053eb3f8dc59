package dev.opcua.stack.server.subscriptions.sampling;

import static dev.opcua.stack.server.subscriptions.sampling.FakeTime.MS;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The deadline arithmetic of one group: absolute grid, made-up ticks, restart beyond three intervals. */
class SamplingTimelineTest {

    @Test
    void deadlines_are_start_plus_whole_intervals_whatever_the_wake_up_times() {
        SamplingTimeline timeline = new SamplingTimeline(10 * MS, 0);
        assertThat(timeline.takeTick(0)).isZero();
        assertThat(timeline.takeTick(13 * MS)).isEqualTo(10 * MS);
        assertThat(timeline.nextDeadline()).isEqualTo(20 * MS); // the next wait is 7 ms, not 10
        assertThat(timeline.takeTick(21 * MS)).isEqualTo(20 * MS);
    }

    @Test
    void a_lag_of_up_to_three_intervals_is_made_up_and_more_restarts_from_now() {
        SamplingTimeline timeline = new SamplingTimeline(10 * MS, 0);
        assertThat(timeline.lagsTooFar(30 * MS)).isFalse();
        assertThat(timeline.takeTick(30 * MS)).isZero();
        assertThat(timeline.nextDeadline()).isEqualTo(10 * MS);

        assertThat(timeline.lagsTooFar(40 * MS + 1)).isTrue();
        assertThat(timeline.takeTick(40 * MS + 1)).isEqualTo(40 * MS + 1);
        assertThat(timeline.nextDeadline()).isEqualTo(50 * MS + 1);
    }

    @Test
    void aligned_ticks_fall_on_the_intervals_grid_a_lead_ahead_of_it_after_the_first() {
        long lead = 5 * MS;
        long start = 1_000_037 * MS; // 37 ms past a multiple of 100 ms
        SamplingTimeline timeline = new SamplingTimeline(100 * MS, start, lead);
        assertThat(timeline.takeTick(start)).isEqualTo(start); // a new group samples at once
        assertThat(timeline.nextDeadline()).isEqualTo(1_000_095 * MS); // 5 ms before the grid point
        assertThat(timeline.takeTick(1_000_096 * MS)).isEqualTo(1_000_095 * MS);
        assertThat(timeline.nextDeadline()).isEqualTo(1_000_195 * MS); // on the grid: one interval on
    }

    @Test
    void an_aligned_tick_just_before_the_lead_waits_for_the_next_grid_point() {
        long start = 1_000_096 * MS; // past 95: the next aligned deadline is 195, not 95
        SamplingTimeline timeline = new SamplingTimeline(100 * MS, start, 5 * MS);
        timeline.takeTick(start);
        assertThat(timeline.nextDeadline()).isEqualTo(1_000_195 * MS);
    }

    @Test
    void an_aligned_timeline_restarts_from_now_and_snaps_back_onto_the_grid() {
        SamplingTimeline timeline = new SamplingTimeline(100 * MS, 1_000_095 * MS, 5 * MS);
        timeline.takeTick(1_000_095 * MS);
        long late = 1_000_612 * MS; // more than three intervals behind
        assertThat(timeline.takeTick(late)).isEqualTo(late);
        assertThat(timeline.nextDeadline()).isEqualTo(1_000_695 * MS);
    }

    @Test
    void the_lead_is_a_quarter_of_the_interval_at_most_five_milliseconds() {
        assertThat(SamplingScheduler.leadNanos(100 * MS)).isEqualTo(5 * MS);
        assertThat(SamplingScheduler.leadNanos(8 * MS)).isEqualTo(2 * MS);
        assertThat(SamplingScheduler.leadNanos(1)).isZero();
    }

    @Test
    void a_one_hour_interval_on_a_nanosecond_clock_does_not_overflow() {
        long hour = 3_600_000 * MS;
        SamplingTimeline timeline = new SamplingTimeline(hour, Long.MAX_VALUE - hour / 2);
        long first = timeline.takeTick(Long.MAX_VALUE - hour / 2);
        assertThat(timeline.nextDeadline() - first).isEqualTo(hour);
        assertThat(timeline.lagsTooFar(first + hour)).isFalse();
        assertThat(timeline.lagsTooFar(first + 4 * hour + 1)).isTrue();
    }
}
