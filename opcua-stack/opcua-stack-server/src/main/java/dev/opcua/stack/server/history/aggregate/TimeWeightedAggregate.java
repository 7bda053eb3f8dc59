package dev.opcua.stack.server.history.aggregate;

import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;

/**
 * TimeAverage and Total (Part 13, 5.4.3.6 and 5.4.3.8): the area under the sloped line through the interpolated
 * bounding value at the start, the usable raw values inside, and the interpolated bounding value at the end (Bad
 * values skipped, the line drawn across them). TimeAverage is the area divided by the interval's length, Total the
 * area in value-seconds (TimeAverage x seconds). Both always interpolate sloped, whatever the variable's Stepped
 * says (that is what TimeAverage2 and Total2 are for).
 *
 * <p>Status by PercentTime: each raw value starts a region of its status, the first region having the status of
 * the last value at or before the start (Bad when none). Without a start bound the result covers the rest of the
 * interval and is Partial; past the end of data the end bound is extrapolated and the result Uncertain.
 * Calculated; Bad_NoData before the start of data.
 */
final class TimeWeightedAggregate implements IntervalCalculation {

    private static final double TICKS_PER_SECOND = 10_000_000.0;

    private final boolean total;

    TimeWeightedAggregate(boolean total) {
        this.total = total;
    }

    @Override
    public DataValue compute(RawSeries series, AggregateInterval interval, AggregateConfiguration config,
            boolean stepped) {
        long start = interval.from();
        long end = interval.to();
        BoundingValue startBound = BoundingValues.interpolated(series, start, false, config);
        BoundingValue endBound = BoundingValues.interpolated(series, end, false, config);
        int from = series.firstAtOrAfter(start);
        int to = series.firstAtOrAfter(end);

        double area = 0;
        long firstTime = 0;
        long previousTime = 0;
        double previousValue = 0;
        boolean have = false;
        boolean uncertain = false;
        if (startBound.found()) {
            if (!Numbers.isNumeric(startBound.value())) {
                return IntervalCalculation.invalidInputs(interval);
            }
            firstTime = previousTime = start;
            previousValue = Numbers.toDouble(startBound.value());
            uncertain = startBound.status().isUncertain();
            have = true;
        }
        for (int i = from; i < to; i++) {
            StatusCode status = series.status(i);
            long t = series.time(i);
            if (!config.isUsable(status) || have && t == previousTime) {
                continue;
            }
            Variant value = series.value(i).value();
            if (!Numbers.isNumeric(value)) {
                return IntervalCalculation.invalidInputs(interval);
            }
            double v = Numbers.toDouble(value);
            uncertain |= status.isUncertain();
            if (have) {
                area += (previousValue + v) / 2 * (t - previousTime);
            } else {
                firstTime = t;
                have = true;
            }
            previousTime = t;
            previousValue = v;
        }
        if (!have) {
            return IntervalCalculation.noData(interval);
        }
        if (endBound.found() && Numbers.isNumeric(endBound.value())) {
            area += (previousValue + Numbers.toDouble(endBound.value())) / 2 * (end - previousTime);
            uncertain |= endBound.status().isUncertain();
            previousTime = end;
        }
        long covered = previousTime - firstTime;
        double value = total ? area / TICKS_PER_SECOND : covered == 0 ? previousValue : area / covered;

        long[] goodBad = regions(series, interval, from, to, config);
        int code = AggregateStatus.of(goodBad[0], goodBad[1], uncertain, config);
        int bits = HistorianBits.CALCULATED
                | (interval.partial() || !startBound.found() ? HistorianBits.PARTIAL : 0);
        return IntervalCalculation.result(Variant.ofDouble(value), code, bits, interval.timestamp());
    }

    /** Ticks of usable and of Bad regions in the interval. */
    private static long[] regions(RawSeries series, AggregateInterval interval, int from, int to,
            AggregateConfiguration config) {
        int atStart = from < to && series.time(from) == interval.from() ? from : from - 1;
        StatusCode regionStatus = atStart >= 0 ? series.status(atStart) : null;
        long regionStart = interval.from();
        long good = 0;
        long bad = 0;
        for (int i = from; i <= to; i++) {
            long regionEnd = i < to ? series.time(i) : interval.to();
            if (regionStatus != null && config.isUsable(regionStatus)) {
                good += regionEnd - regionStart;
            } else {
                bad += regionEnd - regionStart;
            }
            if (i < to) {
                regionStart = regionEnd;
                regionStatus = series.status(i);
            }
        }
        return new long[] {good, bad};
    }
}
