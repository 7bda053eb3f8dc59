package dev.opcua.benchmarks.load;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WriteSequenceTest {

    private static final long BASE = 1000;

    @Test
    void values_go_round_the_slots() {
        WriteSequence values = new WriteSequence(BASE, 3, 16);

        assertThat(values.slotOf(BASE)).isZero();
        assertThat(values.slotOf(BASE + 4)).isEqualTo(1);
        assertThat(values.roundOf(BASE + 4)).isEqualTo(1);
        assertThat(values.roundOf(BASE + 2)).isZero();
    }

    @Test
    void only_sent_values_of_this_run_are_values() {
        WriteSequence values = new WriteSequence(BASE, 3, 16);
        values.sent(BASE, BASE + 5, 42);

        assertThat(values.isValue(BASE + 4)).isTrue();
        assertThat(values.isValue(BASE + 5)).isFalse();
        assertThat(values.isValue(BASE - 1)).isFalse();
        assertThat(values.sentNanos(BASE + 4)).isEqualTo(42);
        assertThat(values.sentNanos(BASE + 5)).isEqualTo(-1);
    }

    @Test
    void a_value_older_than_the_ring_is_not_timed() {
        WriteSequence values = new WriteSequence(BASE, 3, 16);
        values.sent(BASE, BASE + 40, 7);

        assertThat(values.sentNanos(BASE + 39)).isEqualTo(7);
        assertThat(values.sentNanos(BASE)).isEqualTo(-1);
    }

    @Test
    void expected_counts_a_slots_values_in_the_window_less_the_failed() {
        WriteSequence values = new WriteSequence(BASE, 3, 64);
        values.sent(BASE, BASE + 4, 1);
        values.openWindow();                       // window from BASE + 4
        values.sent(BASE + 4, BASE + 14, 2);
        values.closeWindow();                      // to BASE + 14 (exclusive)
        values.sent(BASE + 14, BASE + 20, 3);

        // slot 0: BASE + 6, 9, 12; slot 1: BASE + 4, 7, 10, 13; slot 2: BASE + 5, 8, 11
        assertThat(values.expected(0)).isEqualTo(3);
        assertThat(values.expected(1)).isEqualTo(4);
        assertThat(values.expected(2)).isEqualTo(3);
        values.failed(BASE + 9, BASE + 11);        // slot 0's BASE + 9, slot 1's BASE + 10
        values.failed(BASE + 2, BASE + 5);         // only BASE + 4 (slot 1) is in the window
        assertThat(values.expected(0)).isEqualTo(2);
        assertThat(values.expected(1)).isEqualTo(2);
        assertThat(values.expected(2)).isEqualTo(3);
        assertThat(values.windowIndex(BASE + 4)).isOne();
        assertThat(values.windowIndex(BASE + 14)).isZero();
    }

    @Test
    void the_window_index_is_one_exactly_for_values_from_the_start_to_before_the_end() {
        WriteSequence values = new WriteSequence(BASE, 3, 16);
        assertThat(values.windowIndex(BASE)).as("no window open yet").isZero();
        assertThat(values.windowIndex(0)).isZero();

        values.sent(BASE, BASE + 4, 1);
        values.openWindow();
        assertThat(values.windowIndex(BASE + 3)).isZero();
        assertThat(values.windowIndex(BASE + 4)).as("open: every later value").isOne();
        assertThat(values.windowIndex((1L << 53) - 1)).isOne();

        values.sent(BASE + 4, BASE + 14, 2);
        values.closeWindow();
        assertThat(values.windowIndex(0)).isZero();
        assertThat(values.windowIndex(BASE + 3)).isZero();
        assertThat(values.windowIndex(BASE + 4)).isOne();
        assertThat(values.windowIndex(BASE + 13)).isOne();
        assertThat(values.windowIndex(BASE + 14)).isZero();
        assertThat(values.windowIndex((1L << 53) - 1)).isZero();
    }

    @Test
    void rounds_before_a_value_are_the_rounds_of_the_slot_below_it() {
        WriteSequence values = new WriteSequence(BASE, 3, 16);

        assertThat(values.roundsBefore(1, BASE)).isZero();
        assertThat(values.roundsBefore(1, BASE + 1)).isZero();
        assertThat(values.roundsBefore(1, BASE + 2)).isEqualTo(1);
        assertThat(values.roundsBefore(1, BASE + 4)).isEqualTo(1);
        assertThat(values.roundsBefore(1, BASE + 5)).isEqualTo(2);
    }
}
