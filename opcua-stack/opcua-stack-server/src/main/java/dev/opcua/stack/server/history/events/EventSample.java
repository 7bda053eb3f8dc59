package dev.opcua.stack.server.history.events;

import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.subscriptions.events.UaEvent;
import java.util.Objects;

/**
 * One event to keep in the history of a notifier (Part 11, 4.3: a HistoricalEventNode keeps the events reported
 * on it or on a notifier below it).
 *
 * @param notifier the Object or View whose event history holds it
 * @param event the event with all its fields
 */
public record EventSample(NodeId notifier, UaEvent event) {

    public EventSample {
        Objects.requireNonNull(notifier, "notifier");
        Objects.requireNonNull(event, "event");
    }

    public EventKey key() {
        return EventKey.of(event);
    }
}
