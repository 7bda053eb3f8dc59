package dev.opcua.stack.server.history.aggregate;

import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.Variant;

/**
 * Start and End (Part 13, 5.4.3.25 and 5.4.3.26): the earliest (latest) raw value in the interval with its own
 * status and timestamp, Partial when the interval is; a Bad value's value portion is left out (3.1.7); Bad_NoData
 * for an interval without values.
 */
final class RawEdgeAggregate implements IntervalCalculation {

    private final boolean last;

    RawEdgeAggregate(boolean last) {
        this.last = last;
    }

    @Override
    public DataValue compute(RawSeries series, AggregateInterval interval, AggregateConfiguration config,
            boolean stepped) {
        int from = series.firstAtOrAfter(interval.from());
        int to = series.firstAtOrAfter(interval.to());
        if (from >= to) {
            return IntervalCalculation.noData(interval);
        }
        int index = last ? to - 1 : from;
        DataValue raw = series.value(index);
        Variant value = raw.statusCode().isBad() ? Variant.NULL : raw.value();
        return IntervalCalculation.result(value, raw.statusCode().value(), IntervalCalculation.partialBit(interval),
                series.time(index));
    }
}
