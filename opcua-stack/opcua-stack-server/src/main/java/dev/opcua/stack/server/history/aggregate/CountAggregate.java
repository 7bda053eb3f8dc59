package dev.opcua.stack.server.history.aggregate;

import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;

/**
 * Count (Part 13, 5.4.3.21): how many usable raw values the interval holds, as an Int32 (0 for an interval
 * without data inside the range of data); status by PercentValues; Calculated; Bad_NoData before the start and
 * after the end of data.
 */
final class CountAggregate implements IntervalCalculation {

    @Override
    public DataValue compute(RawSeries series, AggregateInterval interval, AggregateConfiguration config,
            boolean stepped) {
        if (series.startsAtOrAfter(interval.to()) || series.endsBefore(interval.from())) {
            return IntervalCalculation.noData(interval);
        }
        int from = series.firstAtOrAfter(interval.from());
        int to = series.firstAtOrAfter(interval.to());
        int used = 0;
        boolean uncertain = false;
        for (int i = from; i < to; i++) {
            StatusCode status = series.status(i);
            if (config.isUsable(status)) {
                used++;
                uncertain |= status.isUncertain();
            }
        }
        int code = AggregateStatus.of(used, (to - from) - used, uncertain, config);
        return IntervalCalculation.result(Variant.ofInt32(used), code,
                HistorianBits.CALCULATED | IntervalCalculation.partialBit(interval), interval.timestamp());
    }
}
