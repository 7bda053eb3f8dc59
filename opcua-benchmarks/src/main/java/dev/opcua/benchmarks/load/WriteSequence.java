package dev.opcua.benchmarks.load;

import java.util.ArrayList;
import java.util.List;

/**
 * The values of the {@code sub} scenario's writer and what is known about them: value number
 * {@code w} is written as the Double {@code w} to variable {@code Var.slot(w)}, {@code slot(w) = (w -
 * base) % slots}, so that a data change notification (Part 4, 7.20.2) tells by its value alone which
 * write it carries and when that write was sent. The writes go round the monitored variables in order,
 * so a variable gets every {@code slots}-th value. {@code base} is random per run: values a server
 * still holds from an earlier run are not taken for this run's.
 *
 * <p>One writer thread calls {@link #sent}; it stores the send times before it publishes the new
 * end of the sequence (a volatile write), so a reader that finds a value below {@link #published()}
 * also sees its send time. Send times live in a ring: a value older than the ring is no longer timed.
 */
final class WriteSequence {

    private final long base;
    private final int slots;
    private final long[] sentNanos;
    private final int mask;
    private final List<long[]> failed = new ArrayList<>();
    /** Whether values come from the server's own simulation: their latency is timed by their source timestamps. */
    private final boolean serverSide;
    private volatile long published;
    private volatile long windowFrom = Long.MAX_VALUE;
    private volatile long windowTo = Long.MAX_VALUE;

    /**
     * @param base the first value, below 2^52 so that every value is an exact Double
     * @param slots monitored variables the values go round
     * @param ringSize send times kept, rounded up to a power of two
     */
    WriteSequence(long base, int slots, int ringSize) {
        this(base, slots, ringSize, false);
    }

    /**
     * The values a bench server's simulation ({@code --simulate}) sets, value {@code base + n} to slot
     * {@code n % slots}: every value at or above {@code base} counts as sent; the window is opened and
     * closed at the server's counts ({@link #openWindowAt}, {@link #closeWindowAt}); latency is timed by
     * source timestamps, not by send times.
     */
    static WriteSequence serverSide(long base, int slots) {
        WriteSequence values = new WriteSequence(base, slots, 2, true);
        values.published = (1L << 53) - 1; // no Double value above: every value is "sent"
        return values;
    }

    private WriteSequence(long base, int slots, int ringSize, boolean serverSide) {
        if (base < 0 || base >= 1L << 52) {
            throw new IllegalArgumentException("base must be 0 .. 2^52, was " + base);
        }
        if (slots < 1) {
            throw new IllegalArgumentException("slots must be at least 1, was " + slots);
        }
        this.base = base;
        this.slots = slots;
        int size = Integer.highestOneBit(Math.max(2, ringSize - 1)) << 1;
        this.sentNanos = new long[size];
        this.mask = size - 1;
        this.published = base;
        this.serverSide = serverSide;
    }

    /** Whether the server sets the values itself (see {@link #serverSide}). */
    boolean isServerSide() {
        return serverSide;
    }

    long base() {
        return base;
    }

    int slots() {
        return slots;
    }

    /** The variable (its index) value {@code w} is written to. */
    int slotOf(long w) {
        return (int) ((w - base) % slots);
    }

    /** The number of the write to its variable that value {@code w} is: 0 for the variable's first. */
    int roundOf(long w) {
        return (int) ((w - base) / slots);
    }

    /** The end of the values sent so far (exclusive): the next value the writer assigns. */
    long published() {
        return published;
    }

    /** Writer thread only: values {@code [from, to)} are about to be sent, at {@code nanos}. */
    void sent(long from, long to, long nanos) {
        for (long w = from; w < to; w++) {
            sentNanos[(int) (w & mask)] = nanos;
        }
        published = to;
    }

    /** Whether {@code w} is a value of this run the writer has sent. */
    boolean isValue(long w) {
        return w >= base && w < published;
    }

    /** When value {@code w} was sent ({@link System#nanoTime()}), or -1 if it is not timed (any more). */
    long sentNanos(long w) {
        long end = published;
        if (w < base || w >= end || end - w > mask) {
            return -1;
        }
        return sentNanos[(int) (w & mask)];
    }

    /** Values {@code [from, to)} were not written (the Write failed); they are expected by nobody. */
    void failed(long from, long to) {
        synchronized (failed) {
            failed.add(new long[] {from, to});
        }
    }

    /** Opens the measurement window at the current end of the sequence. */
    void openWindow() {
        windowFrom = published;
    }

    /** Server side: opens the window at the server's count of values set: value {@code base + count} is its first. */
    void openWindowAt(long count) {
        windowFrom = base + count;
    }

    /** Server side: closes the window at the server's count of values set. */
    void closeWindowAt(long count) {
        windowTo = base + count;
    }

    /** Closes the measurement window at the current end of the sequence. */
    void closeWindow() {
        windowTo = published;
    }

    /**
     * 1 when value {@code w} (at least 0) was sent inside the measurement window, else 0, computed without a
     * branch: a listener's branch first taken when the window opens would make the JIT deoptimize the
     * client's code it is inlined into, inside the window.
     */
    int windowIndex(long w) {
        // sign bits: windowFrom - 1 - w < 0 when w >= windowFrom, w - windowTo < 0 when w < windowTo
        return (int) (((windowFrom - 1 - w) & (w - windowTo)) >>> 63);
    }

    long windowFrom() {
        return windowFrom;
    }

    long windowTo() {
        return windowTo;
    }

    /** Rounds of {@code slot} below value {@code end}: the round of its first value at or above {@code end}. */
    int roundsBefore(int slot, long end) {
        long offset = end - base - slot;
        return offset <= 0 ? 0 : (int) ((offset - 1) / slots + 1);
    }

    /** Values of {@code slot} in the window that were written, not failed: what an item on it should get. */
    long expected(int slot) {
        long from = windowFrom;
        long to = windowTo;
        long count = count(slot, from, to);
        synchronized (failed) {
            for (long[] range : failed) {
                long a = Math.max(from, range[0]);
                long b = Math.min(to, range[1]);
                if (a < b) {
                    count -= count(slot, a, b);
                }
            }
        }
        return count;
    }

    /** Values of {@code slot} in {@code [from, to)}. */
    long count(int slot, long from, long to) {
        return to <= from ? 0 : roundsBefore(slot, to) - roundsBefore(slot, from);
    }
}
