package dev.opcua.stack.server.subscriptions.sampling;

import static dev.opcua.stack.server.subscriptions.sampling.FakeTime.MS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The scheduler's real thread on simulated time (Part 4, 5.12.1.2; DESIGN.md 5): absolute
 * deadlines, made-up ticks, restarts after a stall, groups, members joining and leaving.
 */
class SamplingSchedulerTest {

    private static final long T0 = 1_000 * MS;
    private static final long TEN_MS = 10 * MS;

    private FakeTime time = new FakeTime(T0);
    private RecordingSampler<String> sampler = new RecordingSampler<>(time);
    private SamplingScheduler<String> scheduler;

    private SamplingScheduler<String> start() {
        scheduler = new SamplingScheduler<>("sampling-test", sampler, time, time);
        return scheduler;
    }

    @AfterEach
    void close() {
        if (scheduler != null) {
            time.stop();
            scheduler.close();
        }
    }

    /** {@code from + k * step} for k = 0 .. count-1, in milliseconds relative to T0. */
    private static List<Double> grid(long fromNanos, long stepNanos, int count) {
        return LongStream.range(0, count).mapToObj(k -> (fromNanos + k * stepNanos - T0) / 1e6).toList();
    }

    @Test
    void a_new_group_ticks_at_once_and_then_every_interval() {
        start().add(TEN_MS, "a");
        time.settle();
        assertThat(sampler.calls).singleElement().satisfies(call -> {
            assertThat(call.deadlineNanos()).isEqualTo(T0);
            assertThat(call.members()).containsExactly("a");
        });

        time.runUntil(T0 + 35 * MS);

        assertThat(sampler.deadlinesMillis(TEN_MS, T0)).containsExactly(0.0, 10.0, 20.0, 30.0);
        assertThat(sampler.calls).allSatisfy(call -> assertThat(call.ranAtNanos()).isEqualTo(call.deadlineNanos()));
        assertThat(scheduler.groupCount()).isEqualTo(1);
        assertThat(scheduler.memberCount()).isEqualTo(1);
    }

    @Test
    void ticks_stay_on_the_absolute_grid_when_every_wake_up_is_late() {
        // Linux-like: each wait ends 1.3 ms late. Waiting one interval after each tick would drift
        // to one tick every 11.3 ms (88 in a second); the grid keeps all 100.
        time.overshootBy(1_300_000);
        start().add(TEN_MS, "a");
        time.settle();
        time.runUntil(T0 + 1_000 * MS);

        assertThat(sampler.deadlinesMillis(TEN_MS, T0)).isEqualTo(grid(T0, TEN_MS, 100));
        assertThat(sampler.calls).allSatisfy(call ->
                assertThat(call.ranAtNanos() - call.deadlineNanos()).isBetween(0L, 1_300_000L));
        SamplingStatistics statistics = scheduler.statistics();
        assertThat(statistics.ticks()).isEqualTo(100);
        assertThat(statistics.lateTicks()).isZero();
        assertThat(statistics.restarts()).isZero();
        assertThat(statistics.maxLatenessNanos()).isEqualTo(1_300_000L);
    }

    @Test
    void a_coarse_timer_makes_ticks_up_without_losing_any() {
        // Windows-like: a wait ends on the next 15.625 ms timer tick, later than a 10 ms interval.
        long resolution = 15_625_000;
        time.wakeTime((now, nanos) -> Math.floorDiv(now + nanos + resolution - 1, resolution) * resolution);
        start().add(TEN_MS, "a");
        time.settle();
        time.runUntil(T0 + 1_000 * MS);

        List<Double> deadlines = sampler.deadlinesMillis(TEN_MS, T0);
        assertThat(deadlines).hasSizeGreaterThanOrEqualTo(99).isEqualTo(grid(T0, TEN_MS, deadlines.size()));
        assertThat(scheduler.statistics().restarts()).isZero();
        assertThat(scheduler.statistics().maxLatenessNanos()).isLessThan(resolution);
    }

    @Test
    void a_short_stall_is_made_up_on_the_grid() {
        start().add(TEN_MS, "a");
        sampler.then(call -> {
            if (call.deadlineNanos() == T0 + 50 * MS) {
                time.elapse(25 * MS);
            }
        });
        time.settle();
        time.runUntil(T0 + 200 * MS);

        assertThat(sampler.deadlinesMillis(TEN_MS, T0)).isEqualTo(grid(T0, TEN_MS, 21));
        assertThat(sampler.calls.stream().filter(c -> c.ranAtNanos() == T0 + 75 * MS))
                .extracting(RecordingSampler.Call::deadlineNanos)
                .containsExactly(T0 + 60 * MS, T0 + 70 * MS);
        SamplingStatistics statistics = scheduler.statistics();
        assertThat(statistics.lateTicks()).isEqualTo(1);
        assertThat(statistics.restarts()).isZero();
        assertThat(statistics.maxLatenessNanos()).isEqualTo(15 * MS);
    }

