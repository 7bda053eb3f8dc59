package dev.opcua.stack.server.history.aggregate;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;

/**
 * Bounding values at a timestamp (Part 13, 3.1.7): interpolated bounds (3.1.8), which look past Bad values for the
 * nearest non-Bad ones, and simple bounds (3.1.9), which take the nearest values whatever their status. "Bad"
 * follows {@link AggregateConfiguration#isUsable}. Non-numeric values cannot be sloped and are always stepped.
 */
final class BoundingValues {

    private static final StatusCode GOOD = StatusCode.GOOD;
    private static final StatusCode SUB_NORMAL = StatusCode.of(StatusCodes.UncertainDataSubNormal);

    private BoundingValues() {
    }

    /** The interpolated bounding value at {@code t} (Part 13, 3.1.8). */
    static BoundingValue interpolated(RawSeries series, long t, boolean stepped, AggregateConfiguration config) {
        int n = series.size();
        int at = series.firstAtOrAfter(t);
        boolean badSkipped = false;
        int i = at;
        for (; i < n && series.time(i) == t; i++) {
            if (config.isUsable(series.status(i))) {
                return new BoundingValue(series.value(i).value(), series.status(i), true, false);
            }
            badSkipped = true;
        }
        int after = i;
        int before = at - 1;
        while (before >= 0 && !config.isUsable(series.status(before))) {
            badSkipped = true;
            before--;
        }
        if (before < 0) {
            return BoundingValue.NO_DATA;
        }
        Variant beforeValue = series.value(before).value();
        boolean uncertain = badSkipped || series.status(before).isUncertain();
        if (stepped || !Numbers.isNumeric(beforeValue)) {
            // Stepped needs no value after; past the end of data the held value is an extrapolation.
            boolean pastEnd = at >= n;
            return new BoundingValue(beforeValue, uncertain || pastEnd ? SUB_NORMAL : GOOD, false, pastEnd);
        }
        while (after < n && !config.isUsable(series.status(after))) {
            badSkipped = true;
            after++;
        }
        if (after >= n) {
            return extrapolate(series, before, t, config);
        }
        Variant afterValue = series.value(after).value();
        if (!Numbers.isNumeric(afterValue)) {
            return new BoundingValue(beforeValue, SUB_NORMAL, false, false);
        }
        uncertain |= badSkipped || series.status(after).isUncertain();
        double v = slope(series.time(before), Numbers.toDouble(beforeValue), series.time(after),
                Numbers.toDouble(afterValue), t);
        return new BoundingValue(Numbers.ofType(beforeValue.type(), v), uncertain ? SUB_NORMAL : GOOD, false, false);
    }

    /**
     * Past the last non-Bad value: held (SteppedExtrapolation) or continued along the line through the last two
     * non-Bad values (SlopedExtrapolation, when configured); always Uncertain_DataSubNormal (Part 13, 3.1.8).
     */
    private static BoundingValue extrapolate(RawSeries series, int last, long t, AggregateConfiguration config) {
        Variant lastValue = series.value(last).value();
        if (config.useSlopedExtrapolation()) {
            int previous = last - 1;
            while (previous >= 0 && (!config.isUsable(series.status(previous)) || series.time(previous) == series.time(last))) {
                previous--;
            }
            if (previous >= 0 && Numbers.isNumeric(series.value(previous).value())) {
                double v = slope(series.time(previous), Numbers.toDouble(series.value(previous).value()),
                        series.time(last), Numbers.toDouble(lastValue), t);
                return new BoundingValue(Numbers.ofType(lastValue.type(), v), SUB_NORMAL, false, true);
            }
        }
        return new BoundingValue(lastValue, SUB_NORMAL, false, true);
    }

    /** The simple bounding value at {@code t} (Part 13, 3.1.9). */
    static BoundingValue simple(RawSeries series, long t, boolean stepped, AggregateConfiguration config) {
        int n = series.size();
        int at = series.firstAtOrAfter(t);
        if (at < n && series.time(at) == t) {
            StatusCode status = series.status(at);
            return config.isUsable(status)
                    ? new BoundingValue(series.value(at).value(), status, true, false)
                    : BoundingValue.NO_DATA;
        }
        int before = at - 1;
        if (before < 0 || !config.isUsable(series.status(before))) {
            return BoundingValue.NO_DATA;
        }
        Variant beforeValue = series.value(before).value();
        boolean uncertain = series.status(before).isUncertain();
        int after = at;
        if (after >= n) {
            // Past the last value the before value is held, as an extrapolation.
            return new BoundingValue(beforeValue, SUB_NORMAL, false, true);
        }
        if (stepped || !Numbers.isNumeric(beforeValue)) {
            return new BoundingValue(beforeValue, uncertain ? SUB_NORMAL : GOOD, false, false);
        }
        StatusCode afterStatus = series.status(after);
        Variant afterValue = series.value(after).value();
        if (!config.isUsable(afterStatus) || !Numbers.isNumeric(afterValue)) {
            return new BoundingValue(beforeValue, SUB_NORMAL, false, false);
        }
        uncertain |= afterStatus.isUncertain();
        double v = slope(series.time(before), Numbers.toDouble(beforeValue), series.time(after),
                Numbers.toDouble(afterValue), t);
        return new BoundingValue(Numbers.ofType(beforeValue.type(), v), uncertain ? SUB_NORMAL : GOOD, false, false);
    }

    /** The point at {@code t} on the line through (t1, v1) and (t2, v2) (Part 13, 3.1.8's formula). */
    static double slope(long t1, double v1, long t2, double v2, long t) {
        return v1 + (double) (t - t1) * (v2 - v1) / (double) (t2 - t1);
    }
}
