package dev.opcua.stack.server.subscriptions.durable;

import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.MonitoringMode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.NotificationMessage;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.server.session.Identity;
import java.util.List;
import java.util.Objects;

/**
 * What a {@link DurableSubscriptionStore} keeps of one durable subscription (Part 4, 6.8) so that it can
 * outlive a server restart: its parameters, its owner (what TransferSubscriptions compares), its sequence
 * numbering and unacknowledged NotificationMessages, and every monitored item with its queued notifications
 * in order. Immutable; encoded by {@link DurableRecordCodec}.
 *
 * @param subscriptionId the SubscriptionId, kept across the restart
 * @param owner the identity of the session that last held it
 * @param publishingInterval the revised publishing interval in milliseconds
 * @param lifetimeCount the revised lifetimeCount
 * @param maxKeepAliveCount the revised maxKeepAliveCount
 * @param maxNotificationsPerPublish the revised maximum, 0 for none
 * @param priority the relative priority
 * @param publishingEnabled the publishing mode
 * @param durableLifetimeHours the revised lifetime of SetSubscriptionDurable
 * @param expiresAtMillis wall-clock time (ms since 1970) at which its lifetime ends if nobody takes it
 * @param nextSequenceNumber the sequence number of its next NotificationMessage
 * @param retransmission its unacknowledged NotificationMessages, oldest first
 * @param items its monitored items
 */
public record DurableSubscriptionRecord(long subscriptionId, Identity owner, double publishingInterval,
        long lifetimeCount, long maxKeepAliveCount, int maxNotificationsPerPublish, short priority,
        boolean publishingEnabled, long durableLifetimeHours, long expiresAtMillis, long nextSequenceNumber,
        List<NotificationMessage> retransmission, List<Item> items) {

    public DurableSubscriptionRecord {
        Objects.requireNonNull(owner, "owner");
        retransmission = List.copyOf(retransmission);
        items = List.copyOf(items);
    }

    /**
     * One monitored item: its definition as revised, and its queue. A data-change item has
     * {@code queuedValues} (oldest first) and its {@code lastValue} (the last value queued, to recognise
     * the first sample after the restart); an event item has {@code queuedEvents}, each the selected fields
     * of one EventFieldList, and an EventFilter as {@code filter}.
     */
    public record Item(long monitoredItemId, long clientHandle, ReadValueId itemToMonitor, MonitoringMode mode,
            double samplingInterval, int queueSize, boolean discardOldest, ExtensionObject filter,
            TimestampsToReturn timestamps, boolean event, List<DataValue> queuedValues, DataValue lastValue,
            List<Variant[]> queuedEvents) {

        public Item {
            Objects.requireNonNull(itemToMonitor, "itemToMonitor");
            Objects.requireNonNull(mode, "mode");
            filter = filter == null ? ExtensionObject.NULL : filter;
            timestamps = timestamps == null ? TimestampsToReturn.Both : timestamps;
            queuedValues = List.copyOf(queuedValues);
            queuedEvents = List.copyOf(queuedEvents);
        }
    }
}
