package dev.opcua.benchmarks.load;

import dev.opcua.benchmarks.server.BenchAddressSpace;
import dev.opcua.stack.core.types.builtin.DataValue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What the {@code failover} scenario's item listeners tally, from the simulation's value sequence: value number
 * {@code n} is {@link BenchAddressSpace#SIMULATION_BASE}{@code + n} on {@code Var.(n % items)}, so each item's
 * values step by {@code items}. A step of more is a gap (values missed), a value not above the item's last one a
 * duplicate. Values due while no server of the client's ran (a server restarted in {@code --mode none}: the
 * simulation of the new process starts at the value due then) were never set: missed values in such a window
 * ({@link #absent(long, long)}) count as absent, not as lost. Synchronized, as the client may call the listeners
 * from several threads.
 */
final class FailoverTally {

    private final long[] last;
    private final int items;
    private long received;
    private long missed;
    private long duplicates;
    private long foreign;
    private long absent;
    private final List<long[]> absentWindows = new ArrayList<>();
    private long newestAtMark = -1;
    private long firstAfterMark = -1;

    FailoverTally(int items) {
        this.items = items;
        this.last = new long[items];
        Arrays.fill(last, -1);
    }

    synchronized void value(int item, DataValue value) {
        received++;
        if (value.value() == null || !(value.value().value() instanceof Double d)) {
            foreign++;
            return;
        }
        long seq = (long) (d - BenchAddressSpace.SIMULATION_BASE);
        if (seq < 0 || seq % items != item) {
            foreign++; // the initial 0.0, or not the simulation's value for this item
            return;
        }
        long before = last[item];
        if (firstAfterMark < 0 && newestAtMark >= 0 && seq > newestAtMark) {
            firstAfterMark = seq;
        }
        if (before < 0) {
            last[item] = seq;
        } else if (seq <= before) {
            duplicates++;
        } else {
            missed += (seq - before) / items - 1;
            absent += inWindows(item, before + items, seq - items);
            last[item] = seq;
        }
    }

    /**
     * Marks a fault: from now {@link #newestAtMark()} is the newest value number received before it and
     * {@link #firstAfterMark()} will be the first newer one received after it.
     */
    synchronized void mark() {
        newestAtMark = Arrays.stream(last).max().orElse(-1);
        firstAfterMark = -1;
    }

    synchronized long newestAtMark() {
        return newestAtMark;
    }

    /** The first value number newer than {@link #newestAtMark()} received since {@link #mark()}; -1 for none yet. */
    synchronized long firstAfterMark() {
        return firstAfterMark;
    }

    /** Values {@code from .. to} (inclusive) were never set: no server ran while they were due. */
    synchronized void absent(long from, long to) {
        if (from <= to) {
            absentWindows.add(new long[] {from, to});
        }
    }

    /** How many of item {@code item}'s values {@code lo .. hi} lie in an absent window. */
    private long inWindows(int item, long lo, long hi) {
        long count = 0;
        for (long[] w : absentWindows) {
            long a = Math.max(lo, w[0]);
            long b = Math.min(hi, w[1]);
            if (a <= b) {
                count += Math.floorDiv(b - item, items) - Math.floorDiv(a - item + items - 1, items) + 1;
            }
        }
        return count;
    }

    /** Received, missed, duplicates, foreign and absent values so far, in that order (absent ones are missed too). */
    synchronized long[] snapshot() {
        return new long[] {received, missed, duplicates, foreign, absent};
    }
}
