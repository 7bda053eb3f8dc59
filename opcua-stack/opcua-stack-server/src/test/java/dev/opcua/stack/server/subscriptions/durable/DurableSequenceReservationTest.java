package dev.opcua.stack.server.subscriptions.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.server.session.Identity;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The sequence numbers a periodic snapshot of a durable subscription reserves (Part 4, 5.14.1.1 and 7.26: a
 * sequence number is never reused, 1 follows 4294967295, 0 is never used).
 */
class DurableSequenceReservationTest {

    private static DurableSubscriptionRecord withNext(long next) {
        return new DurableSubscriptionRecord(9, Identity.ANONYMOUS, 50, 3000, 10, 0, (short) 0, true, 2,
                1_800_000_000_000L, next, List.of(), List.of());
    }

    @Test
    void a_restore_after_a_crash_numbers_on_past_every_message_sent_since_the_snapshot() {
        long reserved = DurableSubscriptionRecord.sequenceReservation(50, 1000, 21);
        DurableSubscriptionRecord snapshot = withNext(42).withSequenceReservation(reserved);
        // after the snapshot the server sends messages 42, 43, ... as fast as its Publish requests allow
        long lastSentBeforeCrash = 42 + reserved - 1;

        DurableSubscriptionRecord restored = DurableRecordCodec.decode(DurableRecordCodec.encode(snapshot));

        assertThat(restored.nextSequenceNumber()).isGreaterThan(lastSentBeforeCrash);
        assertThat(restored.subscriptionId()).isEqualTo(9);
    }

    @Test
    void the_reservation_covers_four_snapshot_periods_of_full_publishing_cycles_and_at_least_a_thousand() {
        // 1 s snapshots of a 20-ms subscription whose session parks 21 Publish requests: 200 cycles of 21
        assertThat(DurableSubscriptionRecord.sequenceReservation(20, 1000, 21)).isEqualTo(4200);
        assertThat(DurableSubscriptionRecord.sequenceReservation(1000, 1000, 2))
                .isEqualTo(DurableSubscriptionRecord.MIN_SEQUENCE_RESERVATION);
        assertThat(DurableSubscriptionRecord.sequenceReservation(0, 1000, 21)).isEqualTo(84_000);
    }

    @Test
    void a_reservation_past_the_largest_number_wraps_to_one_skipping_zero() {
        assertThat(withNext(0xFFFF_FFFFL).withSequenceReservation(1).nextSequenceNumber()).isEqualTo(1);
        assertThat(withNext(0xFFFF_FFFFL - 10).withSequenceReservation(1000).nextSequenceNumber()).isEqualTo(990);
        assertThat(withNext(7).withSequenceReservation(1000).nextSequenceNumber()).isEqualTo(1007);
    }

    @Test
    void a_reservation_outside_the_sequence_range_is_refused_naming_the_value() {
        assertThatThrownBy(() -> withNext(1).withSequenceReservation(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("reserved").hasMessageContaining(": 0");
    }
}
