package dev.opcua.stack.server.subscriptions.items;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.DataChangeTrigger;
import dev.opcua.stack.core.types.enumerated.DeadbandType;
import org.junit.jupiter.api.Test;

/** DataChangeFilter triggers and the absolute deadband (Part 4, 7.22.2). */
class ChangeFilterTest {

    private static final DateTime T1 = DateTime.ofEpochMillis(1_000);
    private static final DateTime T2 = DateTime.ofEpochMillis(2_000);

    private static DataValue d(double value, DateTime source) {
        return DataValue.of(Variant.ofDouble(value), StatusCode.GOOD, source, null);
    }

    private static DataValue bad(double value) {
        return DataValue.of(Variant.ofDouble(value), StatusCode.of(StatusCodes.BadNoCommunication), T1, null);
    }

    @Test
    void status_reports_only_status_changes() {
        ChangeFilter status = new ChangeFilter(DataChangeTrigger.Status, DeadbandType.None, 0);
        assertThat(status.isChange(d(1, T1), d(2, T2))).isFalse();
        assertThat(status.isChange(d(1, T1), bad(1))).isTrue();
    }

    @Test
    void status_value_the_default_reports_value_and_status_changes_but_not_a_new_timestamp() {
        ChangeFilter filter = ChangeFilter.DEFAULT;
        assertThat(filter.trigger()).isEqualTo(DataChangeTrigger.StatusValue);
        assertThat(filter.isChange(d(1, T1), d(1, T2))).isFalse();
        assertThat(filter.isChange(d(1, T1), d(1.5, T1))).isTrue();
        assertThat(filter.isChange(d(1, T1), bad(1))).isTrue();
    }

    @Test
    void status_value_timestamp_reports_a_new_source_timestamp_unless_a_deadband_is_set() {
        ChangeFilter timestamps = new ChangeFilter(DataChangeTrigger.StatusValueTimestamp, DeadbandType.None, 0);
        assertThat(timestamps.isChange(d(1, T1), d(1, T2))).isTrue();
        assertThat(timestamps.isChange(d(1, T1), d(1, T1))).isFalse();
        ChangeFilter withDeadband = new ChangeFilter(DataChangeTrigger.StatusValueTimestamp, DeadbandType.Absolute, 1);
        assertThat(withDeadband.isChange(d(1, T1), d(1.5, T2))).isFalse();
    }

    @Test
    void an_absolute_deadband_reports_changes_strictly_larger_than_it_and_every_status_change() {
        ChangeFilter deadband = new ChangeFilter(DataChangeTrigger.StatusValue, DeadbandType.Absolute, 2);
        assertThat(deadband.isChange(d(10, T1), d(12, T2))).isFalse();
        assertThat(deadband.isChange(d(10, T1), d(7.9, T2))).isTrue();
        assertThat(deadband.isChange(d(10, T1), d(12.01, T2))).isTrue();
        assertThat(deadband.isChange(d(10, T1), bad(10))).isTrue();
    }

    @Test
    void nan_is_reported_once_when_the_value_enters_it_and_once_when_it_leaves() {
        ChangeFilter deadband = new ChangeFilter(DataChangeTrigger.StatusValue, DeadbandType.Absolute, 2);
        assertThat(deadband.isChange(d(1, T1), d(Double.NaN, T1))).isTrue();
        assertThat(deadband.isChange(d(Double.NaN, T1), d(Double.NaN, T2))).isFalse();
        assertThat(deadband.isChange(d(Double.NaN, T1), d(1, T2))).isTrue();
        assertThat(ChangeFilter.DEFAULT.isChange(d(Double.NaN, T1), d(Double.NaN, T2))).isFalse();
    }

    @Test
    void an_array_changes_when_any_element_exceeds_the_deadband_or_its_length_changes() {
        Variant a = Variant.ofArray(BuiltinType.Int32, new int[] {10, 20, 30});
        Variant small = Variant.ofArray(BuiltinType.Int32, new int[] {11, 21, 31});
        Variant large = Variant.ofArray(BuiltinType.Int32, new int[] {10, 20, 35});
        Variant longer = Variant.ofArray(BuiltinType.Int32, new int[] {10, 20, 30, 40});
        assertThat(ChangeFilter.exceedsDeadband(a, small, 2)).isFalse();
        assertThat(ChangeFilter.exceedsDeadband(a, large, 2)).isTrue();
        assertThat(ChangeFilter.exceedsDeadband(a, longer, 2)).isTrue();
    }

    @Test
    void every_numeric_type_is_compared_by_value_and_uint64_as_unsigned() {
        assertThat(ChangeFilter.exceedsDeadband(Variant.ofUInt32(4_000_000_000L), Variant.ofUInt32(4_000_000_001L), 0.5))
                .isTrue();
        assertThat(ChangeFilter.exceedsDeadband(Variant.ofUInt64(-1L), Variant.ofUInt64(-2L), 10)).isFalse();
        assertThat(ChangeFilter.exceedsDeadband(Variant.ofFloat(1f), Variant.ofFloat(1.25f), 0.5)).isFalse();
        assertThat(ChangeFilter.exceedsDeadband(Variant.ofSByte((byte) 1), Variant.ofSByte((byte) 5), 3)).isTrue();
        assertThat(ChangeFilter.exceedsDeadband(Variant.ofArray(BuiltinType.Byte, new short[] {1, 200}),
                Variant.ofArray(BuiltinType.Byte, new short[] {1, 201}), 0.5)).isTrue();
    }

    @Test
    void values_that_are_not_numbers_fall_back_to_equality_under_a_deadband() {
        assertThat(ChangeFilter.exceedsDeadband(Variant.ofString("a"), Variant.ofString("a"), 5)).isFalse();
        assertThat(ChangeFilter.exceedsDeadband(Variant.ofString("a"), Variant.ofString("b"), 5)).isTrue();
        assertThat(ChangeFilter.exceedsDeadband(Variant.NULL, Variant.ofDouble(1), 5)).isTrue();
        assertThat(ChangeFilter.exceedsDeadband(Variant.ofInt32(1), Variant.ofDouble(1), 5)).isTrue();
    }
}
