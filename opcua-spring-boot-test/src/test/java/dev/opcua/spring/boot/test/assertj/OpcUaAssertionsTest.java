package dev.opcua.spring.boot.test.assertj;

import static dev.opcua.spring.boot.test.assertj.OpcUaAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.NodeClass;
import dev.opcua.stack.core.types.structured.BrowseResult;
import dev.opcua.stack.core.types.structured.ReferenceDescription;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The assertions pass on what they describe and fail with messages that name statuses symbolically. */
class OpcUaAssertionsTest {

    private static final StatusCode NODE_UNKNOWN = StatusCode.of(StatusCodes.BadNodeIdUnknown);
    private static final Instant T0 = Instant.parse("2026-12-05T10:00:00Z");

    private static DataValue speed(double value) {
        return DataValue.of(Variant.ofDouble(value), StatusCode.GOOD, DateTime.ofInstant(T0), DateTime.ofInstant(T0));
    }

    private static ReferenceDescription reference(String name) {
        return new ReferenceDescription(NodeId.ns0(NodeIds.Organizes), true,
                ExpandedNodeId.of(NodeId.numeric(2, name.hashCode() & 0xFFFF)), QualifiedName.of(2, name),
                LocalizedText.of(name), NodeClass.Variable, ExpandedNodeId.of(NodeId.ns0(NodeIds.BaseDataVariableType)));
    }

    @Test
    void a_good_data_value_with_its_value_and_timestamps_passes() {
        assertThat(speed(240.0)).isGood().hasValue(240.0).hasStatus(StatusCodes.Good).hasStatus(0L)
                .hasStatus(StatusCode.GOOD).hasSourceTimestamp().hasSourceTimestampAfter(T0.minusSeconds(1))
                .hasSourceTimestampNotAfter(T0).hasServerTimestampAfter(T0.minusMillis(1));
        assertThat(speed(240.0)).value().hasType(BuiltinType.Double).isScalar();
    }

    @Test
    void a_bad_data_value_fails_is_good_naming_its_status() {
        assertThatExceptionOfType(AssertionError.class)
                .isThrownBy(() -> assertThat(DataValue.ofStatus(NODE_UNKNOWN)).isGood())
                .withMessageContaining("Expecting a Good DataValue but its status was BadNodeIdUnknown (0x80340000)");
    }

    @Test
    void has_status_fails_naming_the_expected_and_the_actual_status() {
        assertThatExceptionOfType(AssertionError.class)
                .isThrownBy(() -> assertThat(speed(1.0)).hasStatus(StatusCodes.BadUserAccessDenied))
                .withMessageContaining("status BadUserAccessDenied (0x801F0000) but was Good (0x00000000)");
        assertThatExceptionOfType(AssertionError.class)
                .isThrownBy(() -> assertThat(speed(1.0)).hasStatus(0x80340000L))
                .withMessageContaining("status BadNodeIdUnknown (0x80340000)");
    }

    @Test
    void has_status_ignores_the_info_bits_of_an_overflowed_value() {
        DataValue overflowed = DataValue.of(Variant.ofDouble(1.0), StatusCode.GOOD.withOverflow(), null, null);
        assertThat(overflowed).isGood().hasStatus(StatusCodes.Good);
        assertThat(overflowed.statusCode()).isNotEqualTo(StatusCode.GOOD);
    }

    @Test
    void has_value_fails_naming_both_values_with_their_java_types() {
        assertThatExceptionOfType(AssertionError.class)
                .isThrownBy(() -> assertThat(speed(240.0)).hasValue(240))
                .withMessageContaining("value 240 (Integer) but was 240.0 (Double)");
    }

    @Test
    void timestamps_fail_naming_the_bound_and_the_timestamp() {
        assertThatExceptionOfType(AssertionError.class)
                .isThrownBy(() -> assertThat(speed(1.0)).hasSourceTimestampAfter(T0))
                .withMessageContaining("a source timestamp after 2026-12-05T10:00:00Z but was 2026-12-05T10:00:00Z");
        assertThatExceptionOfType(AssertionError.class)
                .isThrownBy(() -> assertThat(DataValue.of(Variant.ofDouble(1.0))).hasSourceTimestamp())
                .withMessageContaining("with a source timestamp but it had none");
    }