    @Test
    void a_lag_of_exactly_three_intervals_is_still_made_up() {
        start().add(TEN_MS, "a");
        sampler.then(call -> {
            if (call.deadlineNanos() == T0 + 50 * MS) {
                time.elapse(40 * MS);
            }
        });
        time.settle();
        time.runUntil(T0 + 100 * MS);

        assertThat(sampler.deadlinesMillis(TEN_MS, T0)).isEqualTo(grid(T0, TEN_MS, 11));
        assertThat(scheduler.statistics().restarts()).isZero();
        assertThat(scheduler.statistics().lateTicks()).isEqualTo(3);
    }

    @Test
    void a_stall_longer_than_three_intervals_restarts_the_timeline_instead_of_bursting() {
        start().add(TEN_MS, "a");
        sampler.then(call -> {
            if (call.deadlineNanos() == T0 + 50 * MS) {
                time.elapse(500 * MS); // a long garbage-collection pause
            }
        });
        time.settle();
        time.runUntil(T0 + 700 * MS);

        List<Double> expected = new ArrayList<>(grid(T0, TEN_MS, 6));        // 0 .. 50
        expected.addAll(grid(T0 + 550 * MS, TEN_MS, 16));                    // 550 .. 700, from the restart
        assertThat(sampler.deadlinesMillis(TEN_MS, T0)).isEqualTo(expected);
        assertThat(sampler.calls.stream().filter(c -> c.ranAtNanos() == T0 + 550 * MS)).hasSize(1);
        SamplingStatistics statistics = scheduler.statistics();
        assertThat(statistics.restarts()).isEqualTo(1);
        assertThat(statistics.ticks()).isEqualTo(22); // bursting would have made 49 extra ticks
        assertThat(statistics.maxLatenessNanos()).isEqualTo(490 * MS);
    }

    @Test
    void a_sampler_slower_than_its_interval_restarts_now_and_then_instead_of_falling_ever_further_behind() {
        start().add(TEN_MS, "a");
        sampler.then(call -> time.elapse(15 * MS));
        time.settle();
        time.runUntil(T0 + 1_050 * MS);

        SamplingStatistics statistics = scheduler.statistics();
        // One tick per 15 ms of sampling; a restart each time the lag passes 30 ms (every 7 ticks).
        assertThat(statistics.ticks()).isBetween(68L, 71L);
        assertThat(statistics.restarts()).isBetween(9L, 10L);
        assertThat(statistics.maxLatenessNanos()).isLessThanOrEqualTo(3 * TEN_MS + 15 * MS);
    }

    @Test
    void many_groups_interleave_in_deadline_order() {
        start();
        scheduler.add(10 * MS, "ten");
        scheduler.add(15 * MS, "fifteen");
        scheduler.add(40 * MS, "forty");
        time.settle();
        time.runUntil(T0 + 120 * MS);

        assertThat(sampler.deadlinesMillis(10 * MS, T0)).isEqualTo(grid(T0, 10 * MS, 13));
        assertThat(sampler.deadlinesMillis(15 * MS, T0)).isEqualTo(grid(T0, 15 * MS, 9));
        assertThat(sampler.deadlinesMillis(40 * MS, T0)).isEqualTo(grid(T0, 40 * MS, 4));
        assertThat(sampler.calls).allSatisfy(call -> assertThat(call.ranAtNanos()).isEqualTo(call.deadlineNanos()));
        List<Long> order = sampler.calls.stream().map(RecordingSampler.Call::deadlineNanos).toList();
        assertThat(order).isSorted();
        assertThat(scheduler.groupCount()).isEqualTo(3);

        // A new group due before the thread's current wait wakes it and ticks at once.
        time.runUntil(T0 + 123 * MS);
        scheduler.add(7 * MS, "seven");
        time.settle();
        time.runUntil(T0 + 140 * MS);
        assertThat(sampler.deadlinesMillis(7 * MS, T0)).containsExactly(123.0, 130.0, 137.0);
        assertThat(sampler.deadlinesMillis(10 * MS, T0)).endsWith(120.0, 130.0, 140.0);
    }

    @Test
    void a_member_joining_a_group_is_sampled_from_the_groups_next_tick() {
        start().add(TEN_MS, "a");
        time.settle();
        time.runUntil(T0 + 5 * MS);
        SamplingScheduler.Registration b = scheduler.add(TEN_MS, "b");
        time.settle();
        assertThat(sampler.calls).hasSize(1); // no extra tick for b
        time.runUntil(T0 + 25 * MS);

        assertThat(sampler.calls).extracting(RecordingSampler.Call::members)
                .containsExactly(List.of("a"), List.of("a", "b"), List.of("a", "b"));
        assertThat(b.intervalNanos()).isEqualTo(TEN_MS);
        assertThat(scheduler.groupCount()).isEqualTo(1);
        assertThat(scheduler.memberCount()).isEqualTo(2);
    }

