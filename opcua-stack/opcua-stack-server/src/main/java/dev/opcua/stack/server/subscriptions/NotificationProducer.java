package dev.opcua.stack.server.subscriptions;

import dev.opcua.stack.core.types.structured.EventFieldList;
import dev.opcua.stack.core.types.structured.MonitoredItemNotification;
import java.util.List;

/**
 * A monitored item as its subscription's publishing cycle sees it (Part 4, 5.12.1 and 5.13.1): a
 * queue of notifications to report. The subscription learns that an item has something to report
 * through {@link ItemOwner#notificationsReady}, so that a publishing cycle touches only the items
 * with notifications, never all items.
 */
public interface NotificationProducer {

    /**
     * Moves up to {@code max} queued notifications into the lists (data changes or events, by the
     * item's kind), oldest first. Called by the subscription's publishing cycle, never concurrently
     * for one subscription.
     *
     * @return how many notifications were moved
     */
    int drain(List<MonitoredItemNotification> dataChanges, List<EventFieldList> events, int max);

    /** Whether notifications are queued and the item reports them (monitoring mode Reporting, or triggered). */
    boolean hasNotifications();
}
