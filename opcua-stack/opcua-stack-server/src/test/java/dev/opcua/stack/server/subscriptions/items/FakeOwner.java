package dev.opcua.stack.server.subscriptions.items;

import dev.opcua.stack.core.types.structured.EventFieldList;
import dev.opcua.stack.core.types.structured.MonitoredItemNotification;
import dev.opcua.stack.server.subscriptions.ItemContainer;
import dev.opcua.stack.server.subscriptions.ItemContainerFactory;
import dev.opcua.stack.server.subscriptions.ItemOwner;
import dev.opcua.stack.server.subscriptions.NotificationProducer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A subscription as the items see it: records every notificationsReady call and publishes by
 * draining the signalled items, as the engine's publishing cycle would.
 */
final class FakeOwner implements ItemOwner {

    private final long subscriptionId;
    private final double publishingInterval;
    private final int maxItems;
    private final ItemContainer items;
    final ConcurrentLinkedQueue<NotificationProducer> ready = new ConcurrentLinkedQueue<>();
    final Map<NotificationProducer, AtomicInteger> signals = new ConcurrentHashMap<>();

    FakeOwner(long subscriptionId, double publishingInterval, int maxItems, ItemContainerFactory factory) {
        this.subscriptionId = subscriptionId;
        this.publishingInterval = publishingInterval;
        this.maxItems = maxItems;
        this.items = factory.create(this);
    }

    @Override
    public long subscriptionId() {
        return subscriptionId;
    }

    @Override
    public double publishingIntervalMillis() {
        return publishingInterval;
    }

    @Override
    public void notificationsReady(NotificationProducer item) {
        ready.add(item);
        signals.computeIfAbsent(item, k -> new AtomicInteger()).incrementAndGet();
    }

    @Override
    public MonitoredItemContainer items() {
        return (MonitoredItemContainer) items;
    }

    @Override
    public int remainingItemCapacity() {
        return maxItems - items.size();
    }

    /** How often the item signalled. */
    int signalsOf(NotificationProducer item) {
        AtomicInteger count = signals.get(item);
        return count == null ? 0 : count.get();
    }

    /** One publishing cycle: drains the signalled items (up to {@code max} each), keeps those that have more. */
    List<MonitoredItemNotification> publish(int max) {
        return publish(max, new ArrayList<>());
    }

    /** One publishing cycle that returns the event notifications (Part 4, 7.20.3 EventFieldList). */
    List<EventFieldList> publishEvents(int max) {
        List<EventFieldList> events = new ArrayList<>();
        publish(max, events);
        return events;
    }

    List<EventFieldList> publishEvents() {
        return publishEvents(Integer.MAX_VALUE);
    }

    private List<MonitoredItemNotification> publish(int max, List<EventFieldList> events) {
        List<MonitoredItemNotification> out = new ArrayList<>();
        List<NotificationProducer> again = new ArrayList<>();
        NotificationProducer producer;
        while ((producer = ready.poll()) != null) {
            producer.drain(out, events, max);
            if (producer.hasNotifications()) {
                again.add(producer);
            }
        }
        ready.addAll(again);
        return out;
    }

    List<MonitoredItemNotification> publish() {
        return publish(Integer.MAX_VALUE);
    }
}
