package dev.opcua.stack.server.history.aggregate;

import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.server.history.HistoryTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The raw values of one node ordered by their {@link HistoryTime} (source timestamp, else server timestamp),
 * searchable by time. Values without either timestamp cannot be placed in time and are left out. Times are 100 ns
 * ticks.
 */
final class RawSeries {

    private final long[] ticks;
    private final DataValue[] values;

    private RawSeries(long[] ticks, DataValue[] values) {
        this.ticks = ticks;
        this.values = values;
    }

    /** The series of the given values; they are expected in source-time order and sorted (stably) when not. */
    static RawSeries of(List<DataValue> raw) {
        List<DataValue> timed = new ArrayList<>(raw.size());
        boolean sorted = true;
        long last = Long.MIN_VALUE;
        for (DataValue value : raw) {
            if (!HistoryTime.hasTime(value)) {
                continue;
            }
            long t = HistoryTime.ticksOf(value);
            sorted &= t >= last;
            last = Math.max(last, t);
            timed.add(value);
        }
        if (!sorted) {
            timed.sort(Comparator.comparingLong(HistoryTime::ticksOf));
        }
        long[] ticks = new long[timed.size()];
        for (int i = 0; i < ticks.length; i++) {
            ticks[i] = HistoryTime.ticksOf(timed.get(i));
        }
        return new RawSeries(ticks, timed.toArray(new DataValue[0]));
    }

    int size() {
        return ticks.length;
    }

    long time(int index) {
        return ticks[index];
    }

    DataValue value(int index) {
        return values[index];
    }

    StatusCode status(int index) {
        return values[index].statusCode();
    }

    /** Index of the first value at or after {@code t}; {@link #size()} when none. */
    int firstAtOrAfter(long t) {
        int i = Arrays.binarySearch(ticks, t);
        if (i < 0) {
            return -i - 1;
        }
        while (i > 0 && ticks[i - 1] == t) {
            i--;
        }
        return i;
    }

    /** Whether no value lies before {@code t}: an interval ending at {@code t} is before the start of data. */
    boolean startsAtOrAfter(long t) {
        return ticks.length == 0 || ticks[0] >= t;
    }

    /** Whether every value lies before {@code t}: an interval starting at {@code t} is after the end of data. */
    boolean endsBefore(long t) {
        return ticks.length == 0 || ticks[ticks.length - 1] < t;
    }
}
