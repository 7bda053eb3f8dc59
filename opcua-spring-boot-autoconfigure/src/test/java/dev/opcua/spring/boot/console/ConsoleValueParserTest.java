package dev.opcua.spring.boot.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.Variant;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ConsoleValueParserTest {

    @Test
    void typed_text_becomes_a_variant_of_the_built_in_type() {
        assertThat(ConsoleValueParser.parse("42", BuiltinType.Double)).isEqualTo(Variant.ofDouble(42));
        assertThat(ConsoleValueParser.parse(" -3.5e2 ", BuiltinType.Float)).isEqualTo(Variant.ofFloat(-350f));
        assertThat(ConsoleValueParser.parse("255", BuiltinType.Byte)).isEqualTo(Variant.ofByte(255));
        assertThat(ConsoleValueParser.parse("4294967295", BuiltinType.UInt32)).isEqualTo(Variant.ofUInt32(4294967295L));
        assertThat(ConsoleValueParser.parse("18446744073709551615", BuiltinType.UInt64))
                .isEqualTo(Variant.ofUInt64(-1L));
        assertThat(ConsoleValueParser.parse("TRUE", BuiltinType.Boolean)).isEqualTo(Variant.ofBoolean(true));
        assertThat(ConsoleValueParser.parse(" as typed ", BuiltinType.String)).isEqualTo(Variant.ofString(" as typed "));
        assertThat(ConsoleValueParser.parse("Halt", BuiltinType.LocalizedText).value())
                .isEqualTo(LocalizedText.of(null, "Halt"));
        assertThat(ConsoleValueParser.parse("2026-12-05T10:00:00Z", BuiltinType.DateTime).value())
                .isEqualTo(DateTime.ofInstant(Instant.parse("2026-12-05T10:00:00Z")));
    }

    @Test
    void text_that_is_no_value_of_the_type_is_refused_naming_text_type_and_what_is_expected() {
        assertThatIllegalArgumentException().isThrownBy(() -> ConsoleValueParser.parse("fast", BuiltinType.Double))
                .withMessage("'fast' is not a Double (a number such as 12.5 or -3e2)");
        assertThatIllegalArgumentException().isThrownBy(() -> ConsoleValueParser.parse("1d", BuiltinType.Double))
                .withMessageContaining("'1d' is not a Double");
        assertThatIllegalArgumentException().isThrownBy(() -> ConsoleValueParser.parse("300", BuiltinType.Byte))
                .withMessageStartingWith("'300' is not a Byte (0 to 255)");
        assertThatIllegalArgumentException().isThrownBy(() -> ConsoleValueParser.parse("-1", BuiltinType.UInt64))
                .withMessageStartingWith("'-1' is not a UInt64");
        assertThatIllegalArgumentException().isThrownBy(() -> ConsoleValueParser.parse("yes", BuiltinType.Boolean))
                .withMessage("'yes' is not a Boolean (true or false)");
        assertThatIllegalArgumentException().isThrownBy(() -> ConsoleValueParser.parse("today", BuiltinType.DateTime))
                .withMessageStartingWith("'today' is not a DateTime (an ISO-8601 instant");
    }

    @Test
    void types_nobody_types_in_a_text_field_are_refused() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> ConsoleValueParser.parse("x", BuiltinType.ExtensionObject))
                .withMessageStartingWith("a value of type ExtensionObject cannot be written from the console");
    }
}
