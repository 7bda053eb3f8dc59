package dev.opcua.stack.server.subscriptions;

import java.util.concurrent.atomic.LongAdder;

/**
 * The counters of the subscription layer (Part 4, 5.13), lock-free: gauges of subscriptions, monitored
 * items and parked Publish requests, and counters of notifications, keep-alives and late publishing
 * cycles, for the metrics of DESIGN.md section 7.
 *
 * <p>One object is shared by the {@link SubscriptionManager} and the monitored items: create it first
 * and hand it to both. The items report every monitored item they create or delete, those deleted by
 * {@link ItemContainer#deleteAll()} included, with {@link #monitoredItemsChanged(long)}, and every
 * notification their queues discard on overflow with {@link #notificationsDropped(long)}. So the
 * monitored-item gauge is kept up to date without summing container sizes.
 */
public final class SubscriptionStatistics {

    private final LongAdder subscriptions = new LongAdder();
    private final LongAdder subscriptionsCreated = new LongAdder();
    private final LongAdder subscriptionsExpired = new LongAdder();
    private final LongAdder subscriptionsTransferred = new LongAdder();
    private final LongAdder monitoredItems = new LongAdder();
    private final LongAdder parkedPublishRequests = new LongAdder();
    private final LongAdder publishRequestsRejected = new LongAdder();
    private final LongAdder subscriptionsRejected = new LongAdder();
    private final LongAdder monitoredItemsRejected = new LongAdder();
    private final LongAdder publishRequestsTimedOut = new LongAdder();
    private final LongAdder notificationsSent = new LongAdder();
    private final LongAdder notificationsDropped = new LongAdder();
    private final LongAdder notificationMessagesSent = new LongAdder();
    private final LongAdder keepAlivesSent = new LongAdder();
    private final LongAdder latePublishes = new LongAdder();

    /** For the monitored items: {@code delta} items were created (positive) or deleted (negative). */
    public void monitoredItemsChanged(long delta) {
        monitoredItems.add(delta);
    }

    /** For the monitored items: {@code count} notifications were discarded because a queue overflowed. */
    public void notificationsDropped(long count) {
        notificationsDropped.add(count);
    }

    /** Subscriptions that exist now, in sessions or waiting for a transfer. */
    public long subscriptions() {
        return subscriptions.sum();
    }

    /** Subscriptions created since the start. */
    public long subscriptionsCreated() {
        return subscriptionsCreated.sum();
    }

    /** Subscriptions deleted because their lifetime ended without Publish requests. */
    public long subscriptionsExpired() {
        return subscriptionsExpired.sum();
    }

    /** Subscriptions moved to another session by TransferSubscriptions. */
    public long subscriptionsTransferred() {
        return subscriptionsTransferred.sum();
    }

    /** Monitored items that exist now, as the items report them. */
    public long monitoredItems() {
        return monitoredItems.sum();
    }

    /** Publish requests waiting in their sessions now. */
    public long parkedPublishRequests() {
        return parkedPublishRequests.sum();
    }

    /** Publish requests answered BadTooManyPublishRequests. */
    public long publishRequestsRejected() {
        return publishRequestsRejected.sum();
    }

    /** CreateSubscription and TransferSubscriptions refused with BadTooManySubscriptions (server or session limit). */
    public long subscriptionsRejected() {
        return subscriptionsRejected.sum();
    }

    /** Monitored items not created: BadTooManyMonitoredItems (the server's or the subscription's limit). */
    public long monitoredItemsRejected() {
        return monitoredItemsRejected.sum();
    }

    /** Counts monitored items refused with BadTooManyMonitoredItems. */
    public void monitoredItemsRejected(int count) {
        monitoredItemsRejected.add(count);
    }

    /** Publish requests answered BadTimeout because their timeoutHint passed while parked. */
    public long publishRequestsTimedOut() {
        return publishRequestsTimedOut.sum();
    }

    /** Notifications (data changes and events) sent in NotificationMessages. */
    public long notificationsSent() {
        return notificationsSent.sum();
    }

    /** Notifications the monitored items discarded on queue overflow. */
    public long notificationsDropped() {
        return notificationsDropped.sum();
    }

    /** NotificationMessages with notifications sent (keep-alives and status changes not counted). */
    public long notificationMessagesSent() {
        return notificationMessagesSent.sum();
    }

    /** Keep-alive messages sent. */
    public long keepAlivesSent() {
        return keepAlivesSent.sum();
    }

    /** Publishing cycles that had a message to send and found no parked Publish request (Part 4, 5.13.1.2 Late). */
    public long latePublishes() {
        return latePublishes.sum();
    }

    void subscriptionCreated() {
        subscriptions.increment();
        subscriptionsCreated.increment();
    }

    void subscriptionDeleted() {
        subscriptions.decrement();
    }

    void subscriptionExpired() {
        subscriptionsExpired.increment();
    }

    void subscriptionTransferred() {
        subscriptionsTransferred.increment();
    }

    void parked(int delta) {
        parkedPublishRequests.add(delta);
    }

    void publishRequestRejected() {
        publishRequestsRejected.increment();
    }

    void subscriptionRejected() {
        subscriptionsRejected.increment();
    }

    void publishRequestTimedOut() {
        publishRequestsTimedOut.increment();
    }

    void notificationMessageSent(int notifications) {
        notificationMessagesSent.increment();
        notificationsSent.add(notifications);
    }

    void keepAliveSent() {
        keepAlivesSent.increment();
    }

    void latePublish() {
        latePublishes.increment();
    }

    @Override
    public String toString() {
        return "SubscriptionStatistics[subscriptions=" + subscriptions() + ", monitoredItems=" + monitoredItems()
                + ", parkedPublishRequests=" + parkedPublishRequests() + ", notificationsSent="
                + notificationsSent() + ", notificationsDropped=" + notificationsDropped() + ", keepAlivesSent="
                + keepAlivesSent() + ", latePublishes=" + latePublishes() + "]";
    }
}
