package dev.opcua.stack.server.history.aggregate;

import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.Variant;
import java.util.ArrayList;
import java.util.List;

/**
 * The values of ReadAtTime (Part 11, 6.5.5.2 / ReadAtTimeDetails, 6.4.5): at each requested time the raw value
 * stored at that time, or else one interpolated from the values around it, with simple bounding values when the
 * client asks for useSimpleBounds and interpolated bounding values otherwise (Part 13, 3.1.8 and 3.1.9), stepped or
 * sloped as the variable's history is. An estimate carries the Interpolated bit; a time before the first usable
 * value gets Bad_NoData. Every value is stamped with the requested time.
 */
public final class AtTimeInterpolation {

    private AtTimeInterpolation() {
    }

    /**
     * @param raw the raw values around the requested times, ordered by source timestamp
     * @return one value per requested time, in the requested order
     */
    public static List<DataValue> valuesAt(List<DataValue> raw, List<DateTime> times, boolean useSimpleBounds,
            boolean stepped, AggregateConfiguration config) {
        RawSeries series = RawSeries.of(raw);
        List<DataValue> results = new ArrayList<>(times.size());
        for (DateTime time : times) {
            long t = time.utcTicks();
            BoundingValue bound = useSimpleBounds
                    ? BoundingValues.simple(series, t, stepped, config)
                    : BoundingValues.interpolated(series, t, stepped, config);
            Variant value = bound.found() ? bound.value() : Variant.NULL;
            results.add(DataValue.of(value, HistorianBits.with(bound.status(), bound.bits()), time, null));
        }
        return results;
    }
}
