package dev.opcua.stack.server.namespace0;

/**
 * A set of references while namespace 0 loads, each packed into a long (source, type and target
 * index, 21 bits each): an open-addressing table of primitives, so the ~15,000 lookups box nothing.
 */
final class EdgeSet {

    /** Node indexes must fit the 21 bits each key part has. */
    static final int MAX_NODES = 1 << 21;

    private final long[] keys;
    private final boolean[] used;
    private final int mask;

    /** A set for at most {@code expected} keys: it does not grow, its table has at least twice as many slots. */
    EdgeSet(int expected) {
        int capacity = Integer.highestOneBit(Math.max(16, expected)) << 2;
        keys = new long[capacity];
        used = new boolean[capacity];
        mask = capacity - 1;
    }

    /** The key of a reference from {@code source} to {@code target} of the type at {@code typeIndex}. */
    static long key(int source, int typeIndex, int target) {
        return (long) source << 42 | (long) typeIndex << 21 | target;
    }

    /** Adds the key; returns false when it was there already. At most {@code expected} keys may be added. */
    boolean add(long key) {
        int i = (int) ((key ^ key >>> 21 ^ key >>> 42) * 0x9E3779B97F4A7C15L >>> 32) & mask;
        while (used[i]) {
            if (keys[i] == key) {
                return false;
            }
            i = (i + 1) & mask;
        }
        used[i] = true;
        keys[i] = key;
        return true;
    }
}
