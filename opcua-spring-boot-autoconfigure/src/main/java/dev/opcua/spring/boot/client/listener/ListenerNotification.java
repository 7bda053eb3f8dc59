package dev.opcua.spring.boot.client.listener;

import dev.opcua.stack.client.subscriptions.ClientMonitoredItem;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.Variant;

/**
 * What a listener is called with: one value of a data item (MonitoredItemNotification, Part 4,
 * 7.20.2) or one event of an event item (EventFieldList, 7.20.3).
 */
public sealed interface ListenerNotification {

    /** The monitored item the notification came from. */
    ClientMonitoredItem item();

    /** A new value of a data item. */
    record DataChange(ClientMonitoredItem item, DataValue value) implements ListenerNotification {

        @Override
        public String toString() {
            return "data change " + value;
        }
    }

    /** An event: its fields in the order of the select clauses. */
    record Event(ClientMonitoredItem item, Variant[] fields) implements ListenerNotification {

        @Override
        public String toString() {
            return "event " + java.util.Arrays.toString(fields);
        }
    }
}
