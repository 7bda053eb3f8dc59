package dev.opcua.stack.server.subscriptions.items;

import dev.opcua.stack.core.types.builtin.DataValue;

/**
 * The notification queue of a data-change item (Part 4, 5.12.1.5): a ring of DataValues, bounded
 * by the revised queue size, with the item's discard policy and the Overflow info bit (Part 4,
 * 7.39.1: bit 7 with InfoType DataValue, see {@link dev.opcua.stack.core.types.builtin.StatusCode#withOverflow}).
 *
 * <p>When full and the size is larger than one: discardOldest drops the oldest value and marks the
 * value that is now the oldest; otherwise the newest value is replaced by the new one, which is
 * marked. A queue of size one always holds the newest value, without the bit. The ring grows on
 * demand up to its size, so 100,000 idle items with large queues hold small arrays.
 *
 * <p>Not thread-safe: the owning item guards it.
 */
final class ValueQueue {

    private static final int INITIAL = 2;

    private DataValue[] ring;
    private int head;
    private int size;
    private int capacity;

    ValueQueue(int capacity) {
        this.capacity = capacity;
        this.ring = new DataValue[Math.min(capacity, INITIAL)];
    }

    int capacity() {
        return capacity;
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /**
     * Queues a value; when full, discards one per the policy.
     *
     * @return how many values were discarded (0 or 1)
     */
    int add(DataValue value, boolean discardOldest) {
        if (size < capacity) {
            if (size == ring.length) {
                grow();
            }
            ring[index(size)] = value;
            size++;
            return 0;
        }
        if (capacity == 1) {
            ring[head] = value; // a buffer of the newest value: no overflow bit (Part 4, 5.12.1.5)
            return 1;
        }
        if (discardOldest) {
            ring[head] = null;
            head = index(1);
            ring[head] = overflowed(ring[head]);
            ring[index(size - 1)] = value;
        } else {
            ring[index(size - 1)] = overflowed(value);
        }
        return 1;
    }

    /** Removes and returns the oldest value, or null when empty. */
    DataValue poll() {
        if (size == 0) {
            return null;
        }
        DataValue value = ring[head];
        ring[head] = null;
        head = index(1);
        size--;
        if (size == 0) {
            head = 0;
        }
        return value;
    }

    /** A copy of the queued values, oldest first (durable snapshots); the queue is unchanged. */
    java.util.List<DataValue> snapshot() {
        java.util.List<DataValue> values = new java.util.ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            values.add(ring[index(i)]);
        }
        return values;
    }

    void clear() {
        java.util.Arrays.fill(ring, null);
        head = 0;
        size = 0;
    }

    /**
     * Changes the size (ModifyMonitoredItems); a smaller queue discards what no longer fits per the
     * policy, marking the value next to the gap as on overflow.
     *
     * @return how many values were discarded
     */
    int resize(int newCapacity, boolean discardOldest) {
        int discarded = 0;
        DataValue[] values = new DataValue[size];
        for (int i = 0; i < size; i++) {
            values[i] = ring[index(i)];
        }
        int from = 0;
        int to = values.length;
        if (values.length > newCapacity) {
            discarded = values.length - newCapacity;
            if (discardOldest) {
                from = discarded;
            } else {
                to = newCapacity;
            }
            if (newCapacity > 1) {
                int marked = discardOldest ? from : to - 1;
                values[marked] = overflowed(values[marked]);
            }
        }
        capacity = newCapacity;
        ring = new DataValue[Math.max(Math.min(newCapacity, INITIAL), to - from)];
        head = 0;
        size = 0;
        for (int i = from; i < to; i++) {
            ring[size++] = values[i];
        }
        return discarded;
    }

    private void grow() {
        DataValue[] larger = new DataValue[Math.min(capacity, ring.length * 2)];
        for (int i = 0; i < size; i++) {
            larger[i] = ring[index(i)];
        }
        ring = larger;
        head = 0;
    }

    private int index(int offset) {
        int i = head + offset;
        return i >= ring.length ? i - ring.length : i;
    }

    private static DataValue overflowed(DataValue value) {
        if (value.statusCode().isOverflow()) {
            return value;
        }
        return DataValue.of(value.value(), value.statusCode().withOverflow(), value.sourceTimestamp(),
                value.sourcePicoseconds(), value.serverTimestamp(), value.serverPicoseconds());
    }
}
