package dev.opcua.stack.server.subscriptions.items;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Queue size, discard policy and the Overflow info bit (Part 4, 5.12.1.5; bit values Part 4, 7.39.1). */
class ValueQueueTest {

    private static DataValue v(int i) {
        return DataValue.of(Variant.ofInt32(i));
    }

    private static List<String> drain(ValueQueue queue) {
        List<String> out = new ArrayList<>();
        DataValue value;
        while ((value = queue.poll()) != null) {
            out.add(value.value().value() + (value.statusCode().isOverflow() ? "!" : ""));
        }
        return out;
    }

    @Test
    void the_overflow_bit_is_bit_7_with_the_data_value_info_type() {
        StatusCode overflow = StatusCode.GOOD.withOverflow();
        assertThat(overflow.value()).isEqualTo(0x0000_0480);
        assertThat(overflow.isGood()).isTrue();
        assertThat(overflow.isOverflow()).isTrue();
    }

    @Test
    void values_come_out_oldest_first_and_the_ring_grows_on_demand_up_to_its_size() {
        ValueQueue queue = new ValueQueue(10);
        for (int i = 0; i < 7; i++) {
            assertThat(queue.add(v(i), true)).isZero();
        }
        assertThat(queue.size()).isEqualTo(7);
        assertThat(drain(queue)).containsExactly("0", "1", "2", "3", "4", "5", "6");
        assertThat(queue.isEmpty()).isTrue();
    }

    @Test
    void discard_oldest_drops_the_oldest_and_marks_the_value_that_is_now_the_oldest() {
        ValueQueue queue = new ValueQueue(3);
        for (int i = 1; i <= 3; i++) {
            queue.add(v(i), true);
        }
        assertThat(queue.add(v(4), true)).isEqualTo(1);
        assertThat(drain(queue)).containsExactly("2!", "3", "4");
    }

    @Test
    void discard_oldest_twice_keeps_one_mark_on_the_oldest() {
        ValueQueue queue = new ValueQueue(3);
        for (int i = 1; i <= 5; i++) {
            queue.add(v(i), true);
        }
        assertThat(drain(queue)).containsExactly("3!", "4", "5");
    }

    @Test
    void discard_newest_replaces_the_newest_with_the_new_value_which_is_marked() {
        ValueQueue queue = new ValueQueue(3);
        for (int i = 1; i <= 3; i++) {
            queue.add(v(i), false);
        }
        assertThat(queue.add(v(4), false)).isEqualTo(1);
        assertThat(queue.add(v(5), false)).isEqualTo(1);
        assertThat(drain(queue)).containsExactly("1", "2", "5!");
    }

    @Test
    void a_queue_of_one_keeps_the_newest_value_without_the_bit_whatever_the_policy() {
        for (boolean discardOldest : new boolean[] {true, false}) {
            ValueQueue queue = new ValueQueue(1);
            queue.add(v(1), discardOldest);
            assertThat(queue.add(v(2), discardOldest)).isEqualTo(1);
            assertThat(drain(queue)).containsExactly("2");
        }
    }

    @Test
    void shrinking_discards_per_the_policy_and_marks_the_value_next_to_the_gap() {
        ValueQueue oldest = new ValueQueue(5);
        ValueQueue newest = new ValueQueue(5);
        for (int i = 1; i <= 5; i++) {
            oldest.add(v(i), true);
            newest.add(v(i), false);
        }
        assertThat(oldest.resize(2, true)).isEqualTo(3);
        assertThat(newest.resize(2, false)).isEqualTo(3);
        assertThat(drain(oldest)).containsExactly("4!", "5");
        assertThat(drain(newest)).containsExactly("1", "2!");
    }

    @Test
    void growing_keeps_the_values_and_takes_more() {
        ValueQueue queue = new ValueQueue(2);
        queue.add(v(1), true);
        queue.poll();
        queue.add(v(2), true);
        queue.add(v(3), true); // wrapped around the ring
        assertThat(queue.resize(4, true)).isZero();
        queue.add(v(4), true);
        queue.add(v(5), true);
        assertThat(queue.capacity()).isEqualTo(4);
        assertThat(drain(queue)).containsExactly("2", "3", "4", "5");
    }
}
