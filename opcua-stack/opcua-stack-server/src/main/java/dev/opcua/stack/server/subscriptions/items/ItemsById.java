package dev.opcua.stack.server.subscriptions.items;

import io.netty.util.collection.LongObjectHashMap;
import java.util.ArrayList;
import java.util.List;

/**
 * The monitored items of one subscription by MonitoredItemId (Part 4, 7.19): a map of primitive keys, with no
 * boxed key and no entry object per item, as a server of a million items holds a million of them. Thread-safe:
 * every method takes the map's lock briefly; requests of one session may run on several workers at once.
 */
final class ItemsById {

    private final LongObjectHashMap<MonitoredItemBase> items = new LongObjectHashMap<>(8, 0.75f);

    synchronized int size() {
        return items.size();
    }

    /** The item with this id, or null. */
    synchronized MonitoredItemBase find(long monitoredItemId) {
        return items.get(monitoredItemId);
    }

    /** Adds the item unless its id is taken; whether it was added. */
    synchronized boolean putNew(MonitoredItemBase item) {
        if (items.containsKey(item.id())) {
            return false;
        }
        items.put(item.id(), item);
        return true;
    }

    /** Removes and returns the item with this id, or null. */
    synchronized MonitoredItemBase remove(long monitoredItemId) {
        return items.remove(monitoredItemId);
    }

    /** The items now, a copy. */
    synchronized List<MonitoredItemBase> all() {
        return new ArrayList<>(items.values());
    }

    /** Removes every item; those that were held. */
    synchronized List<MonitoredItemBase> removeAll() {
        List<MonitoredItemBase> removed = new ArrayList<>(items.values());
        items.clear();
        return removed;
    }
}
