package dev.opcua.stack.server.history;

import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;

/**
 * The time a value is kept at in history: its SourceTimestamp, or its ServerTimestamp when it has no
 * source timestamp (Part 11, 4.3: history is ordered by the source timestamp), as UtcTime ticks (100 ns
 * since 1601-01-01). Picoseconds do not count.
 */
public final class HistoryTime {

    private HistoryTime() {
    }

    /**
     * @throws IllegalArgumentException when the value has neither timestamp
     */
    public static long ticksOf(DataValue value) {
        DateTime source = value.sourceTimestamp();
        if (source != null && !source.isNull()) {
            return source.utcTicks();
        }
        DateTime server = value.serverTimestamp();
        if (server != null && !server.isNull()) {
            return server.utcTicks();
        }
        throw new IllegalArgumentException("a value kept in history needs a source or server timestamp: " + value);
    }

    /** Whether the value has a source or a server timestamp. */
    public static boolean hasTime(DataValue value) {
        return (value.sourceTimestamp() != null && !value.sourceTimestamp().isNull())
                || (value.serverTimestamp() != null && !value.serverTimestamp().isNull());
    }

    /** The value with {@code now} as its source timestamp when it has none (what the recorder stores). */
    public static DataValue withSourceTime(DataValue value, DateTime now) {
        if (value.sourceTimestamp() != null && !value.sourceTimestamp().isNull()) {
            return value;
        }
        DateTime time = value.serverTimestamp() != null && !value.serverTimestamp().isNull()
                ? value.serverTimestamp() : now;
        return DataValue.of(value.value(), value.statusCode(), time, 0, value.serverTimestamp(),
                value.serverPicoseconds());
    }
}
