package dev.opcua.stack.client.subscriptions;

import dev.opcua.stack.core.types.builtin.DataValue;

/**
 * Receives the values of a data item (MonitoredItemNotification, Part 4, 7.20.2), in the order the
 * server sent them, on the subscriptions' listener executor: by default the client's I/O thread that read the
 * Publish response, so it must not block (the client's blocking calls fail there at once); a listener that blocks
 * or takes long runs on the callback threads with
 * {@link dev.opcua.stack.client.OpcUaClientConfig.Builder#listenersOnCallbackThreads()}. An exception it
 * throws is logged and counted ({@link ClientSubscriptions#listenerErrors()}), nothing else.
 */
@FunctionalInterface
public interface DataChangeListener {

    void onDataChange(ClientMonitoredItem item, DataValue value);
}
