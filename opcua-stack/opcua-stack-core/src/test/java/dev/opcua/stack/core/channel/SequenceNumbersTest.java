package dev.opcua.stack.core.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import org.junit.jupiter.api.Test;

/** The legacy sequence number rules of Part 6, 6.7.2.4. */
class SequenceNumbersTest {

    @Test
    void sender_counts_up_by_one_from_one() {
        SequenceNumbers numbers = new SequenceNumbers();
        assertThat(numbers.nextToSend()).isEqualTo(1);
        assertThat(numbers.nextToSend()).isEqualTo(2);
        assertThat(numbers.nextToSend()).isEqualTo(3);
    }

    @Test
    void sender_wraps_after_uint32_max_to_a_number_below_1024() {
        SequenceNumbers numbers = new SequenceNumbers(0xFFFF_FFFEL);
        assertThat(numbers.nextToSend()).isEqualTo(0xFFFF_FFFEL);
        assertThat(numbers.nextToSend()).isEqualTo(0xFFFF_FFFFL);
        assertThat(numbers.nextToSend()).isEqualTo(1).isLessThan(SequenceNumbers.WRAPPED_BELOW);
    }

    @Test
    void receiver_accepts_any_first_number_then_exactly_the_next() {
        SequenceNumbers numbers = new SequenceNumbers();
        numbers.checkReceived(51);
        numbers.checkReceived(52);
        assertThatThrownBy(() -> numbers.checkReceived(54))
                .isInstanceOf(UaException.class)
                .satisfies(e -> assertThat(((UaException) e).statusCode().value())
                        .isEqualTo(StatusCodes.BadSequenceNumberInvalid))
                .hasMessageContaining("54").hasMessageContaining("52");
    }

    @Test
    void receiver_refuses_a_repeated_number() {
        SequenceNumbers numbers = new SequenceNumbers();
        numbers.checkReceived(7);
        assertThatThrownBy(() -> numbers.checkReceived(7)).isInstanceOf(UaException.class);
    }

    @Test
    void receiver_accepts_a_wrap_only_above_the_threshold_and_only_to_below_1024() {
        SequenceNumbers wrapping = new SequenceNumbers();
        wrapping.checkReceived(SequenceNumbers.WRAP_THRESHOLD + 1);
        wrapping.checkReceived(3);
        wrapping.checkReceived(4);

        SequenceNumbers early = new SequenceNumbers();
        early.checkReceived(SequenceNumbers.WRAP_THRESHOLD);
        assertThatThrownBy(() -> early.checkReceived(1)).isInstanceOf(UaException.class);

        SequenceNumbers tooHigh = new SequenceNumbers();
        tooHigh.checkReceived(0xFFFF_FFF0L);
        assertThatThrownBy(() -> tooHigh.checkReceived(1024)).isInstanceOf(UaException.class);
    }

    @org.junit.jupiter.api.Test
    void the_ecc_rules_start_at_zero_and_wrap_to_zero_and_are_chosen_before_the_first_number() {
        SequenceNumbers ecc = new SequenceNumbers();
        ecc.startNonLegacy();
        org.assertj.core.api.Assertions.assertThat(ecc.nextToSend()).isZero();
        org.assertj.core.api.Assertions.assertThat(ecc.nextToSend()).isEqualTo(1);
        org.assertj.core.api.Assertions.assertThatThrownBy(ecc::startNonLegacy)
                .isInstanceOf(IllegalStateException.class);

        SequenceNumbers atEnd = new SequenceNumbers(0xFFFF_FFFFL);
        atEnd.startNonLegacy(); // resets to 0: the rules, not the start value, are what a caller picks
        org.assertj.core.api.Assertions.assertThat(atEnd.nextToSend()).isZero();

        SequenceNumbers receiver = new SequenceNumbers();
        receiver.checkReceived(0xFFFF_FFFFL);
        receiver.checkReceived(0); // the ECC wrap is accepted like the legacy one
    }
}
