package dev.opcua.stack.server.subscriptions;

import dev.opcua.stack.core.types.structured.EventFieldList;
import dev.opcua.stack.core.types.structured.MonitoredItemNotification;
import java.util.ArrayDeque;
import java.util.List;

/**
 * Keeps a NotificationMessage within the size the client accepts. Part 4, 5.14.5.1 warns that
 * maxNotificationsPerPublish alone can still give a Publish response too large for the client (then it
 * can be neither received nor republished), so a publishing cycle also stops at a byte limit: the
 * notifications drained from an item past the limit wait here, in order, and open the next message, sent
 * with moreNotifications (5.14.1.1) at once when a Publish request is parked. A message holds at least one
 * notification, so one notification larger than the limit goes alone (and the client is told
 * BadResponseTooLarge).
 *
 * <p>Sizes are the upper bounds of {@link NotificationSizes}; without a limit nothing is measured. Used
 * by one subscription under its monitor.
 */
final class MessageFill {

    private final ArrayDeque<MonitoredItemNotification> overflowData = new ArrayDeque<>();
    private final ArrayDeque<EventFieldList> overflowEvents = new ArrayDeque<>();
    private long limit;
    private long used;
    private int count;
    private boolean full;

    /**
     * A new message of at most {@code maxBytes} of notifications; 0 or less for no limit.
     */
    void start(long maxBytes) {
        limit = maxBytes;
        used = 0;
        count = 0;
        full = false;
    }

    /** Whether the message reached its byte limit: nothing more goes in. */
    boolean full() {
        return full;
    }

    /** Whether notifications wait from the last message. */
    boolean hasOverflow() {
        return !overflowData.isEmpty() || !overflowEvents.isEmpty();
    }

    /**
     * Moves waiting notifications into the message first, up to {@code max} and the byte limit.
     *
     * @return how many were moved
     */
    int takeOverflow(List<MonitoredItemNotification> dataChanges, List<EventFieldList> events, int max) {
        int moved = 0;
        while (moved < max && !full && !overflowData.isEmpty()) {
            MonitoredItemNotification n = overflowData.peekFirst();
            if (!admit(NotificationSizes.of(n))) {
                break;
            }
            dataChanges.add(overflowData.pollFirst());
            moved++;
        }
        while (moved < max && !full && !overflowEvents.isEmpty()) {
            EventFieldList e = overflowEvents.peekFirst();
            if (!admit(NotificationSizes.of(e))) {
                break;
            }
            events.add(overflowEvents.pollFirst());
            moved++;
        }
        return moved;
    }

    /**
     * Sizes what an item's drain added to the lists (from {@code dataFrom} and {@code eventsFrom} on); what
     * does not fit moves, in order, to the overflow and the message is full.
     */
    void fit(List<MonitoredItemNotification> dataChanges, int dataFrom, List<EventFieldList> events, int eventsFrom) {
        if (limit <= 0) {
            count += dataChanges.size() - dataFrom + events.size() - eventsFrom;
            return;
        }
        for (int i = dataFrom; i < dataChanges.size(); i++) {
            if (!admit(NotificationSizes.of(dataChanges.get(i)))) {
                List<MonitoredItemNotification> rest = dataChanges.subList(i, dataChanges.size());
                overflowData.addAll(rest);
                rest.clear();
                break;
            }
        }
        for (int i = eventsFrom; i < events.size(); i++) {
            if (!admit(NotificationSizes.of(events.get(i)))) {
                List<EventFieldList> rest = events.subList(i, events.size());
                overflowEvents.addAll(rest);
                rest.clear();
                break;
            }
        }
    }

    /** Forgets the waiting notifications (the subscription closed). */
    void clear() {
        overflowData.clear();
        overflowEvents.clear();
    }

    /** Counts a notification of {@code size} bytes in, unless it would pass the limit of a non-empty message. */
    private boolean admit(int size) {
        if (full) {
            return false;
        }
        if (limit > 0 && count > 0 && used + size > limit) {
            full = true;
            return false;
        }
        used += size;
        count++;
        return true;
    }
}
