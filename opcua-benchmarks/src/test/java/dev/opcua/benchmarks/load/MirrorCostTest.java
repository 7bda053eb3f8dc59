package dev.opcua.benchmarks.load;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MirrorCostTest {

    @Test
    void the_cost_between_two_answers_is_given_per_notification_sent_in_between() {
        MirrorCost start = MirrorCost.parse("STATS cpu_ns=1 alloc_bytes=2 jit_ms=3 simulated=4 rejected=0"
                + " mirror_cpu_ns=1000000 mirror_cycle_ns=2000000 mirror_store_ns=3000000 mirror_states=10"
                + " mirror_failed=0 mirror_dropped=0 taken_over=0 notifications_sent=1000");
        MirrorCost end = MirrorCost.parse("STATS cpu_ns=1 alloc_bytes=2 mirror_cpu_ns=21000000"
                + " mirror_cycle_ns=52000000 mirror_store_ns=43000000 mirror_states=30 mirror_failed=1"
                + " mirror_dropped=0 taken_over=0 notifications_sent=11000");

        var fields = MirrorCost.between(start, end, 2.0, 60_000_000);

        assertThat(fields).containsEntry("mirror_notifications", "10000")
                .containsEntry("mirror_cpu_us_per_notification", "2.00")
                .containsEntry("mirror_store_us_per_notification", "4.00")
                .containsEntry("mirror_cpu_share", "0.01")
                .containsEntry("mirror_busy_share", "0.03")
                .containsEntry("mirror_states_per_s", "10.0")
                .containsEntry("store_cpu_us_per_notification", "6.00")
                .containsEntry("store_cpu_share", "0.03")
                .containsEntry("mirror_failed", "1");
    }

    @Test
    void a_server_that_mirrors_nothing_or_does_not_answer_gives_no_cost() {
        assertThat(MirrorCost.parse("STATS cpu_ns=1 alloc_bytes=2 jit_ms=3 simulated=4 rejected=0")).isNull();
        assertThat(MirrorCost.parse(null)).isNull();
        assertThat(MirrorCost.between(null, null, 1.0, -1)).containsEntry("mirror_cpu_us_per_notification", "n/a");
    }
}
