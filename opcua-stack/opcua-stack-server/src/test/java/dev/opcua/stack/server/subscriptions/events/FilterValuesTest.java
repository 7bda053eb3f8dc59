package dev.opcua.stack.server.subscriptions.events;

import static dev.opcua.stack.server.subscriptions.events.FilterValues.INCOMPARABLE;
import static dev.opcua.stack.server.subscriptions.events.FilterValues.compare;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The implicit conversions and precedence of Part 4, 7.7.3 as comparisons use them. */
class FilterValuesTest {

    private static int ordered(Variant a, Variant b) {
        int c = compare(a, b, true);
        int reversed = compare(b, a, true);
        // Conversion goes the same way whichever side a value is on.
        assertThat(reversed).isEqualTo(c == INCOMPARABLE ? INCOMPARABLE : -c);
        return c;
    }

    private static boolean equal(Variant a, Variant b) {
        boolean result = compare(a, b, false) == 0;
        assertThat(compare(b, a, false) == 0).isEqualTo(result);
        return result;
    }

    @Test
    void integers_of_different_types_compare_by_value() {
        assertThat(ordered(Variant.ofInt32(500), Variant.ofUInt16(500))).isZero();
        assertThat(ordered(Variant.ofInt32(-1), Variant.ofUInt16(0))).isNegative();
        assertThat(ordered(Variant.ofInt64(1L << 40), Variant.ofInt32(1))).isPositive();
        assertThat(ordered(Variant.ofByte(200), Variant.ofInt16((short) 200))).isZero();
        assertThat(ordered(Variant.ofSByte((byte) -5), Variant.ofInt32(-5))).isZero();
        assertThat(ordered(Variant.ofUInt32(4_000_000_000L), Variant.ofInt64(4_000_000_000L))).isZero();
    }

    @Test
    void integers_and_floating_point_compare_as_the_floating_type() {
        assertThat(ordered(Variant.ofInt32(500), Variant.ofDouble(500.0))).isZero();
        assertThat(ordered(Variant.ofUInt16(500), Variant.ofDouble(500.5))).isNegative();
        assertThat(ordered(Variant.ofInt32(3), Variant.ofFloat(2.5f))).isPositive();
        assertThat(ordered(Variant.ofFloat(0.5f), Variant.ofDouble(0.5))).isZero();
        assertThat(ordered(Variant.ofUInt64(-1L), Variant.ofDouble(1.8446744073709552E19))).isZero();
    }

    @Test
    void a_value_out_of_the_target_types_range_has_no_conversion() {
        // Int32 has precedence over UInt32, Int16 over UInt16, SByte over Byte, UInt64 over Int32.
        assertThat(ordered(Variant.ofUInt32(3_000_000_000L), Variant.ofInt32(1))).isEqualTo(INCOMPARABLE);
        assertThat(ordered(Variant.ofUInt16(40_000), Variant.ofInt16((short) 1))).isEqualTo(INCOMPARABLE);
        assertThat(ordered(Variant.ofByte(200), Variant.ofSByte((byte) 1))).isEqualTo(INCOMPARABLE);
        assertThat(ordered(Variant.ofInt32(-1), Variant.ofUInt64(5))).isEqualTo(INCOMPARABLE);
        assertThat(ordered(Variant.ofUInt64(-1L), Variant.ofInt64(1))).isEqualTo(INCOMPARABLE);
        assertThat(ordered(Variant.ofInt32(5), Variant.ofUInt64(5))).isZero();
        assertThat(ordered(Variant.ofUInt64(-1L), Variant.ofUInt64(1))).isPositive();
    }

    @Test
    void not_a_number_equals_nothing() {
        assertThat(ordered(Variant.ofDouble(Double.NaN), Variant.ofDouble(Double.NaN))).isEqualTo(INCOMPARABLE);
        assertThat(ordered(Variant.ofDouble(Double.NaN), Variant.ofInt32(1))).isEqualTo(INCOMPARABLE);
    }

    @Test
    void booleans_and_status_codes_convert_to_numbers() {
        assertThat(ordered(Variant.ofBoolean(true), Variant.ofInt32(1))).isZero();
        assertThat(ordered(Variant.ofBoolean(false), Variant.ofBoolean(true))).isNegative();
        Variant bad = Variant.ofScalar(BuiltinType.StatusCode, StatusCode.of(StatusCodes.BadNodeIdUnknown));
        Variant badAsUInt32 = Variant.ofUInt32(StatusCode.of(StatusCodes.BadNodeIdUnknown).unsignedValue());
        assertThat(ordered(bad, badAsUInt32)).isZero();
        assertThat(ordered(bad, Variant.ofInt32(0))).isEqualTo(INCOMPARABLE);
        assertThat(equal(bad, Variant.ofScalar(BuiltinType.StatusCode, StatusCode.GOOD))).isFalse();
    }

