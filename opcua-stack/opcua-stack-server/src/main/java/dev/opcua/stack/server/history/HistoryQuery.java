package dev.opcua.stack.server.history;

import java.util.Objects;
import dev.opcua.stack.core.types.builtin.NodeId;

/**
 * A read of the raw values of one node (Part 11, 4.6 time domain): forward, the values with
 * {@code start <= time < end} in ascending order; backward, those with {@code end < time <= start} in
 * descending order. The start is always included and the end never, as in the time domain of a
 * HistoryRead. At most {@code limit} values, 0 for all.
 *
 * @param nodeId the node
 * @param start ticks where the read begins (included)
 * @param end ticks where it stops (excluded); after {@code start} forward, before it backward
 * @param backward whether time runs backward
 * @param limit the most values to return, 0 for no limit
 */
public record HistoryQuery(NodeId nodeId, long start, long end, boolean backward, int limit) {

    public HistoryQuery {
        Objects.requireNonNull(nodeId, "nodeId");
        if (limit < 0) {
            throw new IllegalArgumentException("limit must be >= 0 (0 = no limit), was " + limit);
        }
    }

    /** Values with {@code fromTicks <= time < toTicks}, oldest first. */
    public static HistoryQuery forward(NodeId nodeId, long fromTicks, long toTicks, int limit) {
        return new HistoryQuery(nodeId, fromTicks, toTicks, false, limit);
    }

    /** Values with {@code toTicks < time <= fromTicks}, newest first. */
    public static HistoryQuery backward(NodeId nodeId, long fromTicks, long toTicks, int limit) {
        return new HistoryQuery(nodeId, fromTicks, toTicks, true, limit);
    }

    /** Whether a value at {@code ticks} lies in the range. */
    public boolean contains(long ticks) {
        return backward ? ticks <= start && ticks > end : ticks >= start && ticks < end;
    }

    /** Whether the range holds no time at all. */
    public boolean isEmpty() {
        return backward ? start <= end : start >= end;
    }

    /**
     * The same read resumed after the value at {@code lastTicks}, the last one a page returned: the
     * resume position of a continuation point (Part 11, 6.3), since a node has one value per time.
     */
    public HistoryQuery after(long lastTicks) {
        return new HistoryQuery(nodeId, backward ? lastTicks - 1 : lastTicks + 1, end, backward, limit);
    }

    /** The same read with another limit. */
    public HistoryQuery withLimit(int value) {
        return new HistoryQuery(nodeId, start, end, backward, value);
    }
}
