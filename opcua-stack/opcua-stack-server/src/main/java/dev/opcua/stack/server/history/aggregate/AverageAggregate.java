package dev.opcua.stack.server.history.aggregate;

import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;

/**
 * Average (Part 13, 5.4.3.5): the sum of the usable raw values in the interval divided by their count, as a
 * Double; status by PercentValues; Calculated; Bad_NoData when the interval holds no usable value.
 */
final class AverageAggregate implements IntervalCalculation {

    @Override
    public DataValue compute(RawSeries series, AggregateInterval interval, AggregateConfiguration config,
            boolean stepped) {
        int from = series.firstAtOrAfter(interval.from());
        int to = series.firstAtOrAfter(interval.to());
        double sum = 0;
        int used = 0;
        int skipped = 0;
        boolean uncertain = false;
        for (int i = from; i < to; i++) {
            StatusCode status = series.status(i);
            if (!config.isUsable(status)) {
                skipped++;
                continue;
            }
            Variant value = series.value(i).value();
            if (!Numbers.isNumeric(value)) {
                return IntervalCalculation.invalidInputs(interval);
            }
            sum += Numbers.toDouble(value);
            used++;
            uncertain |= status.isUncertain();
        }
        if (used == 0) {
            return IntervalCalculation.noData(interval);
        }
        int code = AggregateStatus.of(used, skipped, uncertain, config);
        return IntervalCalculation.result(Variant.ofDouble(sum / used), code,
                HistorianBits.CALCULATED | IntervalCalculation.partialBit(interval), interval.timestamp());
    }
}
