package dev.opcua.benchmarks.load;

import dev.opcua.benchmarks.server.BenchAddressSpace;
import dev.opcua.stack.core.types.builtin.DataValue;
import java.util.Arrays;

/**
 * What the {@code failover} scenario's item listeners tally, from the simulation's value sequence: value number
 * {@code n} is {@link BenchAddressSpace#SIMULATION_BASE}{@code + n} on {@code Var.(n % items)}, so each item's
 * values step by {@code items}. A step of more is a gap (values missed), a value not above the item's last one a
 * duplicate. Synchronized, as the client may call the listeners from several threads.
 */
final class FailoverTally {

    private final long[] last;
    private final int items;
    private long received;
    private long missed;
    private long duplicates;
    private long foreign;

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
        if (before < 0) {
            last[item] = seq;
        } else if (seq <= before) {
            duplicates++;
        } else {
            missed += (seq - before) / items - 1;
            last[item] = seq;
        }
    }

    /** Received, missed, duplicates and foreign values so far, in that order. */
    synchronized long[] snapshot() {
        return new long[] {received, missed, duplicates, foreign};
    }
}
