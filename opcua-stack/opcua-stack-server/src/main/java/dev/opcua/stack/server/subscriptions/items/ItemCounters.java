package dev.opcua.stack.server.subscriptions.items;

import dev.opcua.stack.server.subscriptions.SubscriptionStatistics;

/**
 * What the monitored items report to the server's statistics: items created and deleted, and
 * notifications lost to a full queue (Part 4, 5.12.1.5). Called on sampling and service threads,
 * so implementations must be thread-safe and cheap (counters, not locks).
 */
public interface ItemCounters {

    /** Counts nothing. */
    ItemCounters NONE = new ItemCounters() {
        @Override
        public void itemsAdded(int count) {
        }

        @Override
        public void itemsRemoved(int count) {
        }

        @Override
        public void notificationsDropped(long count) {
        }

        @Override
        public void itemsRejected(int count) {
        }
    };

    /** Counts into the subscription engine's statistics. */
    static ItemCounters of(SubscriptionStatistics statistics) {
        return new ItemCounters() {
            @Override
            public void itemsAdded(int count) {
                statistics.monitoredItemsChanged(count);
            }

            @Override
            public void itemsRemoved(int count) {
                statistics.monitoredItemsChanged(-count);
            }

            @Override
            public void notificationsDropped(long count) {
                statistics.notificationsDropped(count);
            }

            @Override
            public void itemsRejected(int count) {
                statistics.monitoredItemsRejected(count);
            }
        };
    }

    void itemsAdded(int count);

    void itemsRemoved(int count);

    /** Notifications discarded because a queue was full (queues of size 1 overwrite, which counts too). */
    void notificationsDropped(long count);

    /** Items refused with BadTooManyMonitoredItems: a monitored-item flood past the limits. */
    void itemsRejected(int count);
}
