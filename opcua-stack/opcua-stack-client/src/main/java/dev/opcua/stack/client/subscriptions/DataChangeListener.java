package dev.opcua.stack.client.subscriptions;

import dev.opcua.stack.core.types.builtin.DataValue;

/**
 * Receives the values of a data item (MonitoredItemNotification, Part 4, 7.20.2), in the order the
 * server sent them, on the subscriptions' listener executor; never on an I/O thread. An exception it
 * throws is logged and counted ({@link ClientSubscriptions#listenerErrors()}), nothing else.
 */
@FunctionalInterface
public interface DataChangeListener {

    void onDataChange(ClientMonitoredItem item, DataValue value);
}
