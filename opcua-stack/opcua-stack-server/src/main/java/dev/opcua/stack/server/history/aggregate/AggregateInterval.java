package dev.opcua.stack.server.history.aggregate;

import java.util.ArrayList;
import java.util.List;

/**
 * One processing interval (Part 13, 5.4.2.2) as the half-open time range {@code [from, to)} in 100 ns ticks, with
 * the timestamp its result carries: the interval's start time, which is {@code to} when the range is read in
 * reverse (startTime after endTime).
 *
 * @param partial whether the interval is shorter than the processing interval: the last one, cut by endTime
 */
public record AggregateInterval(long from, long to, long timestamp, boolean partial) {

    /** Ticks per millisecond; ProcessingInterval is a Duration in milliseconds (Part 11, 6.5.4). */
    static final long TICKS_PER_MILLI = 10_000L;

    /** Duration in ticks. */
    public long length() {
        return to - from;
    }

    /**
     * The intervals of {@code [startTime, endTime)} (or of {@code (endTime, startTime]} read backwards when
     * startTime is later), each {@code processingInterval} ticks long but the last; a processing interval of 0 gives
     * one interval for the whole range (Part 13, 5.4.3.1).
     *
     * @param maxIntervals most intervals the caller accepts
     * @throws IllegalArgumentException when startTime equals endTime, the processing interval is negative, or the
     *         range holds more than {@code maxIntervals} intervals
     */
    public static List<AggregateInterval> split(long startTime, long endTime, long processingInterval,
            int maxIntervals) {
        if (startTime == endTime) {
            throw new IllegalArgumentException("startTime equals endTime");
        }
        if (processingInterval < 0) {
            throw new IllegalArgumentException("negative processing interval " + processingInterval);
        }
        boolean forward = startTime < endTime;
        long range = forward ? endTime - startTime : startTime - endTime;
        if (processingInterval == 0 || processingInterval >= range) {
            boolean partial = processingInterval > range;
            return List.of(forward ? new AggregateInterval(startTime, endTime, startTime, partial)
                    : new AggregateInterval(endTime, startTime, startTime, partial));
        }
        long count = (range + processingInterval - 1) / processingInterval;
        if (count > maxIntervals) {
            throw new IllegalArgumentException(count + " intervals exceed the limit of " + maxIntervals);
        }
        List<AggregateInterval> intervals = new ArrayList<>((int) count);
        for (long k = 0; k < count; k++) {
            long offset = k * processingInterval;
            long length = Math.min(processingInterval, range - offset);
            boolean partial = length < processingInterval;
            if (forward) {
                long from = startTime + offset;
                intervals.add(new AggregateInterval(from, from + length, from, partial));
            } else {
                long to = startTime - offset;
                intervals.add(new AggregateInterval(to - length, to, to, partial));
            }
        }
        return intervals;
    }
}
