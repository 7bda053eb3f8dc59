package dev.opcua.stack.server.history.aggregate;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.Variant;

/** The calculation of one aggregate for one interval of a raw series. */
interface IntervalCalculation {

    /**
     * @param stepped whether the variable's history is stepped (HistoricalDataConfiguration.Stepped, Part 11, 5.2.2)
     */
    DataValue compute(RawSeries series, AggregateInterval interval, AggregateConfiguration config, boolean stepped);

    /** A result stamped with the given source time; a Bad result carries no value (Part 13, 3.1.7). */
    static DataValue result(Variant value, int code, int bits, long timestamp) {
        boolean bad = (code & 0x80000000) != 0;
        return DataValue.of(bad ? Variant.NULL : value, HistorianBits.with(code, bits), DateTime.ofTicks(timestamp),
                null);
    }

    /** Bad_NoData at the interval's timestamp, with the Partial bit where the interval is partial. */
    static DataValue noData(AggregateInterval interval) {
        return result(Variant.NULL, StatusCodes.BadNoData, interval.partial() ? HistorianBits.PARTIAL : 0,
                interval.timestamp());
    }

    /** Bad_AggregateInvalidInputs: the interval holds values the aggregate cannot compute with, such as strings. */
    static DataValue invalidInputs(AggregateInterval interval) {
        return result(Variant.NULL, StatusCodes.BadAggregateInvalidInputs, 0, interval.timestamp());
    }

    /** Partial bit when the interval is partial, else 0. */
    static int partialBit(AggregateInterval interval) {
        return interval.partial() ? HistorianBits.PARTIAL : 0;
    }
}
