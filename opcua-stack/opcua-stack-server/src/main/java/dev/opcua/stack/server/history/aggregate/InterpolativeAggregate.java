package dev.opcua.stack.server.history.aggregate;

import dev.opcua.stack.core.types.builtin.DataValue;

/**
 * Interpolative (Part 13, 5.4.3.4): the interpolated bounding value at each interval's start time, stepped or
 * sloped as the variable's history is. Raw when a value exists at that time, else Interpolated; Bad_NoData before
 * the start of data; an extrapolation past the end of data is Uncertain_DataSubNormal. Never Partial.
 */
final class InterpolativeAggregate implements IntervalCalculation {

    @Override
    public DataValue compute(RawSeries series, AggregateInterval interval, AggregateConfiguration config,
            boolean stepped) {
        BoundingValue bound = BoundingValues.interpolated(series, interval.timestamp(), stepped, config);
        if (!bound.found()) {
            return IntervalCalculation.result(bound.value(), bound.status().value(), 0, interval.timestamp());
        }
        return IntervalCalculation.result(bound.value(), bound.status().value(), bound.bits(), interval.timestamp());
    }
}
