package dev.opcua.spring.boot.client.listener.adapter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import dev.opcua.spring.boot.client.listener.OpcUaListenerArgumentException;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import java.math.BigInteger;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Variants to the Java types that listener parameters declare. */
class ValueConvertersTest {

    @Test
    void integers_convert_to_any_integer_type_that_holds_them() {
        assertThat(convert(int.class, Variant.ofUInt16(65535))).isEqualTo(65535);
        assertThat(convert(long.class, Variant.ofUInt32(4_000_000_000L))).isEqualTo(4_000_000_000L);
        assertThat(convert(short.class, Variant.ofInt32(-300))).isEqualTo((short) -300);
        assertThat(convert(Byte.class, Variant.ofByte(127))).isEqualTo((byte) 127);
        assertThat(convert(Integer.class, Variant.ofSByte((byte) -5))).isEqualTo(-5);
    }

    @Test
    void integers_out_of_the_target_range_are_refused() {
        assertThatExceptionOfType(OpcUaListenerArgumentException.class)
                .isThrownBy(() -> convert(int.class, Variant.ofUInt32(4_000_000_000L)))
                .withMessageContaining("4000000000 (UInt32) does not convert to int: out of its range");
        assertThatExceptionOfType(OpcUaListenerArgumentException.class)
                .isThrownBy(() -> convert(byte.class, Variant.ofByte(200)));
        assertThatExceptionOfType(OpcUaListenerArgumentException.class)
                .isThrownBy(() -> convert(long.class, Variant.ofUInt64(-1L))); // 2^64 - 1
    }

    @Test
    void unsigned_int64_is_read_as_unsigned() {
        assertThat(convert(BigInteger.class, Variant.ofUInt64(-1L))).isEqualTo(BigInteger.TWO.pow(64).subtract(
                BigInteger.ONE));
        assertThat(convert(double.class, Variant.ofUInt64(-1L))).isEqualTo(0x1p64);
    }

    @Test
    void floating_values_become_integers_only_without_fraction_and_in_range() {
        assertThat(convert(int.class, Variant.ofDouble(42.0))).isEqualTo(42);
        assertThatExceptionOfType(OpcUaListenerArgumentException.class)
                .isThrownBy(() -> convert(int.class, Variant.ofDouble(42.5)))
                .withMessageContaining("it has a fraction");
        assertThatExceptionOfType(OpcUaListenerArgumentException.class)
                .isThrownBy(() -> convert(int.class, Variant.ofDouble(3e9)))
                .withMessageContaining("out of its range");
        assertThatExceptionOfType(OpcUaListenerArgumentException.class)
                .isThrownBy(() -> convert(long.class, Variant.ofDouble(0x1p63)));
    }

    @Test
    void numbers_widen_to_floating_types() {
        assertThat(convert(double.class, Variant.ofInt32(7))).isEqualTo(7.0);
        assertThat(convert(double.class, Variant.ofFloat(1.5f))).isEqualTo(1.5);
        assertThat(convert(Float.class, Variant.ofDouble(2.25))).isEqualTo(2.25f);
        assertThatExceptionOfType(OpcUaListenerArgumentException.class)
                .isThrownBy(() -> convert(float.class, Variant.ofDouble(1e300)));
    }

