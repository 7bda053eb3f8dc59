package dev.opcua.stack.server.history.events;

import dev.opcua.stack.core.types.builtin.NodeId;
import java.util.Objects;

/**
 * A read of the event history of one notifier, in the time domain of Part 11, 4.6 as {@link
 * dev.opcua.stack.server.history.HistoryQuery} reads values: forward the events with {@code start <= Time < end},
 * oldest first; backward those with {@code end < Time <= start}, newest first; at most {@code limit} (0: all),
 * and only those after {@code after} in the read's direction when a read resumes.
 *
 * @param notifier the notifier
 * @param start ticks where the read begins (included)
 * @param end ticks where it stops (excluded)
 * @param backward whether time runs backward
 * @param limit the most events to return, 0 for no limit
 * @param after the last event a previous page returned, or null
 */
public record EventQuery(NodeId notifier, long start, long end, boolean backward, int limit, EventKey after) {

    public EventQuery {
        Objects.requireNonNull(notifier, "notifier");
        if (limit < 0) {
            throw new IllegalArgumentException("limit must be >= 0 (0 = no limit), was " + limit);
        }
    }

    public static EventQuery forward(NodeId notifier, long fromTicks, long toTicks, int limit) {
        return new EventQuery(notifier, fromTicks, toTicks, false, limit, null);
    }

    public static EventQuery backward(NodeId notifier, long fromTicks, long toTicks, int limit) {
        return new EventQuery(notifier, fromTicks, toTicks, true, limit, null);
    }

    /** Whether the range holds no time at all. */
    public boolean isEmpty() {
        return backward ? start <= end : start >= end;
    }

    /** Whether an event with this key is one the read returns (in its range, after the resume position). */
    public boolean contains(EventKey key) {
        boolean inRange = backward ? key.ticks() <= start && key.ticks() > end
                : key.ticks() >= start && key.ticks() < end;
        return inRange && (after == null || (backward ? key.compareTo(after) < 0 : key.compareTo(after) > 0));
    }

    /** Whether a key lies beyond the end of the range, where a walk in the read's direction stops. */
    public boolean isPastEnd(EventKey key) {
        return backward ? key.ticks() <= end : key.ticks() >= end;
    }

    /** The same read resumed after the event at {@code last}. */
    public EventQuery after(EventKey last) {
        return new EventQuery(notifier, start, end, backward, limit, last);
    }

    /** The same read with another limit. */
    public EventQuery withLimit(int value) {
        return new EventQuery(notifier, start, end, backward, value, after);
    }
}
