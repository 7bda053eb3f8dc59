package dev.opcua.stack.server.history.aggregate;

import static dev.opcua.stack.server.history.aggregate.HistorianBits.CALCULATED;
import static dev.opcua.stack.server.history.aggregate.HistorianBits.INTERPOLATED;
import static dev.opcua.stack.server.history.aggregate.HistorianBits.MULTI_VALUE;
import static dev.opcua.stack.server.history.aggregate.HistorianBits.PARTIAL;
import static dev.opcua.stack.server.history.aggregate.HistorianBits.RAW;
import static dev.opcua.stack.server.history.aggregate.RawData.ticks;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Expectations worked out by hand from the definitions of Part 13 (sections named per test) on
 * {@link RawData#standard()}: 10@0s, 20@10s, 30@20s Good, Bad@30s, 50@40s Good, 60@50s Uncertain.
 */
class AggregateCalculatorTest {

    private static final AggregateConfiguration DEFAULT = AggregateConfiguration.DEFAULT;
    private static final AggregateConfiguration UNCERTAIN_IS_GOOD = new AggregateConfiguration(false, 100, 100, false);
    private static final int SUB_NORMAL = StatusCodes.UncertainDataSubNormal;

    private static List<DataValue> run(AggregateFunction function, RawData data, int from, int to, int interval,
            AggregateConfiguration config, boolean stepped) {
        List<AggregateInterval> intervals =
                AggregateInterval.split(ticks(from), ticks(to), interval * RawData.TICKS_PER_SECOND, 10_000);
        return AggregateCalculator.calculate(function, data.list(), intervals, config, stepped);
    }

    private static List<DataValue> run(AggregateFunction function, int from, int to, int interval) {
        return run(function, RawData.standard(), from, to, interval, DEFAULT, false);
    }

    private static void expect(DataValue actual, Double value, int code, int bits, int second) {
        if (value == null) {
            assertThat(actual.value()).as("value of %s", actual).isEqualTo(Variant.NULL);
        } else {
            assertThat(actual.value().doubleValue()).as("value of %s", actual).isCloseTo(value,
                    org.assertj.core.data.Offset.offset(1e-9));
        }
        assertThat(actual.statusCode()).as("status of %s", actual).isEqualTo(HistorianBits.with(code, bits));
        assertThat(actual.sourceTimestamp().utcTicks()).as("timestamp of %s", actual).isEqualTo(ticks(second));
    }

    @Nested
    class Interpolative {

        @Test
        void raw_values_on_interval_starts_are_returned_as_raw_and_values_between_are_interpolated_sloped() {
            List<DataValue> r = run(AggregateFunction.INTERPOLATIVE, 0, 20, 5);

            expect(r.get(0), 10.0, StatusCodes.Good, RAW, 0);
            expect(r.get(1), 15.0, StatusCodes.Good, INTERPOLATED, 5);
            expect(r.get(2), 20.0, StatusCodes.Good, RAW, 10);
            expect(r.get(3), 25.0, StatusCodes.Good, INTERPOLATED, 15);
        }

        @Test
        void stepped_history_holds_the_previous_value() {
            List<DataValue> r = run(AggregateFunction.INTERPOLATIVE, RawData.standard(), 0, 10, 5, DEFAULT, true);

            expect(r.get(1), 10.0, StatusCodes.Good, INTERPOLATED, 5);
        }

        @Test
        void bad_values_are_skipped_and_make_the_bound_uncertain() {
            // 3.1.8: before = 30@20 (Bad@30 skipped), after = 50@40: 30 + 15 * (50 - 30) / 20 = 45.
            expect(run(AggregateFunction.INTERPOLATIVE, 35, 40, 5).get(0), 45.0, SUB_NORMAL, INTERPOLATED, 35);
            // A Bad raw value on the start time is not the bound: 30 + 10 * 20 / 20 = 40.
            expect(run(AggregateFunction.INTERPOLATIVE, 30, 35, 5).get(0), 40.0, SUB_NORMAL, INTERPOLATED, 30);
        }

        @Test
        void before_the_start_of_data_is_bad_no_data() {
            expect(run(AggregateFunction.INTERPOLATIVE, -10, -5, 5).get(0), null, StatusCodes.BadNoData, 0, -10);
        }

        @Test
        void after_the_end_of_data_is_extrapolated_stepped_or_sloped_and_uncertain() {
            // Uncertain@50 counts as Bad by default, so the last usable value is 50@40.
            expect(run(AggregateFunction.INTERPOLATIVE, 70, 75, 5).get(0), 50.0, SUB_NORMAL, INTERPOLATED, 70);
            // Sloped extrapolation through 30@20 and 50@40: 50 + 30 * 20 / 20 = 80.
            AggregateConfiguration sloped = new AggregateConfiguration(true, 100, 100, true);
            expect(run(AggregateFunction.INTERPOLATIVE, RawData.standard(), 70, 75, 5, sloped, false).get(0), 80.0,
                    SUB_NORMAL, INTERPOLATED, 70);
        }

        @Test
        void integer_sources_give_integer_results() {
            RawData ints = new RawData().goodInt(0, 10).goodInt(10, 15);
            DataValue at4 = run(AggregateFunction.INTERPOLATIVE, ints, 4, 5, 1, DEFAULT, false).get(0);

            assertThat(at4.value()).isEqualTo(Variant.ofInt32(12));
        }
    }

    @Nested
    class Average {

        @Test
        void averages_good_values_per_interval_and_gives_bad_no_data_where_none_is_usable() {
            List<DataValue> r = run(AggregateFunction.AVERAGE, 0, 60, 10);

            expect(r.get(0), 10.0, StatusCodes.Good, CALCULATED, 0);
            expect(r.get(2), 30.0, StatusCodes.Good, CALCULATED, 20);
            expect(r.get(3), null, StatusCodes.BadNoData, 0, 30);
            expect(r.get(4), 50.0, StatusCodes.Good, CALCULATED, 40);
            expect(r.get(5), null, StatusCodes.BadNoData, 0, 50);
        }

        @Test
        void uncertain_values_are_used_when_not_treated_as_bad_but_keep_the_result_uncertain() {
            List<DataValue> r = run(AggregateFunction.AVERAGE, RawData.standard(), 40, 60, 20, UNCERTAIN_IS_GOOD,
                    false);

            expect(r.get(0), 55.0, SUB_NORMAL, CALCULATED, 40);
        }

        @Test
        void percent_data_bad_and_good_decide_the_status_by_count_of_values() {
            // [0, 40): 10, 20, 30 Good and one Bad: 25 % Bad, 75 % Good; average 20.
            expect(run(AggregateFunction.AVERAGE, 0, 40, 40).get(0), 20.0, SUB_NORMAL, CALCULATED, 0);
            AggregateConfiguration badFrom25 = new AggregateConfiguration(true, 25, 100, false);
            expect(run(AggregateFunction.AVERAGE, RawData.standard(), 0, 40, 40, badFrom25, false).get(0), null,
                    StatusCodes.Bad, CALCULATED, 0);
            AggregateConfiguration goodFrom75 = new AggregateConfiguration(true, 100, 75, false);
            expect(run(AggregateFunction.AVERAGE, RawData.standard(), 0, 40, 40, goodFrom75, false).get(0), 20.0,
                    StatusCodes.Good, CALCULATED, 0);
        }

        @Test
        void the_shorter_last_interval_is_partial() {
            expect(run(AggregateFunction.AVERAGE, 0, 25, 10).get(2), 30.0, StatusCodes.Good, CALCULATED | PARTIAL, 20);
        }

        @Test
        void reverse_reads_give_intervals_from_start_time_backwards() {
            List<DataValue> r = run(AggregateFunction.AVERAGE, 30, 0, 10);

            expect(r.get(0), 30.0, StatusCodes.Good, CALCULATED, 30);
            expect(r.get(2), 10.0, StatusCodes.Good, CALCULATED, 10);
        }

        @Test
        void strings_are_invalid_inputs() {
            RawData strings = new RawData().add(0, Variant.ofString("on"), StatusCode.GOOD);

            expect(run(AggregateFunction.AVERAGE, strings, 0, 10, 10, DEFAULT, false).get(0), null,
                    StatusCodes.BadAggregateInvalidInputs, 0, 0);
        }
    }

    @Nested
    class TimeWeighted {

        @Test
        void time_average_is_the_area_under_the_sloped_line_divided_by_the_interval_and_total_the_area_in_seconds() {
            // [0, 20): (10+20)/2 * 10 + (20+30)/2 * 10 = 400 value-seconds over 20 s.
            expect(run(AggregateFunction.TIME_AVERAGE, 0, 20, 20).get(0), 20.0, StatusCodes.Good, CALCULATED, 0);
            expect(run(AggregateFunction.TOTAL, 0, 20, 20).get(0), 400.0, StatusCodes.Good, CALCULATED, 0);
        }

        @Test
        void bounds_are_interpolated_at_both_ends() {
            // [5, 15): bounds 15 and 25; (15+20)/2 * 5 + (20+25)/2 * 5 = 200 over 10 s.
            expect(run(AggregateFunction.TIME_AVERAGE, 5, 15, 10).get(0), 20.0, StatusCodes.Good, CALCULATED, 5);
        }

        @Test
        void a_bad_region_is_bridged_and_makes_the_result_uncertain_by_its_share_of_time() {
            // [20, 40): line from 30@20 to 50@40 across Bad@30: mean 40; [30, 40) is Bad, 50 % of the time.
            expect(run(AggregateFunction.TIME_AVERAGE, 20, 40, 20).get(0), 40.0, SUB_NORMAL, CALCULATED, 20);
            AggregateConfiguration badFromHalf = new AggregateConfiguration(true, 50, 100, false);
            expect(run(AggregateFunction.TOTAL, RawData.standard(), 20, 40, 20, badFromHalf, false).get(0), null,
                    StatusCodes.Bad, CALCULATED, 20);
            AggregateConfiguration goodFromHalf = new AggregateConfiguration(true, 100, 50, false);
            expect(run(AggregateFunction.TOTAL, RawData.standard(), 20, 40, 20, goodFromHalf, false).get(0), 800.0,
                    StatusCodes.Good, CALCULATED, 20);
        }

        @Test
        void without_a_start_bound_the_partial_interval_is_averaged() {
            // [-10, 10): no data before 0; from 0 the line 10 -> 20: mean 15 over the 10 s covered.
            expect(run(AggregateFunction.TIME_AVERAGE, -10, 10, 20).get(0), 15.0, SUB_NORMAL, CALCULATED | PARTIAL, -10);
        }

        @Test
        void after_the_end_of_data_the_value_is_extrapolated_and_uncertain() {
            RawData endsGood = new RawData().good(0, 10).good(10, 20);
            expect(run(AggregateFunction.TIME_AVERAGE, endsGood, 30, 40, 10, DEFAULT, false).get(0), 20.0, SUB_NORMAL,
                    CALCULATED, 30);
            // The standard series ends with an Uncertain value, Bad by default: the whole interval is a Bad region.
            expect(run(AggregateFunction.TIME_AVERAGE, 70, 80, 10).get(0), null, StatusCodes.Bad, CALCULATED, 70);
        }

        @Test
        void before_the_start_of_data_is_bad_no_data() {
            expect(run(AggregateFunction.TOTAL, -20, -10, 10).get(0), null, StatusCodes.BadNoData, 0, -20);
        }
    }

    @Nested
    class MinimumAndMaximum {

        @Test
        void extremes_of_good_values_are_raw_on_the_start_time_and_calculated_elsewhere() {
            expect(run(AggregateFunction.MINIMUM, 0, 30, 30).get(0), 10.0, StatusCodes.Good, RAW, 0);
            expect(run(AggregateFunction.MAXIMUM, 0, 30, 30).get(0), 30.0, StatusCodes.Good, CALCULATED, 0);
        }

        @Test
        void skipped_bad_values_make_the_result_uncertain() {
            expect(run(AggregateFunction.MAXIMUM, 20, 50, 30).get(0), 50.0, SUB_NORMAL, CALCULATED, 20);
        }

        @Test
        void an_uncertain_value_beyond_the_good_extreme_makes_it_uncertain() {
            RawData data = RawData.standard();
            expect(run(AggregateFunction.MAXIMUM, data, 40, 60, 20, UNCERTAIN_IS_GOOD, false).get(0), 50.0,
                    SUB_NORMAL, CALCULATED, 40);
            expect(run(AggregateFunction.MINIMUM, data, 40, 60, 20, UNCERTAIN_IS_GOOD, false).get(0), 50.0,
                    StatusCodes.Good, RAW, 40);
        }

        @Test
        void an_extreme_reached_twice_sets_multi_value_and_keeps_the_source_type() {
            RawData data = new RawData().goodInt(0, 7).goodInt(3, 5).goodInt(6, 5);
            DataValue min = run(AggregateFunction.MINIMUM, data, 0, 10, 10, DEFAULT, false).get(0);

            expect(min, 5.0, StatusCodes.Good, CALCULATED | MULTI_VALUE, 0);
            assertThat(min.value().type()).isEqualTo(BuiltinType.Int32);
        }

        @Test
        void only_bad_values_give_bad_no_data() {
            expect(run(AggregateFunction.MINIMUM, 30, 40, 10).get(0), null, StatusCodes.BadNoData, 0, 30);
        }
    }

    @Nested
    class Count {

        @Test
        void counts_usable_values_and_zero_inside_the_data_but_bad_no_data_outside_it() {
            RawData gap = new RawData().good(0, 1).good(5, 2).good(25, 3);
            List<DataValue> r = run(AggregateFunction.COUNT, gap, -10, 40, 10, DEFAULT, false);

            expect(r.get(0), null, StatusCodes.BadNoData, 0, -10);
            expect(r.get(1), 2.0, StatusCodes.Good, CALCULATED, 0);
            expect(r.get(2), 0.0, StatusCodes.Good, CALCULATED, 10);
            expect(r.get(3), 1.0, StatusCodes.Good, CALCULATED, 20);
            expect(r.get(4), null, StatusCodes.BadNoData, 0, 30);
            assertThat(r.get(1).value().type()).isEqualTo(BuiltinType.Int32);
        }

        @Test
        void bad_values_are_not_counted_and_lower_the_status() {
            expect(run(AggregateFunction.COUNT, 0, 40, 40).get(0), 3.0, SUB_NORMAL, CALCULATED, 0);
        }
    }

    @Nested
    class StartEndAndDelta {

        @Test
        void start_and_end_return_the_raw_values_with_their_own_status_and_timestamp() {
            expect(run(AggregateFunction.START, 20, 40, 20).get(0), 30.0, StatusCodes.Good, RAW, 20);
            expect(run(AggregateFunction.END, 20, 40, 20).get(0), null, StatusCodes.BadSensorFailure, RAW, 30);
            expect(run(AggregateFunction.END, 15, 25, 10).get(0), 30.0, StatusCodes.Good, RAW, 20);
        }

        @Test
        void start_in_a_partial_interval_carries_the_partial_bit_and_an_empty_interval_has_no_data() {
            expect(run(AggregateFunction.START, 0, 25, 10).get(2), 30.0, StatusCodes.Good, PARTIAL, 20);
            expect(run(AggregateFunction.START, 31, 39, 8).get(0), null, StatusCodes.BadNoData, 0, 31);
        }

        @Test
        void delta_is_last_good_less_first_good_and_uncertain_when_non_good_values_were_skipped() {
            expect(run(AggregateFunction.DELTA, 0, 30, 30).get(0), 20.0, StatusCodes.Good, CALCULATED, 0);
            // Uncertain@50 is skipped looking for the last Good value, 50@40.
            expect(run(AggregateFunction.DELTA, 0, 60, 60).get(0), 40.0, SUB_NORMAL, CALCULATED, 0);
            expect(run(AggregateFunction.DELTA, 30, 40, 10).get(0), null, StatusCodes.BadNoData, 0, 30);
        }

        @Test
        void delta_of_a_single_value_is_zero_in_the_source_type() {
            RawData data = new RawData().goodInt(0, 7);
            DataValue delta = run(AggregateFunction.DELTA, data, 0, 10, 10, DEFAULT, false).get(0);

            assertThat(delta.value()).isEqualTo(Variant.ofInt32(0));
        }
    }

    @Nested
    class Durations {

        @Test
        void durations_sum_the_regions_each_raw_value_starts() {
            // Good [0,30) and [40,50), Bad [30,40), Uncertain [50,60) is neither.
            expect(run(AggregateFunction.DURATION_GOOD, 0, 60, 60).get(0), 40_000.0, StatusCodes.Good, CALCULATED, 0);
            expect(run(AggregateFunction.DURATION_BAD, 0, 60, 60).get(0), 10_000.0, StatusCodes.Good, CALCULATED, 0);
        }

        @Test
        void the_first_region_takes_the_status_of_the_value_before_the_start_and_is_bad_without_one() {
            // [35, 45): Bad from 30 until 40, Good from 40.
            expect(run(AggregateFunction.DURATION_BAD, 35, 45, 10).get(0), 5_000.0, StatusCodes.Good, CALCULATED, 35);
            // [-10, 10): no value before 0 counts as Bad.
            expect(run(AggregateFunction.DURATION_BAD, -10, 10, 20).get(0), 10_000.0, StatusCodes.Good, CALCULATED,
                    -10);
            expect(run(AggregateFunction.DURATION_GOOD, -10, 10, 20).get(0), 10_000.0, StatusCodes.Good, CALCULATED,
                    -10);
        }

        @Test
        void before_the_start_and_after_the_end_of_data_is_bad_no_data() {
            expect(run(AggregateFunction.DURATION_GOOD, -20, -10, 10).get(0), null, StatusCodes.BadNoData, 0, -20);
            expect(run(AggregateFunction.DURATION_BAD, 60, 70, 10).get(0), null, StatusCodes.BadNoData, 0, 60);
        }
    }

    @Test
    void every_function_is_found_by_its_namespace_zero_node_id() {
        for (AggregateFunction function : AggregateFunction.values()) {
            assertThat(AggregateFunction.forNodeId(function.nodeId())).contains(function);
        }
        assertThat(AggregateFunction.forNodeId(dev.opcua.stack.core.types.builtin.NodeId.ns0(2345))).isEmpty();
    }
}
