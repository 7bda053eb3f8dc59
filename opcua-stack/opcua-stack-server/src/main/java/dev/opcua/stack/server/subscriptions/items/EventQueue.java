package dev.opcua.stack.server.subscriptions.items;

import dev.opcua.stack.server.subscriptions.events.UaEvent;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The queue of an event item (Part 4, 5.12.1.5): the events that passed the item's where clause,
 * bounded by the revised queue size, with the discard policy; their fields are selected when they are
 * published. The events are the reported, immutable {@link UaEvent}s, shared by every item that
 * queues them.
 *
 * <p>Overflow is signalled by one event of EventQueueOverflowEventType (Part 5, 6.4.34) placed where
 * events went missing: with discardOldest at the front, since the oldest were dropped; otherwise the
 * newest queued event is replaced by the new one and the overflow event sits just before it. At most
 * one overflow event is queued at a time and it does not count against the queue size, so further
 * overflows before it is published only discard.
 *
 * <p>Not thread-safe: the owning item guards it.
 */
final class EventQueue {

    private final ArrayDeque<UaEvent> events = new ArrayDeque<>(2);
    private int capacity;
    /** The overflow event queued now, or null. */
    private UaEvent overflow;

    EventQueue(int capacity) {
        this.capacity = capacity;
    }

    int capacity() {
        return capacity;
    }

    /** Events queued, the overflow event included. */
    int size() {
        return events.size();
    }

    boolean isEmpty() {
        return events.isEmpty();
    }

    /** Whether an overflow event is queued. */
    boolean hasOverflow() {
        return overflow != null;
    }

    private int regular() {
        return overflow == null ? events.size() : events.size() - 1;
    }

    /**
     * Queues an event; when full, discards one per the policy and queues the overflow event unless
     * one is queued already.
     *
     * @param overflowEvent builds the overflow event, called only when one is queued
     * @return how many events were discarded (0 or 1)
     */
    int add(UaEvent event, boolean discardOldest, Supplier<UaEvent> overflowEvent) {
        if (regular() < capacity) {
            events.addLast(event);
            return 0;
        }
        if (discardOldest) {
            if (overflow != null && events.peekFirst() == overflow) {
                events.pollFirst();
                events.pollFirst(); // the oldest event behind the overflow event
                events.addFirst(overflow);
            } else {
                events.pollFirst();
                if (overflow == null) {
                    overflow = overflowEvent.get();
                    events.addFirst(overflow);
                }
            }
        } else {
            boolean overflowLast = events.pollLast() == overflow && overflow != null;
            if (overflowLast) { // left at the end by a shrink: the newest event is the one before it
                events.pollLast();
            }
            if (overflow == null) {
                overflow = overflowEvent.get();
                events.addLast(overflow);
            } else if (overflowLast) {
                events.addLast(overflow);
            }
        }
        events.addLast(event);
        return 1;
    }

    /** Removes and returns the oldest queued event (possibly the overflow event), or null when empty. */
    UaEvent poll() {
        UaEvent event = events.pollFirst();
        if (event != null && event == overflow) {
            overflow = null;
        }
        return event;
    }

    /** A copy of the queued events, oldest first, the overflow event included (durable snapshots). */
    java.util.List<UaEvent> snapshot() {
        return new java.util.ArrayList<>(events);
    }

    void clear() {
        events.clear();
        overflow = null;
    }

    /**
     * Changes the size (ModifyMonitoredItems): a smaller queue discards what no longer fits per the
     * policy, the oldest or the newest events, and queues the overflow event at that end.
     *
     * @return how many events were discarded
     */
    int resize(int newCapacity, boolean discardOldest, Supplier<UaEvent> overflowEvent) {
        int excess = regular() - newCapacity;
        capacity = newCapacity;
        if (excess <= 0) {
            return 0;
        }
        List<UaEvent> kept = new ArrayList<>(events);
        events.clear();
        int removed = 0;
        for (int k = discardOldest ? 0 : kept.size() - 1; removed < excess; k += discardOldest ? 1 : -1) {
            if (kept.get(k) != overflow) {
                kept.set(k, null);
                removed++;
            }
        }
        for (UaEvent event : kept) {
            if (event != null) {
                events.addLast(event);
            }
        }
        if (overflow == null) {
            overflow = overflowEvent.get();
            if (discardOldest) {
                events.addFirst(overflow);
            } else {
                events.addLast(overflow);
            }
        }
        return removed;
    }
}
