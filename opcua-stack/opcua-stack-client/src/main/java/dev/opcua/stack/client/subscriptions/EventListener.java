package dev.opcua.stack.client.subscriptions;

import dev.opcua.stack.core.types.builtin.Variant;

/**
 * Receives the events of an event item (EventFieldList, Part 4, 7.20.3): the fields in the order of
 * the filter's select clauses, on the subscriptions' listener executor. An exception it throws is
 * logged and counted ({@link ClientSubscriptions#listenerErrors()}), nothing else.
 */
@FunctionalInterface
public interface EventListener {

    void onEvent(ClientMonitoredItem item, Variant[] fields);
}