    @Test
    void text_time_and_identifiers_convert_to_their_java_types() {
        DateTime time = DateTime.ofEpochMillis(1_700_000_000_000L);
        assertThat(convert(Instant.class, Variant.ofScalar(BuiltinType.DateTime, time)))
                .isEqualTo(Instant.ofEpochMilli(1_700_000_000_000L));
        assertThat(convert(DateTime.class, Variant.ofScalar(BuiltinType.DateTime, time))).isEqualTo(time);
        assertThat(convert(String.class, Variant.ofScalar(BuiltinType.LocalizedText, LocalizedText.of("en", "hi"))))
                .isEqualTo("hi");
        assertThat(convert(LocalizedText.class, Variant.ofString("x"))).isEqualTo(LocalizedText.of("x"));
        assertThat(convert(NodeId.class, Variant.ofScalar(BuiltinType.NodeId, NodeId.ns0(2253))))
                .isEqualTo(NodeId.ns0(2253));
        assertThat(convert(StatusCode.class, Variant.ofScalar(BuiltinType.StatusCode, StatusCode.GOOD)))
                .isEqualTo(StatusCode.GOOD);
        assertThat((byte[]) convert(byte[].class, Variant.ofScalar(BuiltinType.ByteString,
                ByteString.of(new byte[] {1, 2})))).containsExactly(1, 2);
        assertThat(convert(boolean.class, Variant.ofBoolean(true))).isEqualTo(true);
    }

    @Test
    void a_string_is_never_parsed_into_a_number() {
        assertThatExceptionOfType(OpcUaListenerArgumentException.class)
                .isThrownBy(() -> convert(int.class, Variant.ofString("5")))
                .withMessageContaining("(String) does not convert to int");
        assertThatExceptionOfType(OpcUaListenerArgumentException.class)
                .isThrownBy(() -> convert(boolean.class, Variant.ofInt32(1)));
    }

    @Test
    void null_gives_null_or_fails_for_a_primitive() {
        assertThat(convert(Double.class, Variant.NULL)).isNull();
        assertThat(convert(String.class, Variant.NULL)).isNull();
        assertThatExceptionOfType(OpcUaListenerArgumentException.class)
                .isThrownBy(() -> convert(double.class, Variant.NULL))
                .withMessageContaining("null, which a double cannot hold");
    }

    @Test
    void arrays_convert_element_by_element() {
        assertThat((double[]) convert(double[].class, Variant.ofArray(BuiltinType.Double, new double[] {1, 2})))
                .containsExactly(1, 2);
        assertThat((long[]) convert(long[].class, Variant.ofArray(BuiltinType.Int32, new int[] {3, -4})))
                .containsExactly(3L, -4L);
        assertThat((Integer[]) convert(Integer[].class, Variant.ofArray(BuiltinType.UInt16, new int[] {5})))
                .containsExactly(5);
        assertThat((String[]) convert(String[].class, Variant.ofArray(BuiltinType.Variant,
                new Variant[] {Variant.ofString("a"), Variant.NULL}))).containsExactly("a", null);
        assertThatExceptionOfType(OpcUaListenerArgumentException.class)
                .isThrownBy(() -> convert(byte[].class, Variant.ofArray(BuiltinType.Int32, new int[] {1, 300})))
                .withMessageContaining("is an array"); // byte[] is a ByteString
        assertThatExceptionOfType(OpcUaListenerArgumentException.class)
                .isThrownBy(() -> convert(short[].class, Variant.ofArray(BuiltinType.Int32, new int[] {1, 70000})))
                .withMessageContaining("element 1");
    }

    @Test
    void scalars_and_arrays_do_not_mix() {
        assertThatExceptionOfType(OpcUaListenerArgumentException.class)
                .isThrownBy(() -> convert(double.class, Variant.ofArray(BuiltinType.Double, new double[] {1})))
                .withMessageContaining("is an array");
        assertThatExceptionOfType(OpcUaListenerArgumentException.class)
                .isThrownBy(() -> convert(double[].class, Variant.ofDouble(1)))
                .withMessageContaining("is a scalar");
    }

    @Test
    void types_no_variant_converts_to_have_no_converter() {
        assertThat(ValueConverters.forType(Map.class)).isNull();
        assertThat(ValueConverters.forType(Thread[].class)).isNull();
        assertThat(ValueConverters.forType(char.class)).isNull();
    }

    private static Object convert(Class<?> type, Variant value) {
        ValueConverter converter = ValueConverters.forType(type);
        assertThat(converter).as("converter to " + type).isNotNull();
        return converter.convert(value);
    }
}
