package dev.opcua.stack.server.history.aggregate;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;

/**
 * DurationGood and DurationBad (Part 13, 5.4.3.31 and 5.4.3.32): the interval is cut into regions, each starting
 * at a raw value and holding its status until the next; the first region takes the status of the last value at or
 * before the start time, and is Bad when there is none. The result is the summed length of the Good (Bad) regions
 * in milliseconds, as a Double (Duration); always Good, Calculated; Bad_NoData before the start and after the end of
 * data.
 */
final class DurationAggregate implements IntervalCalculation {

    private final boolean good;

    DurationAggregate(boolean good) {
        this.good = good;
    }

    @Override
    public DataValue compute(RawSeries series, AggregateInterval interval, AggregateConfiguration config,
            boolean stepped) {
        if (series.startsAtOrAfter(interval.to()) || series.endsBefore(interval.from())) {
            return IntervalCalculation.noData(interval);
        }
        int from = series.firstAtOrAfter(interval.from());
        int to = series.firstAtOrAfter(interval.to());
        // The region before the first value in the interval: status of the last value at or before the start.
        int atStart = from < to && series.time(from) == interval.from() ? from : from - 1;
        long ticks = 0;
        long regionStart = interval.from();
        StatusCode regionStatus = atStart >= 0 ? series.status(atStart) : null;
        for (int i = from; i <= to; i++) {
            long regionEnd = i < to ? series.time(i) : interval.to();
            if (counts(regionStatus)) {
                ticks += regionEnd - regionStart;
            }
            if (i < to) {
                regionStart = regionEnd;
                regionStatus = series.status(i);
            }
        }
        double millis = ticks / (double) AggregateInterval.TICKS_PER_MILLI;
        return IntervalCalculation.result(Variant.ofDouble(millis), StatusCodes.Good,
                HistorianBits.CALCULATED | IntervalCalculation.partialBit(interval), interval.timestamp());
    }

    private boolean counts(StatusCode status) {
        if (status == null) {
            return !good;
        }
        return good ? status.isGood() : status.isBad();
    }
}
