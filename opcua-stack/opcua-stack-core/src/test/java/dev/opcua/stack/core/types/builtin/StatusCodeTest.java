package dev.opcua.stack.core.types.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.ids.StatusCodes;
import org.junit.jupiter.api.Test;

/** Severity, names and info bits of StatusCode (Part 4, 7.39). */
class StatusCodeTest {

    @Test
    void severity_comes_from_the_top_two_bits() {
        StatusCode good = StatusCode.of(StatusCodes.GoodClamped);
        StatusCode uncertain = StatusCode.of(StatusCodes.UncertainReferenceNotDeleted);
        StatusCode bad = StatusCode.of(StatusCodes.BadNodeIdUnknown);

        assertThat(good.isGood()).isTrue();
        assertThat(good.isUncertain()).isFalse();
        assertThat(good.isBad()).isFalse();

        assertThat(uncertain.isGood()).isFalse();
        assertThat(uncertain.isUncertain()).isTrue();
        assertThat(uncertain.isBad()).isFalse();

        assertThat(bad.isGood()).isFalse();
        assertThat(bad.isUncertain()).isFalse();
        assertThat(bad.isBad()).isTrue();

        assertThat(StatusCode.GOOD.isGood()).isTrue();
        assertThat(StatusCode.UNCERTAIN.isUncertain()).isTrue();
        assertThat(StatusCode.BAD.isBad()).isTrue();
    }

    @Test
    void name_is_the_symbolic_name_of_the_code() {
        assertThat(StatusCode.of(StatusCodes.BadNodeIdUnknown).name()).isEqualTo("BadNodeIdUnknown");
        assertThat(StatusCode.of(StatusCodes.BadDecodingError).name()).isEqualTo("BadDecodingError");
        assertThat(StatusCode.of(StatusCodes.UncertainReferenceNotDeleted).name()).isEqualTo("UncertainReferenceNotDeleted");
        assertThat(StatusCode.GOOD.name()).isEqualTo("Good");
    }

    @Test
    void name_ignores_the_info_bits() {
        StatusCode withOverflow = StatusCode.of(StatusCodes.BadNodeIdUnknown).withOverflow();
        assertThat(withOverflow.value()).isEqualTo(StatusCodes.BadNodeIdUnknown | 0x0480);
        assertThat(withOverflow.name()).isEqualTo("BadNodeIdUnknown");
        assertThat(withOverflow.isSameCode(StatusCodes.BadNodeIdUnknown)).isTrue();
        assertThat(withOverflow).isNotEqualTo(StatusCode.of(StatusCodes.BadNodeIdUnknown));
    }

    @Test
    void unknown_code_has_no_name() {
        assertThat(StatusCode.of(0x80FF0000).name()).isNull();
        assertThat(StatusCode.of(0x80FF0000).toString()).isEqualTo("0x80FF0000");
    }

    @Test
    void to_string_gives_the_name_and_the_hex_value() {
        assertThat(StatusCode.of(StatusCodes.BadNodeIdUnknown).toString()).isEqualTo("BadNodeIdUnknown (0x80340000)");
        assertThat(StatusCode.GOOD.toString()).isEqualTo("Good (0x00000000)");
    }

    @Test
    void overflow_bit_needs_the_data_value_info_type() {
        // Part 4, 7.39.1: the Overflow bit only has meaning with InfoType DataValue (0x0400).
        assertThat(StatusCode.of(StatusCodes.Good | StatusCode.OVERFLOW_BIT).isOverflow()).isFalse();
        assertThat(StatusCode.GOOD.withOverflow().isOverflow()).isTrue();
        assertThat(StatusCode.GOOD.isOverflow()).isFalse();
    }

    @Test
    void unsigned_and_signed_factories_agree() {
        assertThat(StatusCode.ofUnsigned(0x80340000L)).isEqualTo(StatusCode.of(StatusCodes.BadNodeIdUnknown));
        assertThat(StatusCode.of(StatusCodes.BadNodeIdUnknown).unsignedValue()).isEqualTo(0x80340000L);
        assertThat(StatusCode.of(StatusCodes.Good)).isSameAs(StatusCode.GOOD);
        assertThat(StatusCode.of(StatusCodes.Bad)).isSameAs(StatusCode.BAD);
    }
}