    @Test
    void strings_compare_as_strings_and_never_as_numbers() {
        assertThat(ordered(Variant.ofString("abc"), Variant.ofString("abd"))).isNegative();
        assertThat(ordered(Variant.ofString("B"), Variant.ofString("a"))).isNegative();
        assertThat(ordered(Variant.ofString("5"), Variant.ofInt32(5))).isEqualTo(INCOMPARABLE);
        assertThat(ordered(Variant.ofString("true"), Variant.ofBoolean(true))).isEqualTo(INCOMPARABLE);
    }

    @Test
    void texts_and_names_convert_to_strings() {
        assertThat(equal(Variant.of(LocalizedText.of("en", "Hot")), Variant.ofString("Hot"))).isTrue();
        assertThat(equal(Variant.of(QualifiedName.of(3, "Pump")), Variant.ofString("Pump"))).isTrue();
        assertThat(equal(Variant.of(LocalizedText.of("en", "Hot")), Variant.of(LocalizedText.of("de", "Hot"))))
                .isFalse();
        assertThat(ordered(Variant.of(LocalizedText.of("a")), Variant.of(LocalizedText.of("b")))).isNegative();
        assertThat(equal(Variant.of(QualifiedName.of(3, "Pump")), Variant.of(QualifiedName.of(2, "Pump")))).isFalse();
    }

    @Test
    void node_ids_compare_with_expanded_node_ids_and_their_text_form() {
        NodeId id = NodeId.numeric(2, 42);
        assertThat(equal(Variant.of(id), Variant.of(ExpandedNodeId.of(id)))).isTrue();
        assertThat(equal(Variant.of(id), Variant.of(NodeId.numeric(2, 43)))).isFalse();
        assertThat(equal(Variant.of(id), Variant.ofString("ns=2;i=42"))).isTrue();
        assertThat(ordered(Variant.of(id), Variant.of(NodeId.numeric(2, 43)))).isEqualTo(INCOMPARABLE);
    }

    @Test
    void guids_dates_and_byte_strings() {
        UUID guid = UUID.fromString("72962b91-fa75-4ae6-8d28-b404dc7daf63");
        assertThat(equal(Variant.of(guid), Variant.ofString("72962b91-fa75-4ae6-8d28-b404dc7daf63"))).isTrue();
        assertThat(ordered(Variant.of(guid), Variant.ofString("not a guid"))).isEqualTo(INCOMPARABLE);
        assertThat(ordered(Variant.of(DateTime.ofEpochMillis(1)), Variant.of(DateTime.ofEpochMillis(2)))).isNegative();
        Variant one = Variant.of(ByteString.of(new byte[] {1}));
        assertThat(equal(one, Variant.of(ByteString.of(new byte[] {1})))).isTrue();
        assertThat(ordered(Variant.of(ByteString.of(new byte[] {1})), Variant.of(ByteString.of(new byte[] {2}))))
                .isEqualTo(INCOMPARABLE);
        assertThat(ordered(Variant.of(DateTime.ofEpochMillis(1)), Variant.ofInt64(1))).isEqualTo(INCOMPARABLE);
    }

    @Test
    void arrays_compare_for_equality_only() {
        Variant a = Variant.ofArray(BuiltinType.Int32, new int[] {1, 2});
        assertThat(equal(a, Variant.ofArray(BuiltinType.Int32, new int[] {1, 2}))).isTrue();
        assertThat(equal(a, Variant.ofArray(BuiltinType.Int32, new int[] {1, 3}))).isFalse();
        assertThat(equal(a, Variant.ofInt32(1))).isFalse();
        assertThat(ordered(a, Variant.ofArray(BuiltinType.Int32, new int[] {1, 2}))).isEqualTo(INCOMPARABLE);
    }

    @Test
    void null_values_of_nullable_types_count_as_null() {
        assertThat(FilterValues.isNull(Variant.NULL)).isTrue();
        assertThat(FilterValues.isNull(Variant.of(LocalizedText.NULL))).isTrue();
        assertThat(FilterValues.isNull(Variant.of(ByteString.NULL))).isTrue();
        assertThat(FilterValues.isNull(Variant.of(NodeId.NULL))).isTrue();
        assertThat(FilterValues.isNull(Variant.ofString(""))).isFalse();
        assertThat(FilterValues.isNull(Variant.ofInt32(0))).isFalse();
    }
}
