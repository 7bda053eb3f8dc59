package dev.opcua.stack.server.subscriptions.events;

import dev.opcua.stack.core.types.builtin.NodeId;

/**
 * Where the server and its node managers report events (Part 3, 4.7 and 5.5.1 EventNotifier): an
 * event is reported on the notifier it belongs to, an Object whose EventNotifier attribute has
 * SubscribeToEvents (the Server object, an area, a device), usually its SourceNode or a notifier
 * above it.
 */
@FunctionalInterface
public interface EventSink {

    /**
     * Reports an event on a notifier. Must not block: it runs on the reporting thread, which may be a
     * node manager's I/O thread.
     */
    void report(NodeId notifier, UaEvent event);
}
