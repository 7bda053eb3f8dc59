package dev.opcua.stack.client.subscriptions;

import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.MonitoringMode;
import dev.opcua.stack.core.types.structured.EventFilter;
import java.util.Objects;

/**
 * An event item to create (Part 4, 5.12.1.4): the EventNotifier attribute of a notifier (the Server
 * object, i=2253, for all events of the server) with an EventFilter (7.22.3) whose select clauses
 * choose the fields reported; see {@link EventFilters}.
 */
public record EventItemRequest(NodeId notifier, EventFilter filter, long queueSize, boolean discardOldest,
        MonitoringMode monitoringMode, EventListener listener) {

    public EventItemRequest {
        Objects.requireNonNull(notifier, "notifier");
        Objects.requireNonNull(filter, "filter");
        Objects.requireNonNull(monitoringMode, "monitoringMode");
        if (queueSize < 0) {
            throw new IllegalArgumentException("queueSize must be >= 0: " + queueSize);
        }
    }

    /** Events of {@code notifier} through {@code filter}, queue 1000 discarding the oldest, Reporting. */
    public static EventItemRequest of(NodeId notifier, EventFilter filter, EventListener listener) {
        return new EventItemRequest(notifier, filter, 1000, true, MonitoringMode.Reporting, listener);
    }

    public EventItemRequest withQueue(long queueSize, boolean discardOldest) {
        return new EventItemRequest(notifier, filter, queueSize, discardOldest, monitoringMode, listener);
    }

    public EventItemRequest withMonitoringMode(MonitoringMode mode) {
        return new EventItemRequest(notifier, filter, queueSize, discardOldest, mode, listener);
    }
}
