package dev.opcua.stack.client.subscriptions;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The monitored items of one subscription by client handle: open addressing with linear probing over
 * an array of the items themselves (the key is the item's own handle), so a lookup neither boxes nor
 * allocates nor locks. Writers are serialised on the instance; readers (the delivery of
 * notifications) read without a lock: a slot is published with release semantics, removal leaves a
 * tombstone, growth publishes a new table. Insertion order is kept apart for {@link #values()}.
 */
final class ItemsByHandle {

    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Object[].class);
    private static final Object TOMBSTONE = new Object();

    private volatile Object[] table = new Object[16];
    private final Set<ClientMonitoredItem> ordered = new LinkedHashSet<>();
    private int used; // items plus tombstones

    /** The item with this handle, or null. */
    ClientMonitoredItem get(int clientHandle) {
        Object[] t = table;
        int mask = t.length - 1;
        int i = mix(clientHandle) & mask;
        while (true) {
            Object e = SLOT.getAcquire(t, i);
            if (e == null) {
                return null;
            }
            if (e != TOMBSTONE && ((ClientMonitoredItem) e).clientHandle() == clientHandle) {
                return (ClientMonitoredItem) e;
            }
            i = (i + 1) & mask;
        }
    }

    synchronized void put(ClientMonitoredItem item) {
        if (get(item.clientHandle()) != null) {
            return;
        }
        if ((used + 1) * 2 > table.length) {
            rebuild(Math.max(16, Integer.highestOneBit(Math.max(1, ordered.size() + 1) * 4)));
        }
        insert(table, item);
        used++;
        ordered.add(item);
    }

    synchronized void remove(ClientMonitoredItem item) {
        Object[] t = table;
        int mask = t.length - 1;
        int i = mix(item.clientHandle()) & mask;
        while (true) {
            Object e = t[i];
            if (e == null) {
                return;
            }
            if (e == item) {
                SLOT.setRelease(t, i, TOMBSTONE);
                ordered.remove(item);
                return;
            }
            i = (i + 1) & mask;
        }
    }

    /** The items in the order they were added. */
    synchronized List<ClientMonitoredItem> values() {
        return List.copyOf(ordered);
    }

    synchronized int size() {
        return ordered.size();
    }

    private void rebuild(int capacity) {
        Object[] fresh = new Object[capacity];
        for (ClientMonitoredItem item : ordered) {
            insert(fresh, item);
        }
        used = ordered.size();
        table = fresh;
    }

    private static void insert(Object[] t, ClientMonitoredItem item) {
        int mask = t.length - 1;
        int i = mix(item.clientHandle()) & mask;
        while (t[i] != null && t[i] != TOMBSTONE) {
            i = (i + 1) & mask;
        }
        SLOT.setRelease(t, i, item);
    }

    private static int mix(int h) {
        int x = h * 0x9E3779B9;
        return x ^ (x >>> 16);
    }
}
