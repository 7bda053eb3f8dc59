package dev.opcua.stack.server.history.aggregate;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.Variant;

/**
 * Delta (Part 13, 5.4.3.27): the latest Good raw value in the interval less the earliest, in the source's type;
 * zero with one Good value; Uncertain_DataSubNormal when non-Good values were skipped while looking for the first
 * or the last; Bad_NoData without Good values. Calculated.
 */
final class DeltaAggregate implements IntervalCalculation {

    @Override
    public DataValue compute(RawSeries series, AggregateInterval interval, AggregateConfiguration config,
            boolean stepped) {
        int from = series.firstAtOrAfter(interval.from());
        int to = series.firstAtOrAfter(interval.to());
        int first = from;
        while (first < to && !series.status(first).isGood()) {
            first++;
        }
        if (first >= to) {
            return IntervalCalculation.noData(interval);
        }
        int last = to - 1;
        while (!series.status(last).isGood()) {
            last--;
        }
        Variant start = series.value(first).value();
        Variant end = series.value(last).value();
        if (!Numbers.isNumeric(start) || !Numbers.isNumeric(end)) {
            return IntervalCalculation.invalidInputs(interval);
        }
        boolean skipped = first > from || last < to - 1;
        Variant delta = Numbers.ofType(start.type(), Numbers.toDouble(end) - Numbers.toDouble(start));
        return IntervalCalculation.result(delta, skipped ? StatusCodes.UncertainDataSubNormal : StatusCodes.Good,
                HistorianBits.CALCULATED | IntervalCalculation.partialBit(interval), interval.timestamp());
    }
}
