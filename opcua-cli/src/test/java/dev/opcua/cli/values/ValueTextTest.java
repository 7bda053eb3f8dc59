package dev.opcua.cli.values;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.cli.CliException;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ValueTextTest {

    private static final int SCALAR = -1;
    private static final int ONE_DIMENSION = 1;
    private static final int ANY = -2;

    @Test
    void numbers_become_the_variables_integer_or_floating_type() {
        assertThat(ValueText.parse("42", BuiltinType.Int32, SCALAR, "x")).isEqualTo(Variant.ofInt32(42));
        assertThat(ValueText.parse("255", BuiltinType.Byte, SCALAR, "x")).isEqualTo(Variant.ofByte(255));
        assertThat(ValueText.parse("0x1F", BuiltinType.UInt16, SCALAR, "x")).isEqualTo(Variant.ofUInt16(31));
        assertThat(ValueText.parse("1.1", BuiltinType.Float, SCALAR, "x")).isEqualTo(Variant.ofFloat(1.1f));
        assertThat(ValueText.parse("3", BuiltinType.Double, SCALAR, "x")).isEqualTo(Variant.ofDouble(3));
        assertThat(ValueText.parse("18446744073709551615", BuiltinType.UInt64, SCALAR, "x").value()).isEqualTo(-1L);
    }

    @Test
    void text_becomes_booleans_strings_localized_texts_times_and_names() {
        assertThat(ValueText.parse("TRUE", BuiltinType.Boolean, SCALAR, "x")).isEqualTo(Variant.ofBoolean(true));
        assertThat(ValueText.parse("\"a, b\"", BuiltinType.String, SCALAR, "x")).isEqualTo(Variant.ofString("a, b"));
        assertThat(ValueText.parse("[de] Linie", BuiltinType.LocalizedText, SCALAR, "x").value())
                .isEqualTo(LocalizedText.of("de", "Linie"));
        assertThat(ValueText.parse("2026-12-05T10:00:00Z", BuiltinType.DateTime, SCALAR, "x").value())
                .isEqualTo(DateTime.ofInstant(Instant.parse("2026-12-05T10:00:00Z")));
        assertThat(ValueText.parse("2:Speed", BuiltinType.QualifiedName, SCALAR, "x").value())
                .isEqualTo(QualifiedName.of(2, "Speed"));
    }

    @Test
    void arrays_are_written_in_brackets_with_quoted_elements_keeping_their_commas() {
        Variant numbers = ValueText.parse("[1, 2, 3]", BuiltinType.Int32, ONE_DIMENSION, "x");
        Variant texts = ValueText.parse("[\"a, b\", c]", BuiltinType.String, ANY, "x");

        assertThat(numbers.isArray()).isTrue();
        assertThat(numbers.value()).isEqualTo(new int[] {1, 2, 3});
        assertThat(texts.value()).isEqualTo(new String[] {"a, b", "c"});
        assertThat(ValueText.format(numbers)).isEqualTo("[1, 2, 3]");
    }

    @Test
    void base_data_type_is_inferred_from_the_text() {
        assertThat(ValueText.parse("7", BuiltinType.Variant, SCALAR, "x")).isEqualTo(Variant.ofInt32(7));
        assertThat(ValueText.parse("7.5", BuiltinType.Variant, SCALAR, "x")).isEqualTo(Variant.ofDouble(7.5));
        assertThat(ValueText.parse("on", BuiltinType.Variant, SCALAR, "x")).isEqualTo(Variant.ofString("on"));
    }

    @Test
    void text_that_does_not_fit_names_the_text_the_type_and_what_is_expected() {
        assertThatThrownBy(() -> ValueText.parse("256", BuiltinType.Byte, SCALAR, "ns=2;s=Small"))
                .isInstanceOf(CliException.class)
                .hasMessageContaining("'256'").hasMessageContaining("ns=2;s=Small").hasMessageContaining("Byte")
                .hasMessageContaining("expected an integer in the range of Byte");
        assertThatThrownBy(() -> ValueText.parse("maybe", BuiltinType.Boolean, SCALAR, "x"))
                .hasMessageContaining("expected true or false");
        assertThatThrownBy(() -> ValueText.parse("5", BuiltinType.Double, ONE_DIMENSION, "x"))
                .hasMessageContaining("expected [a number, e.g. 1.5, ...]");
        assertThatThrownBy(() -> ValueText.parse("[1, 2]", BuiltinType.Double, SCALAR, "x"))
                .hasMessageContaining("is not a number");
        assertThatThrownBy(() -> ValueText.parse("[\"open]", BuiltinType.String, ONE_DIMENSION, "x"))
                .hasMessageContaining("double quote is not closed");
    }
}
