package dev.opcua.stack.server.history.events;

import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.server.subscriptions.events.UaEvent;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * Where an event sits in the history of its notifier: its Time field in 100 ns ticks (Part 11, 6.5.2.2: event
 * history is ordered and ranged by the Time field), then its EventId, compared as unsigned bytes, so that events
 * at the same time keep one order in every store and a read can resume after any of them (Part 11, 6.3).
 *
 * @param ticks the event's Time in UtcTime ticks
 * @param eventId the event's EventId (Part 5, 6.4.2), unique per event
 */
public record EventKey(long ticks, ByteString eventId) implements Comparable<EventKey> {

    private static final HexFormat HEX = HexFormat.of();

    public EventKey {
        Objects.requireNonNull(eventId, "eventId");
        if (eventId.isNull()) {
            throw new IllegalArgumentException("an event kept in history needs an EventId");
        }
    }

    /** The key of an event: its Time and EventId. */
    public static EventKey of(UaEvent event) {
        return new EventKey(event.time().utcTicks(), event.eventId());
    }

    @Override
    public int compareTo(EventKey other) {
        int byTime = Long.compare(ticks, other.ticks);
        return byTime != 0 ? byTime : Arrays.compareUnsigned(eventId.unsafeBytes(), other.eventId.unsafeBytes());
    }

    /**
     * The key as text whose String order is the key's order: the ticks as 16 hex digits with the sign bit flipped,
     * then the EventId in hex (a store that sorts keys as text, such as the embedded one, uses it).
     */
    public String sortable() {
        return sortableTicks(ticks) + HEX.formatHex(eventId.unsafeBytes());
    }

    /** The key of a {@link #sortable()} text. */
    public static EventKey parseSortable(String text) {
        return new EventKey(HEX.fromHexDigitsToLong(text, 0, 16) ^ Long.MIN_VALUE,
                ByteString.wrap(HEX.parseHex(text, 16, text.length())));
    }

    /** The sortable text of a time alone: it sorts before every key at that time. */
    public static String sortableTicks(long ticks) {
        return HEX.toHexDigits(ticks ^ Long.MIN_VALUE);
    }
}
