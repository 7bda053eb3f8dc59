package dev.opcua.stack.server.subscriptions;

/**
 * A subscription as its monitored items see it (Part 4, 5.13.1).
 */
public interface ItemOwner {

    /** The SubscriptionId. */
    long subscriptionId();

    /** The revised publishing interval in milliseconds: the sampling interval of items that ask for -1. */
    double publishingIntervalMillis();

    /**
     * An item has notifications to report: it calls this when its queue goes from empty to not empty
     * while reporting (and when it starts reporting with a non-empty queue). O(1) and thread-safe:
     * called from sampling threads and node-manager threads.
     */
    void notificationsReady(NotificationProducer item);

    /** The subscription's monitored items. */
    ItemContainer items();

    /**
     * The largest queue size an item of this subscription may get beyond the monitored-item settings'
     * maximum: {@code SubscriptionSettings.maxDurableQueueSize} for a durable subscription (Part 4, 6.8),
     * 0 for any other.
     */
    default int durableQueueSizeLimit() {
        return 0;
    }

    /** Monitored items the subscription may still take (its limit and the server's), for BadTooManyMonitoredItems. */
    int remainingItemCapacity();
}
