package dev.opcua.stack.server.history;

import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.structured.ModificationInfo;
import java.util.Comparator;
import java.util.Objects;

/**
 * A value as a HistoryUpdate modified it (Part 11, 6.5.3.3 read modified): for an insert the value inserted, for
 * a replace, update or delete the value as it was before, with its {@link ModificationInfo}. A node may hold many
 * at one time (every replace of a time adds one), told apart by their sequence at that time.
 *
 * @param ticks the value's {@link HistoryTime}
 * @param sequence the order of the modifications at that time, from 1
 * @param value the value
 * @param info when, how and by whom it was modified
 */
public record ModifiedValue(long ticks, long sequence, DataValue value, ModificationInfo info) {

    /** Time, then sequence: the order of a node's modified values. */
    public static final Comparator<ModifiedValue> ORDER =
            Comparator.comparingLong(ModifiedValue::ticks).thenComparingLong(ModifiedValue::sequence);

    public ModifiedValue {
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(info, "info");
    }

    /** Whether this value comes after {@code other} in the direction of a read. */
    public boolean isAfter(ModifiedValue other, boolean backward) {
        int order = ORDER.compare(this, other);
        return backward ? order < 0 : order > 0;
    }
}
