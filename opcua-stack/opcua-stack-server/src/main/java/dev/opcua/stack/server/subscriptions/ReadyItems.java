package dev.opcua.stack.server.subscriptions;

import java.util.ArrayList;

/**
 * The items of one subscription that signalled notifications (Part 4, 5.13.1.2: what a publishing
 * cycle drains), oldest first: any thread adds, the publishing cycle takes. Two lists swap roles: adders
 * append to the inbox under its own small lock (one per subscription, never shared); the consumer works
 * through its outbox without a lock and swaps in the inbox when the outbox is used up, so the
 * steady state allocates nothing per signal and the consumer takes the lock once per batch.
 *
 * <p>Thread-safety: {@link #add} from any thread; every other method from one consumer at a time
 * (the subscription's monitor serialises them).
 */
final class ReadyItems {

    /** Lists that grew beyond this are dropped after use instead of kept, so a burst does not pin memory. */
    private static final int KEEP_CAPACITY = 1024;

    private final Object inboxLock = new Object();
    // guarded by inboxLock
    private ArrayList<NotificationProducer> inbox = new ArrayList<>();
    private int inboxPeak;

    // consumer only
    private ArrayList<NotificationProducer> outbox = new ArrayList<>();
    private int head;
    private int outboxPeak;

    /** Appends an item (any thread, O(1) amortised). */
    void add(NotificationProducer item) {
        synchronized (inboxLock) {
            inbox.add(item);
            if (inbox.size() > inboxPeak) {
                inboxPeak = inbox.size();
            }
        }
    }

    /** The oldest item, or null when none is waiting. */
    NotificationProducer peek() {
        if (head == outbox.size() && !refill()) {
            return null;
        }
        return outbox.get(head);
    }

    /** Removes and returns the oldest item, or null when none is waiting. */
    NotificationProducer poll() {
        NotificationProducer item = peek();
        if (item != null) {
            outbox.set(head++, null);
        }
        return item;
    }

    /** Forgets every item (the subscription closed). */
    void clear() {
        synchronized (inboxLock) {
            inbox = new ArrayList<>();
            inboxPeak = 0;
        }
        outbox = new ArrayList<>();
        head = 0;
        outboxPeak = 0;
    }

    /** Swaps the used-up outbox with the inbox; false when the inbox was empty too. */
    private boolean refill() {
        ArrayList<NotificationProducer> empty = outbox;
        if (outboxPeak > KEEP_CAPACITY) {
            empty = new ArrayList<>();
        } else {
            empty.clear();
        }
        synchronized (inboxLock) {
            outbox = inbox;
            outboxPeak = inboxPeak;
            inbox = empty;
            inboxPeak = 0;
        }
        head = 0;
        return !outbox.isEmpty();
    }
}
