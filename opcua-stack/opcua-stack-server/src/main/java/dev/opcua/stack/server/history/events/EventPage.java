package dev.opcua.stack.server.history.events;

import dev.opcua.stack.server.subscriptions.events.UaEvent;
import java.util.List;

/**
 * What an {@link EventQuery} found: its events in the query's order, and whether more lie in the range beyond them.
 *
 * @param events the events, at most the query's limit
 * @param more whether events beyond the last one remain in the range
 */
public record EventPage(List<UaEvent> events, boolean more) {

    public static final EventPage EMPTY = new EventPage(List.of(), false);

    public EventPage {
        events = List.copyOf(events);
    }

    /** The key of the last event, to resume after ({@link EventQuery#after}). */
    public EventKey lastKey() {
        if (events.isEmpty()) {
            throw new IllegalStateException("the page is empty");
        }
        return EventKey.of(events.get(events.size() - 1));
    }
}
