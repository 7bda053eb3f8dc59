package dev.opcua.stack.server.subscriptions;

/**
 * The monitored items of one subscription, as the subscription engine needs them: counted, and all
 * deleted with the subscription. The monitored-item service set works on the implementation,
 * created for each subscription by the factory given to the {@code SubscriptionManager}.
 */
public interface ItemContainer {

    /** Monitored items in the subscription. */
    int size();

    /** Deletes every item (the subscription is deleted or its session closed): stops sampling, frees queues. */
    void deleteAll();

    /**
     * TransferSubscriptions with sendInitialValues (Part 4, 5.13.7): every reporting data item whose
     * queue is empty queues its last value again, so the new session receives the current values.
     */
    default void resendLastValues() {
    }

    /**
     * Re-creates the items of a restored durable subscription (Part 4, 6.8) with their MonitoredItemIds and
     * queued notifications, then starts them; the first sample equal to an item's last stored value is not
     * queued again (the item's filter compares with it).
     *
     * @return the items restored (items that cannot be restored are logged and skipped)
     */
    default int restore(java.util.List<dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionRecord.Item> items) {
        return 0;
    }

    /**
     * The clientHandle of every item by its MonitoredItemId (the server handle), in MonitoredItemId order: what
     * the Server object's GetMonitoredItems method returns (Part 5, 9.1).
     */
    default java.util.SortedMap<Long, Long> clientHandles() {
        return new java.util.TreeMap<>();
    }

    /** Every item with its queued notifications now (a durable subscription's snapshot, Part 4, 6.8). */
    default java.util.List<dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionRecord.Item> snapshot() {
        return java.util.List.of();
    }
}
