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
     * How many intervals {@code [startTime, endTime)} holds (or {@code (endTime, startTime]} read backwards when
     * startTime is later): each {@code processingInterval} ticks long but the last; a processing interval of 0 or
     * one at least as long as the range gives one interval for the whole range (Part 13, 5.4.3.1).
     *
     * @throws IllegalArgumentException when startTime equals endTime or the processing interval is negative
     */
    public static long count(long startTime, long endTime, long processingInterval) {
        if (startTime == endTime) {
            throw new IllegalArgumentException("startTime equals endTime");
        }
        if (processingInterval < 0) {
            throw new IllegalArgumentException("negative processing interval " + processingInterval);
        }
        long range = Math.abs(endTime - startTime);
        if (processingInterval == 0 || processingInterval >= range) {
            return 1;
        }
        return (range + processingInterval - 1) / processingInterval;
    }

    /** The interval at {@code index} (from 0) of those {@link #count} counts. */
    public static AggregateInterval at(long startTime, long endTime, long processingInterval, long index) {
        boolean forward = startTime < endTime;
        long range = Math.abs(endTime - startTime);
        if (processingInterval == 0 || processingInterval >= range) {
            boolean partial = processingInterval > range;
            return forward ? new AggregateInterval(startTime, endTime, startTime, partial)
                    : new AggregateInterval(endTime, startTime, startTime, partial);
        }
        long offset = index * processingInterval;
        long length = Math.min(processingInterval, range - offset);
        boolean partial = length < processingInterval;
        if (forward) {
            long from = startTime + offset;
            return new AggregateInterval(from, from + length, from, partial);
        }
        long to = startTime - offset;
        return new AggregateInterval(to - length, to, to, partial);
    }

    /**
     * All intervals of the range, as {@link #count} and {@link #at} give them.
     *
     * @param maxIntervals most intervals the caller accepts
     * @throws IllegalArgumentException as {@link #count}, and when the range holds more than {@code maxIntervals}
     */
    public static List<AggregateInterval> split(long startTime, long endTime, long processingInterval,
            int maxIntervals) {
        long count = count(startTime, endTime, processingInterval);
        if (count > maxIntervals) {
            throw new IllegalArgumentException(count + " intervals exceed the limit of " + maxIntervals);
        }
        List<AggregateInterval> intervals = new ArrayList<>((int) count);
        for (long k = 0; k < count; k++) {
            intervals.add(at(startTime, endTime, processingInterval, k));
        }
        return intervals;
    }
}
