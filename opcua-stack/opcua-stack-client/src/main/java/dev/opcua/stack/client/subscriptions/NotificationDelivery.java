package dev.opcua.stack.client.subscriptions;

import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.structured.EventFieldList;
import dev.opcua.stack.core.types.structured.MonitoredItemNotification;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The listeners' serial queue of one subscription: notifications run on the listener executor one
 * after the other in the order the sequencer handed them over, so that one item's values never
 * overtake each other, while the Publish pipeline never waits for a listener. At most
 * {@code maxQueued} notifications wait; the rest are dropped and counted. A batch is one
 * NotificationData (the arrays the decoder made), so queuing allocates one small object per
 * NotificationData, not per notification; {@link #flush} hands them on. The {@link PublishPipeline} asks each queue for its
 * {@link #publishCredit room} before it sends Publish requests and is told when the listeners drained
 * some, so that the overflow is dropped only as a last resort ({@link PublishHoldBack}).
 */
final class NotificationDelivery implements Runnable {

    /** Batches run in one go before the task yields its executor thread to others. */
    private static final int BATCHES_PER_RUN = 64;

    private final ClientSubscription subscription;
    private final SubscriptionCounters counters;
    private final Executor executor;
    private final int maxQueued;
    private final ConcurrentLinkedQueue<Batch> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queued = new AtomicInteger();
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final Runnable drained;

    private record Batch(Object data, int count) {
    }

    NotificationDelivery(ClientSubscription subscription, SubscriptionCounters counters, Executor executor,
            int maxQueued, Runnable drained) {
        this.subscription = subscription;
        this.drained = drained;
        this.counters = counters;
        this.executor = executor;
        this.maxQueued = maxQueued;
    }

    void offerDataChanges(MonitoredItemNotification[] notifications) {
        offer(notifications, notifications.length, true);
    }

    void offerEvents(EventFieldList[] events) {
        offer(events, events.length, true);
    }

    /** A status change is never dropped. */
    void offerStatus(StatusCode status) {
        offer(status, 1, false);
    }

    /** Notifications waiting for the listeners now. */
    int queued() {
        return queued.get();
    }

    /**
     * How many more Publish responses this queue has room for: the free places divided by what one
     * response can carry ({@code maxPerPublish}, at least 1). An empty queue has room for one response
     * at least, whatever its size.
     */
    int publishCredit(long maxPerPublish) {
        int now = queued.get();
        long credit = Math.max(0, maxQueued - now) / Math.max(1, maxPerPublish);
        if (credit == 0 && now == 0) {
            return 1;
        }
        return (int) Math.min(credit, Integer.MAX_VALUE);
    }

    private void offer(Object data, int count, boolean droppable) {
        if (count == 0) {
            return;
        }
        int take = count;
        if (droppable) {
            int free = maxQueued - queued.get();
            if (free < count) {
                take = Math.max(0, free);
                counters.countDropped(count - take);
                if (take == 0) {
                    return;
                }
            }
        }
        queued.addAndGet(take);
        queue.add(new Batch(data, take));
    }

    /**
     * Hands what was offered to the listener executor. The sequencer offers under its lock, in order, and flushes
     * once it has left it, so that a listener running on the calling thread (the default, the I/O thread) never
     * runs under the sequencer's lock.
     */
    void flush() {
        if (!queue.isEmpty()) {
            schedule();
        }
    }

    private void schedule() {
        if (scheduled.compareAndSet(false, true)) {
            try {
                executor.execute(this);
            } catch (RejectedExecutionException e) {
                scheduled.set(false);
                Batch b;
                while ((b = queue.poll()) != null) {
                    queued.addAndGet(-b.count);
                    counters.countDropped(b.count);
                }
            }
        }
    }

    @Override
    public void run() {
        Batch b;
        for (int n = 0; n < BATCHES_PER_RUN && (b = queue.poll()) != null; n++) {
            try {
                dispatch(b);
            } finally {
                queued.addAndGet(-b.count);
            }
            // room for a response again: the pipeline sends a held-back Publish (one volatile read otherwise)
            drained.run();
        }
        scheduled.set(false);
        if (!queue.isEmpty()) {
            schedule();
        }
    }

    private void dispatch(Batch b) {
        Object data = b.data;
        if (data instanceof MonitoredItemNotification[] notifications) {
            ItemsByHandle items = subscription.itemsByHandle();
            for (int i = 0; i < b.count; i++) {
                MonitoredItemNotification n = notifications[i];
                ClientMonitoredItem item = items.get((int) n.clientHandle());
                DataChangeListener listener = item == null ? null : item.dataChangeListener();
                if (listener != null) {
                    item.delivered(n.value());
                    try {
                        listener.onDataChange(item, n.value());
                    } catch (RuntimeException | LinkageError | AssertionError e) {
                        counters.listenerFailed(item, e);
                    }
                }
            }
        } else if (data instanceof EventFieldList[] events) {
            ItemsByHandle items = subscription.itemsByHandle();
            for (int i = 0; i < b.count; i++) {
                EventFieldList e = events[i];
                ClientMonitoredItem item = items.get((int) e.clientHandle());
                EventListener listener = item == null ? null : item.eventListener();
                if (listener != null) {
                    try {
                        listener.onEvent(item, e.eventFields());
                    } catch (RuntimeException | LinkageError | AssertionError ex) {
                        counters.listenerFailed(item, ex);
                    }
                }
            }
        } else if (data instanceof StatusCode status) {
            SubscriptionStatusListener listener = subscription.statusListener();
            if (listener != null) {
                try {
                    listener.onStatusChange(subscription, status);
                } catch (RuntimeException | LinkageError | AssertionError e) {
                    counters.listenerFailed(null, e);
                }
            }
        }
    }
}