    @Test
    void cancelling_the_last_member_drops_the_group_and_a_new_member_starts_a_fresh_timeline() {
        SamplingScheduler.Registration a = start().add(TEN_MS, "a");
        time.settle();
        SamplingScheduler.Registration b = scheduler.add(TEN_MS, "b");
        time.runUntil(T0 + 15 * MS);
        a.cancel();
        time.runUntil(T0 + 25 * MS);
        b.cancel();
        b.cancel(); // idempotent
        assertThat(scheduler.groupCount()).isZero();
        assertThat(scheduler.memberCount()).isZero();
        time.runUntil(T0 + 100 * MS);

        assertThat(sampler.calls).extracting(RecordingSampler.Call::members)
                .containsExactly(List.of("a"), List.of("a", "b"), List.of("b"));

        scheduler.add(TEN_MS, "c");
        time.settle();
        time.runUntil(T0 + 115 * MS);
        assertThat(sampler.deadlinesMillis(TEN_MS, T0)).containsExactly(0.0, 10.0, 20.0, 100.0, 110.0);
        assertThat(scheduler.statistics().restarts()).isZero();
    }

    @Test
    void groups_retired_long_before_their_deadline_do_not_pile_up_in_the_queue() {
        start();
        long hour = 3_600_000 * MS;
        for (int i = 0; i < 1_000; i++) {
            SamplingScheduler.Registration registration = scheduler.add(hour, "short-lived " + i);
            time.settle(); // its first tick, at once; the next one is an hour away
            registration.cancel();
        }
        time.settle();
        assertThat(sampler.calls).hasSize(1_000);
        assertThat(scheduler.groupCount()).isZero();
        assertThat(scheduler.queuedGroups()).isLessThanOrEqualTo(17);
    }

    @Test
    void a_throwing_sampler_is_counted_and_sampling_goes_on() {
        sampler.then(call -> {
            throw new IllegalStateException("device offline (thrown by the test)");
        });
        start().add(TEN_MS, "a");
        time.settle();
        time.runUntil(T0 + 100 * MS);

        assertThat(sampler.calls).hasSize(11);
        assertThat(scheduler.statistics().samplerFailures()).isEqualTo(11);
    }

    @Test
    void the_sampler_gets_a_read_only_list() {
        List<Boolean> modifiable = new ArrayList<>();
        scheduler = new SamplingScheduler<>("sampling-test", (interval, members, deadline) -> {
            try {
                members.clear();
                modifiable.add(true);
            } catch (UnsupportedOperationException expected) {
                modifiable.add(false);
            }
        }, time, time);
        scheduler.add(TEN_MS, "a");
        time.settle();
        time.runUntil(T0 + 10 * MS);
        assertThat(modifiable).containsExactly(false, false);
    }

    @Test
    void deadlines_stay_right_across_a_wrap_of_the_nano_clock() {
        long start = Long.MAX_VALUE - 25 * MS;
        time = new FakeTime(start);
        sampler = new RecordingSampler<>(time);
        start();
        scheduler.add(10 * MS, "ten");
        scheduler.add(15 * MS, "fifteen");
        time.settle();
        time.runUntil(start + 60 * MS); // wraps to negative values

        assertThat(sampler.callsOf(10 * MS)).extracting(c -> c.deadlineNanos() - start)
                .containsExactly(0L, 10 * MS, 20 * MS, 30 * MS, 40 * MS, 50 * MS, 60 * MS);
        assertThat(sampler.callsOf(15 * MS)).extracting(c -> c.deadlineNanos() - start)
                .containsExactly(0L, 15 * MS, 30 * MS, 45 * MS, 60 * MS);
        List<Long> order = sampler.calls.stream().map(c -> c.deadlineNanos() - start).toList();
        assertThat(order).isSorted();
        assertThat(scheduler.statistics().restarts()).isZero();
    }

    @Test
    void an_interval_outside_the_supported_range_or_a_null_member_is_refused() {
        start();
        assertThatThrownBy(() -> scheduler.add(0, "a"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sampling interval of 0 ns");
        assertThatThrownBy(() -> scheduler.add(-5, "a")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> scheduler.add(Long.MAX_VALUE, "a")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> scheduler.add(TEN_MS, null)).isInstanceOf(NullPointerException.class);
        assertThat(scheduler.groupCount()).isZero();
        assertThat(scheduler.memberCount()).isZero();
    }
}
