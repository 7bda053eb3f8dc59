package dev.opcua.stack.server.history.aggregate;

import dev.opcua.stack.core.types.builtin.DataValue;
import java.util.ArrayList;
import java.util.List;

/**
 * Computes an aggregate per processing interval from a node's raw values (Part 13, 5.4). The raw values cover
 * the requested range and, to find bounding values, reach before its start and after its end as far as the caller
 * looked (Part 13, 5.4.3.4 asks for at least one processing interval each side).
 */
public final class AggregateCalculator {

    private AggregateCalculator() {
    }

    /**
     * @param raw the raw values with their statuses, ordered by source timestamp
     * @param intervals from {@link AggregateInterval#split}
     * @param stepped whether the variable's history is stepped (Part 11, 5.2.2); used where an aggregate
     *        interpolates per the variable (Interpolative)
     * @return one value per interval, in the intervals' order
     */
    public static List<DataValue> calculate(AggregateFunction function, List<DataValue> raw,
            List<AggregateInterval> intervals, AggregateConfiguration config, boolean stepped) {
        RawSeries series = RawSeries.of(raw);
        List<DataValue> results = new ArrayList<>(intervals.size());
        for (AggregateInterval interval : intervals) {
            results.add(function.calculation().compute(series, interval, config, stepped));
        }
        return results;
    }
}
