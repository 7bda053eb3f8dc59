package dev.opcua.stack.server.history.aggregate;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;

/**
 * Minimum and Maximum (Part 13, 5.4.3.10 and 5.4.3.11): the smallest (largest) Good raw value in the interval, in
 * the source's type, stamped with the interval's start time. Good when no value was left out, else
 * Uncertain_DataSubNormal, as when an Uncertain value lies beyond the Good extreme. Raw when the extreme lies on
 * the start time and is Good, else Calculated; MultiValue when the extreme occurs more than once. Without Good
 * values usable Uncertain ones are taken (Uncertain_DataSubNormal); without either, Bad_NoData.
 */
final class ExtremeAggregate implements IntervalCalculation {

    private final boolean maximum;

    ExtremeAggregate(boolean maximum) {
        this.maximum = maximum;
    }

    @Override
    public DataValue compute(RawSeries series, AggregateInterval interval, AggregateConfiguration config,
            boolean stepped) {
        int from = series.firstAtOrAfter(interval.from());
        int to = series.firstAtOrAfter(interval.to());
        int best = -1;
        int bestUncertain = -1;
        int ties = 0;
        boolean skipped = false;
        for (int i = from; i < to; i++) {
            StatusCode status = series.status(i);
            if (!config.isUsable(status)) {
                skipped = true;
                continue;
            }
            Variant value = series.value(i).value();
            if (!Numbers.isNumeric(value)) {
                return IntervalCalculation.invalidInputs(interval);
            }
            if (status.isUncertain()) {
                if (bestUncertain < 0 || beyond(value, series.value(bestUncertain).value())) {
                    bestUncertain = i;
                }
                continue;
            }
            if (best < 0 || beyond(value, series.value(best).value())) {
                best = i;
                ties = 1;
            } else if (Numbers.toDouble(value) == Numbers.toDouble(series.value(best).value())) {
                ties++;
            }
        }
        int partial = IntervalCalculation.partialBit(interval);
        if (best < 0) {
            if (bestUncertain < 0) {
                return IntervalCalculation.noData(interval);
            }
            return IntervalCalculation.result(series.value(bestUncertain).value(), StatusCodes.UncertainDataSubNormal,
                    HistorianBits.CALCULATED | partial, interval.timestamp());
        }
        Variant extreme = series.value(best).value();
        boolean uncertainBeyond = bestUncertain >= 0 && beyond(series.value(bestUncertain).value(), extreme);
        int code = skipped || uncertainBeyond ? StatusCodes.UncertainDataSubNormal : StatusCodes.Good;
        boolean onStart = series.time(best) == interval.from() && code == StatusCodes.Good;
        int bits = (onStart ? HistorianBits.RAW : HistorianBits.CALCULATED) | partial
                | (ties > 1 ? HistorianBits.MULTI_VALUE : 0);
        return IntervalCalculation.result(extreme, code, bits, interval.timestamp());
    }

    private boolean beyond(Variant candidate, Variant current) {
        double c = Numbers.toDouble(candidate);
        double x = Numbers.toDouble(current);
        return maximum ? c > x : c < x;
    }
}
