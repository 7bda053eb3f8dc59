package dev.opcua.stack.core.types.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.ids.StatusCodes;
import org.junit.jupiter.api.Test;

/** Severity, names and info bits of StatusCode (Part 4, 7.39). */
class StatusCodeTest {

    @Test
    void severityComesFromTheTopTwoBits() {
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
    void nameIsTheSymbolicNameOfTheCode() {
        assertThat(StatusCode.of(StatusCodes.BadNodeIdUnknown).name()).isEqualTo("BadNodeIdUnknown");
        assertThat(StatusCode.of(StatusCodes.BadDecodingError).name()).isEqualTo("BadDecodingError");
        assertThat(StatusCode.of(StatusCodes.UncertainReferenceNotDeleted).name()).isEqualTo("UncertainReferenceNotDeleted");
        assertThat(StatusCode.GOOD.name()).isEqualTo("Good");
    }

    @Test
    void nameIgnoresTheInfoBits() {
        StatusCode withOverflow = StatusCode.of(StatusCodes.BadNodeIdUnknown).withOverflow();
        assertThat(withOverflow.value()).isEqualTo(StatusCodes.BadNodeIdUnknown | 0x0480);
        assertThat(withOverflow.name()).isEqualTo("BadNodeIdUnknown");
        assertThat(withOverflow.isSameCode(StatusCodes.BadNodeIdUnknown)).isTrue();
        assertThat(withOverflow).isNotEqualTo(StatusCode.of(StatusCodes.BadNodeIdUnknown));
    }

    @Test
    void unknownCodeHasNoName() {
        assertThat(StatusCode.of(0x80FF0000).name()).isNull();
        assertThat(StatusCode.of(0x80FF0000).toString()).isEqualTo("0x80FF0000");
    }

    @Test
    void toStringGivesTheNameAndTheHexValue() {
        assertThat(StatusCode.of(StatusCodes.BadNodeIdUnknown).toString()).isEqualTo("BadNodeIdUnknown (0x80340000)");
        assertThat(StatusCode.GOOD.toString()).isEqualTo("Good (0x00000000)");
    }

    @Test
    void overflowBitNeedsTheDataValueInfoType() {
        // Part 4, 7.39.1: the Overflow bit only has meaning with InfoType DataValue (0x0400).
        assertThat(StatusCode.of(StatusCodes.Good | StatusCode.OVERFLOW_BIT).isOverflow()).isFalse();
        assertThat(StatusCode.GOOD.withOverflow().isOverflow()).isTrue();
        assertThat(StatusCode.GOOD.isOverflow()).isFalse();
    }

    @Test
    void unsignedAndSignedFactoriesAgree() {
        assertThat(StatusCode.ofUnsigned(0x80340000L)).isEqualTo(StatusCode.of(StatusCodes.BadNodeIdUnknown));
        assertThat(StatusCode.of(StatusCodes.BadNodeIdUnknown).unsignedValue()).isEqualTo(0x80340000L);
        assertThat(StatusCode.of(StatusCodes.Good)).isSameAs(StatusCode.GOOD);
        assertThat(StatusCode.of(StatusCodes.Bad)).isSameAs(StatusCode.BAD);
    }
}
