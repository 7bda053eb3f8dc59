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
        void rawValuesOnIntervalStartsAreReturnedAsRawAndValuesBetweenAreInterpolatedSloped() {
            List<DataValue> r = run(AggregateFunction.INTERPOLATIVE, 0, 20, 5);

            expect(r.get(0), 10.0, StatusCodes.Good, RAW, 0);
            expect(r.get(1), 15.0, StatusCodes.Good, INTERPOLATED, 5);
            expect(r.get(2), 20.0, StatusCodes.Good, RAW, 10);
            expect(r.get(3), 25.0, StatusCodes.Good, INTERPOLATED, 15);
        }

        @Test
        void steppedHistoryHoldsThePreviousValue() {
            List<DataValue> r = run(AggregateFunction.INTERPOLATIVE, RawData.standard(), 0, 10, 5, DEFAULT, true);

            expect(r.get(1), 10.0, StatusCodes.Good, INTERPOLATED, 5);
        }

        @Test
        void badValuesAreSkippedAndMakeTheBoundUncertain() {
            // 3.1.8: before = 30@20 (Bad@30 skipped), after = 50@40: 30 + 15 * (50 - 30) / 20 = 45.
            expect(run(AggregateFunction.INTERPOLATIVE, 35, 40, 5).get(0), 45.0, SUB_NORMAL, INTERPOLATED, 35);
            // A Bad raw value on the start time is not the bound: 30 + 10 * 20 / 20 = 40.
            expect(run(AggregateFunction.INTERPOLATIVE, 30, 35, 5).get(0), 40.0, SUB_NORMAL, INTERPOLATED, 30);
        }

        @Test
        void beforeTheStartOfDataIsBadNoData() {
            expect(run(AggregateFunction.INTERPOLATIVE, -10, -5, 5).get(0), null, StatusCodes.BadNoData, 0, -10);
        }

        @Test
        void afterTheEndOfDataIsExtrapolatedSteppedOrSlopedAndUncertain() {
            // Uncertain@50 counts as Bad by default, so the last usable value is 50@40.
            expect(run(AggregateFunction.INTERPOLATIVE, 70, 75, 5).get(0), 50.0, SUB_NORMAL, INTERPOLATED, 70);
            // Sloped extrapolation through 30@20 and 50@40: 50 + 30 * 20 / 20 = 80.
            AggregateConfiguration sloped = new AggregateConfiguration(true, 100, 100, true);
            expect(run(AggregateFunction.INTERPOLATIVE, RawData.standard(), 70, 75, 5, sloped, false).get(0), 80.0,
                    SUB_NORMAL, INTERPOLATED, 70);
        }

        @Test
        void integerSourcesGiveIntegerResults() {
            RawData ints = new RawData().goodInt(0, 10).goodInt(10, 15);
            DataValue at4 = run(AggregateFunction.INTERPOLATIVE, ints, 4, 5, 1, DEFAULT, false).get(0);

            assertThat(at4.value()).isEqualTo(Variant.ofInt32(12));
        }
    }

    @Nested
    class Average {

        @Test
        void averagesGoodValuesPerIntervalAndGivesBadNoDataWhereNoneIsUsable() {
            List<DataValue> r = run(AggregateFunction.AVERAGE, 0, 60, 10);

            expect(r.get(0), 10.0, StatusCodes.Good, CALCULATED, 0);
            expect(r.get(2), 30.0, StatusCodes.Good, CALCULATED, 20);
            expect(r.get(3), null, StatusCodes.BadNoData, 0, 30);
            expect(r.get(4), 50.0, StatusCodes.Good, CALCULATED, 40);
            expect(r.get(5), null, StatusCodes.BadNoData, 0, 50);
        }

        @Test
        void uncertainValuesAreUsedWhenNotTreatedAsBadButKeepTheResultUncertain() {
            List<DataValue> r = run(AggregateFunction.AVERAGE, RawData.standard(), 40, 60, 20, UNCERTAIN_IS_GOOD,
                    false);

            expect(r.get(0), 55.0, SUB_NORMAL, CALCULATED, 40);
        }

        @Test
        void percentDataBadAndGoodDecideTheStatusByCountOfValues() {
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
        void theShorterLastIntervalIsPartial() {
            expect(run(AggregateFunction.AVERAGE, 0, 25, 10).get(2), 30.0, StatusCodes.Good, CALCULATED | PARTIAL, 20);
        }

        @Test
        void reverseReadsGiveIntervalsFromStartTimeBackwards() {
            List<DataValue> r = run(AggregateFunction.AVERAGE, 30, 0, 10);

            expect(r.get(0), 30.0, StatusCodes.Good, CALCULATED, 30);
            expect(r.get(2), 10.0, StatusCodes.Good, CALCULATED, 10);
        }

        @Test
        void stringsAreInvalidInputs() {
            RawData strings = new RawData().add(0, Variant.ofString("on"), StatusCode.GOOD);

            expect(run(AggregateFunction.AVERAGE, strings, 0, 10, 10, DEFAULT, false).get(0), null,
                    StatusCodes.BadAggregateInvalidInputs, 0, 0);
        }
    }

    @Nested
    class TimeWeighted {

        @Test
        void timeAverageIsTheAreaUnderTheSlopedLineDividedByTheIntervalAndTotalTheAreaInSeconds() {
            // [0, 20): (10+20)/2 * 10 + (20+30)/2 * 10 = 400 value-seconds over 20 s.
            expect(run(AggregateFunction.TIME_AVERAGE, 0, 20, 20).get(0), 20.0, StatusCodes.Good, CALCULATED, 0);
            expect(run(AggregateFunction.TOTAL, 0, 20, 20).get(0), 400.0, StatusCodes.Good, CALCULATED, 0);
        }

        @Test
        void boundsAreInterpolatedAtBothEnds() {
            // [5, 15): bounds 15 and 25; (15+20)/2 * 5 + (20+25)/2 * 5 = 200 over 10 s.
            expect(run(AggregateFunction.TIME_AVERAGE, 5, 15, 10).get(0), 20.0, StatusCodes.Good, CALCULATED, 5);
        }

        @Test
        void aBadRegionIsBridgedAndMakesTheResultUncertainByItsShareOfTime() {
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
        void withoutAStartBoundThePartialIntervalIsAveraged() {
            // [-10, 10): no data before 0; from 0 the line 10 -> 20: mean 15 over the 10 s covered.
            expect(run(AggregateFunction.TIME_AVERAGE, -10, 10, 20).get(0), 15.0, SUB_NORMAL, CALCULATED | PARTIAL, -10);
        }

        @Test
        void afterTheEndOfDataTheValueIsExtrapolatedAndUncertain() {
            RawData endsGood = new RawData().good(0, 10).good(10, 20);
            expect(run(AggregateFunction.TIME_AVERAGE, endsGood, 30, 40, 10, DEFAULT, false).get(0), 20.0, SUB_NORMAL,
                    CALCULATED, 30);
            // The standard series ends with an Uncertain value, Bad by default: the whole interval is a Bad region.
            expect(run(AggregateFunction.TIME_AVERAGE, 70, 80, 10).get(0), null, StatusCodes.Bad, CALCULATED, 70);
        }

        @Test
        void beforeTheStartOfDataIsBadNoData() {
            expect(run(AggregateFunction.TOTAL, -20, -10, 10).get(0), null, StatusCodes.BadNoData, 0, -20);
        }
    }

    @Nested
    class MinimumAndMaximum {

        @Test
        void extremesOfGoodValuesAreRawOnTheStartTimeAndCalculatedElsewhere() {
            expect(run(AggregateFunction.MINIMUM, 0, 30, 30).get(0), 10.0, StatusCodes.Good, RAW, 0);
            expect(run(AggregateFunction.MAXIMUM, 0, 30, 30).get(0), 30.0, StatusCodes.Good, CALCULATED, 0);
        }

        @Test
        void skippedBadValuesMakeTheResultUncertain() {
            expect(run(AggregateFunction.MAXIMUM, 20, 50, 30).get(0), 50.0, SUB_NORMAL, CALCULATED, 20);
        }

        @Test
        void anUncertainValueBeyondTheGoodExtremeMakesItUncertain() {
            RawData data = RawData.standard();
            expect(run(AggregateFunction.MAXIMUM, data, 40, 60, 20, UNCERTAIN_IS_GOOD, false).get(0), 50.0,
                    SUB_NORMAL, CALCULATED, 40);
            expect(run(AggregateFunction.MINIMUM, data, 40, 60, 20, UNCERTAIN_IS_GOOD, false).get(0), 50.0,
                    StatusCodes.Good, RAW, 40);
        }

        @Test
        void anExtremeReachedTwiceSetsMultiValueAndKeepsTheSourceType() {
            RawData data = new RawData().goodInt(0, 7).goodInt(3, 5).goodInt(6, 5);
            DataValue min = run(AggregateFunction.MINIMUM, data, 0, 10, 10, DEFAULT, false).get(0);

            expect(min, 5.0, StatusCodes.Good, CALCULATED | MULTI_VALUE, 0);
            assertThat(min.value().type()).isEqualTo(BuiltinType.Int32);
        }

        @Test
        void onlyBadValuesGiveBadNoData() {
            expect(run(AggregateFunction.MINIMUM, 30, 40, 10).get(0), null, StatusCodes.BadNoData, 0, 30);
        }
    }

    @Nested
    class Count {

        @Test
        void countsUsableValuesAndZeroInsideTheDataButBadNoDataOutsideIt() {
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
        void badValuesAreNotCountedAndLowerTheStatus() {
            expect(run(AggregateFunction.COUNT, 0, 40, 40).get(0), 3.0, SUB_NORMAL, CALCULATED, 0);
        }
    }

    @Nested
    class StartEndAndDelta {

        @Test
        void startAndEndReturnTheRawValuesWithTheirOwnStatusAndTimestamp() {
            expect(run(AggregateFunction.START, 20, 40, 20).get(0), 30.0, StatusCodes.Good, RAW, 20);
            expect(run(AggregateFunction.END, 20, 40, 20).get(0), null, StatusCodes.BadSensorFailure, RAW, 30);
            expect(run(AggregateFunction.END, 15, 25, 10).get(0), 30.0, StatusCodes.Good, RAW, 20);
        }

        @Test
        void startInAPartialIntervalCarriesThePartialBitAndAnEmptyIntervalHasNoData() {
            expect(run(AggregateFunction.START, 0, 25, 10).get(2), 30.0, StatusCodes.Good, PARTIAL, 20);
            expect(run(AggregateFunction.START, 31, 39, 8).get(0), null, StatusCodes.BadNoData, 0, 31);
        }

        @Test
        void deltaIsLastGoodLessFirstGoodAndUncertainWhenNonGoodValuesWereSkipped() {
            expect(run(AggregateFunction.DELTA, 0, 30, 30).get(0), 20.0, StatusCodes.Good, CALCULATED, 0);
            // Uncertain@50 is skipped looking for the last Good value, 50@40.
            expect(run(AggregateFunction.DELTA, 0, 60, 60).get(0), 40.0, SUB_NORMAL, CALCULATED, 0);
            expect(run(AggregateFunction.DELTA, 30, 40, 10).get(0), null, StatusCodes.BadNoData, 0, 30);
        }

        @Test
        void deltaOfASingleValueIsZeroInTheSourceType() {
            RawData data = new RawData().goodInt(0, 7);
            DataValue delta = run(AggregateFunction.DELTA, data, 0, 10, 10, DEFAULT, false).get(0);

            assertThat(delta.value()).isEqualTo(Variant.ofInt32(0));
        }
    }

    @Nested
    class Durations {

        @Test
        void durationsSumTheRegionsEachRawValueStarts() {
            // Good [0,30) and [40,50), Bad [30,40), Uncertain [50,60) is neither.
            expect(run(AggregateFunction.DURATION_GOOD, 0, 60, 60).get(0), 40_000.0, StatusCodes.Good, CALCULATED, 0);
            expect(run(AggregateFunction.DURATION_BAD, 0, 60, 60).get(0), 10_000.0, StatusCodes.Good, CALCULATED, 0);
        }

        @Test
        void theFirstRegionTakesTheStatusOfTheValueBeforeTheStartAndIsBadWithoutOne() {
            // [35, 45): Bad from 30 until 40, Good from 40.
            expect(run(AggregateFunction.DURATION_BAD, 35, 45, 10).get(0), 5_000.0, StatusCodes.Good, CALCULATED, 35);
            // [-10, 10): no value before 0 counts as Bad.
            expect(run(AggregateFunction.DURATION_BAD, -10, 10, 20).get(0), 10_000.0, StatusCodes.Good, CALCULATED,
                    -10);
            expect(run(AggregateFunction.DURATION_GOOD, -10, 10, 20).get(0), 10_000.0, StatusCodes.Good, CALCULATED,
                    -10);
        }

        @Test
        void beforeTheStartAndAfterTheEndOfDataIsBadNoData() {
            expect(run(AggregateFunction.DURATION_GOOD, -20, -10, 10).get(0), null, StatusCodes.BadNoData, 0, -20);
            expect(run(AggregateFunction.DURATION_BAD, 60, 70, 10).get(0), null, StatusCodes.BadNoData, 0, 60);
        }
    }

    @Test
    void everyFunctionIsFoundByItsNamespaceZeroNodeId() {
        for (AggregateFunction function : AggregateFunction.values()) {
            assertThat(AggregateFunction.forNodeId(function.nodeId())).contains(function);
        }
        assertThat(AggregateFunction.forNodeId(dev.opcua.stack.core.types.builtin.NodeId.ns0(2345))).isEmpty();
    }
}
