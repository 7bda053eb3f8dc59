package dev.opcua.stack.client.subscriptions;

import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the subscriptions of one client counted: notifications and keep-alives received, messages
 * republished or lost, notifications dropped for a full listener queue, Publish held back for one,
 * listener exceptions. Counted
 * where it happens (the Publish pipeline, the sequencers, the listener queues) without a lock;
 * {@link ClientSubscriptions} reports the sums.
 */
final class SubscriptionCounters {

    private static final Logger log = LoggerFactory.getLogger(SubscriptionCounters.class);

    private final LongAdder notificationsReceived = new LongAdder();
    private final LongAdder keepAlivesReceived = new LongAdder();
    private final LongAdder republished = new LongAdder();
    private final LongAdder lostSequenceNumbers = new LongAdder();
    private final LongAdder droppedNotifications = new LongAdder();
    private final LongAdder listenerErrors = new LongAdder();
    private final LongAdder takeoverDuplicates = new LongAdder();
    private final LongAdder publishHoldBacks = new LongAdder();
    private final LongAdder longPublishHoldBacks = new LongAdder();
    private final LongAdder moreNotificationsResponses = new LongAdder();
    private final LongAdder pipelineEmptied = new LongAdder();

    void countNotifications(int n) {
        notificationsReceived.add(n);
    }

    void countKeepAlive() {
        keepAlivesReceived.increment();
    }

    void countRepublished() {
        republished.increment();
    }

    void countLost() {
        lostSequenceNumbers.increment();
    }

    void countTakeoverDuplicate() {
        takeoverDuplicates.increment();
    }

    long takeoverDuplicates() {
        return takeoverDuplicates.sum();
    }

    void countPublishHoldBack() {
        publishHoldBacks.increment();
    }

    void countLongPublishHoldBack() {
        longPublishHoldBacks.increment();
    }

    long publishHoldBacks() {
        return publishHoldBacks.sum();
    }

    long longPublishHoldBacks() {
        return longPublishHoldBacks.sum();
    }

    void countMoreNotifications() {
        moreNotificationsResponses.increment();
    }

    long moreNotificationsResponses() {
        return moreNotificationsResponses.sum();
    }

    void countPipelineEmptied() {
        pipelineEmptied.increment();
    }

    long pipelineEmptied() {
        return pipelineEmptied.sum();
    }

    void countDropped(int n) {
        droppedNotifications.add(n);
    }

    /** A listener of {@code item} (null: a status listener) threw {@code error}. */
    void listenerFailed(ClientMonitoredItem item, Throwable error) {
        listenerErrors.increment();
        // Logged once in a while, not per notification: a listener that always throws would flood the log.
        long errors = listenerErrors.sum();
        if (errors == 1 || errors % 1000 == 0) {
            log.warn("A listener of {} threw ({} listener errors so far)", item, errors, error);
        }
    }

    long notificationsReceived() {
        return notificationsReceived.sum();
    }

    long keepAlivesReceived() {
        return keepAlivesReceived.sum();
    }

    long republished() {
        return republished.sum();
    }

    long lostSequenceNumbers() {
        return lostSequenceNumbers.sum();
    }

    long droppedNotifications() {
        return droppedNotifications.sum();
    }

    long listenerErrors() {
        return listenerErrors.sum();
    }
}
