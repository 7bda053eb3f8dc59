package dev.opcua.stack.server.subscriptions;

import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.structured.EventFieldList;
import dev.opcua.stack.core.types.structured.MonitoredItemNotification;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Monitored items as the engine sees them, for tests: a factory whose containers hold
 * {@link Item}s that queue values or events and announce themselves per the {@link ItemOwner} contract
 * (once per empty-to-not-empty transition while reporting).
 */
final class FakeItems implements ItemContainerFactory {

    private final Map<Long, Container> containers = new ConcurrentHashMap<>();
    private final SubscriptionStatistics statistics;

    FakeItems(SubscriptionStatistics statistics) {
        this.statistics = statistics;
    }

    @Override
    public ItemContainer create(ItemOwner owner) {
        Container container = new Container(owner);
        containers.put(owner.subscriptionId(), container);
        return container;
    }

    Container of(long subscriptionId) {
        return containers.get(subscriptionId);
    }

    /** The items of one subscription. */
    final class Container implements ItemContainer {
        final ItemOwner owner;
        final List<Item> items = new ArrayList<>();
        int deleteAllCalls;

        Container(ItemOwner owner) {
            this.owner = owner;
        }

        /** A new reporting data-change item with this client handle. */
        synchronized Item add(long clientHandle) {
            Item item = new Item(owner, clientHandle, false);
            items.add(item);
            statistics.monitoredItemsChanged(1);
            return item;
        }

        /** A new reporting event item with this client handle. */
        synchronized Item addEvents(long clientHandle) {
            Item item = new Item(owner, clientHandle, true);
            items.add(item);
            statistics.monitoredItemsChanged(1);
            return item;
        }

        @Override
        public synchronized int size() {
            return items.size();
        }

        @Override
        public synchronized void deleteAll() {
            deleteAllCalls++;
            statistics.monitoredItemsChanged(-items.size());
            items.forEach(Item::clear);
            items.clear();
        }
    }

    /** A monitored item: a queue of notifications. */
    static final class Item implements NotificationProducer {
        final ItemOwner owner;
        final long clientHandle;
        final boolean events;
        private final ArrayDeque<Object> queue = new ArrayDeque<>();
        private boolean reporting = true;
        private int counter;

        Item(ItemOwner owner, long clientHandle, boolean events) {
            this.owner = owner;
            this.clientHandle = clientHandle;
            this.events = events;
        }

        /** Queues {@code count} values (or events), numbered 1, 2, ... over the item's life. */
        void report(int count) {
            boolean announce;
            synchronized (this) {
                announce = queue.isEmpty() && reporting;
                for (int i = 0; i < count; i++) {
                    int n = ++counter;
                    queue.add(events ? new EventFieldList(clientHandle, new Variant[] {Variant.ofInt32(n)})
                            : new MonitoredItemNotification(clientHandle, DataValue.of(Variant.ofInt32(n))));
                }
            }
            if (announce && count > 0) {
                owner.notificationsReady(this);
            }
        }

        /** Monitoring mode Sampling (false) or Reporting (true). */
        void reporting(boolean value) {
            boolean announce;
            synchronized (this) {
                announce = value && !reporting && !queue.isEmpty();
                reporting = value;
            }
            if (announce) {
                owner.notificationsReady(this);
            }
        }

        synchronized void clear() {
            queue.clear();
        }

        synchronized int queued() {
            return queue.size();
        }

        @Override
        public synchronized int drain(List<MonitoredItemNotification> dataChanges, List<EventFieldList> events,
                int max) {
            if (!reporting) {
                return 0;
            }
            int n = 0;
            while (n < max && !queue.isEmpty()) {
                Object next = queue.poll();
                if (next instanceof EventFieldList event) {
                    events.add(event);
                } else {
                    dataChanges.add((MonitoredItemNotification) next);
                }
                n++;
            }
            return n;
        }

        @Override
        public synchronized boolean hasNotifications() {
            return reporting && !queue.isEmpty();
        }
    }
}