    @Test
    void a_status_code_is_compared_by_its_code_with_the_symbolic_name_in_the_message() {
        assertThat(NODE_UNKNOWN).isBad().is(StatusCodes.BadNodeIdUnknown).isNot(StatusCodes.BadNodeIdInvalid);
        assertThat(StatusCode.of(StatusCodes.UncertainLastUsableValue)).isUncertain();
        assertThatExceptionOfType(AssertionError.class)
                .isThrownBy(() -> assertThat(NODE_UNKNOWN).is(StatusCodes.BadNodeIdInvalid))
                .withMessage("Expecting status code BadNodeIdInvalid (0x80330000) but was BadNodeIdUnknown (0x80340000)");
        assertThatExceptionOfType(AssertionError.class)
                .isThrownBy(() -> assertThat(NODE_UNKNOWN).isGood())
                .withMessage("Expecting a Good status code but was BadNodeIdUnknown (0x80340000)");
        assertThatExceptionOfType(AssertionError.class)
                .isThrownBy(() -> assertThat(StatusCode.GOOD).isBad())
                .withMessage("Expecting a Bad status code but was Good (0x00000000)");
    }

    @Test
    void a_variant_is_checked_for_value_type_shape_and_null() {
        assertThat(Variant.ofArray(BuiltinType.Int32, new int[] {1, 2})).isArray().hasType(BuiltinType.Int32)
                .hasValue(new int[] {1, 2});
        assertThat(Variant.NULL).hasNullValue();
        assertThatExceptionOfType(AssertionError.class)
                .isThrownBy(() -> assertThat(Variant.ofString("x")).hasType(BuiltinType.Int32))
                .withMessageContaining("type Int32 but was String holding x (String)");
        assertThatExceptionOfType(AssertionError.class)
                .isThrownBy(() -> assertThat(Variant.ofArray(BuiltinType.Int32, new int[] {1, 2})).hasValue(new int[] {2}))
                .withMessageContaining("value [2] (int[]) but was [1, 2] (int[])");
        assertThatExceptionOfType(AssertionError.class)
                .isThrownBy(() -> assertThat(Variant.ofInt32(3)).hasNullValue())
                .withMessageContaining("Expecting a Null variant but was 3 (Integer)");
    }

    @Test
    void browse_results_are_checked_by_the_browse_names_of_their_targets() {
        BrowseResult result = new BrowseResult(StatusCode.GOOD, null,
                new ReferenceDescription[] {reference("Speed"), reference("State")});
        assertThat(result).isGood().containsBrowseNames("State").containsExactlyInAnyOrderBrowseNames("State", "Speed")
                .doesNotContainBrowseNames("Temperature");
        List<ReferenceDescription> references = List.of(reference("Speed"), reference("State"));
        assertThat(references).containsBrowseNames("Speed", "State").hasSize(2);

        assertThatExceptionOfType(AssertionError.class)
                .isThrownBy(() -> assertThat(result).containsBrowseNames("Speed", "Temperature"))
                .withMessage("Expecting references to targets with the browse names [Speed, Temperature] but"
                        + " [Temperature] were missing; the browse names were [Speed, State]");
        assertThatExceptionOfType(AssertionError.class)
                .isThrownBy(() -> assertThat(result).containsExactlyInAnyOrderBrowseNames("Speed"))
                .withMessageContaining("[] were missing and [State] were not expected");
        assertThatExceptionOfType(AssertionError.class)
                .isThrownBy(() -> assertThat(result).doesNotContainBrowseNames("State"))
                .withMessageContaining("but found [State]");
    }

    @Test
    void a_bad_browse_result_fails_is_good_naming_its_status() {
        BrowseResult unknown = new BrowseResult(NODE_UNKNOWN, null, new ReferenceDescription[0]);
        assertThat(unknown).hasStatus(StatusCodes.BadNodeIdUnknown).references().hasSize(0);
        assertThatExceptionOfType(AssertionError.class)
                .isThrownBy(() -> assertThat(unknown).isGood())
                .withMessageContaining("BadNodeIdUnknown (0x80340000)");
    }

    @Test
    void the_assertions_stand_beside_assertj_own_assert_that() {
        assertThat(List.of("a")).containsExactly("a");
        assertThat("text").startsWith("t");
    }
}
