package dev.opcua.benchmarks.load;

import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.structured.EventFieldList;
import dev.opcua.stack.core.types.structured.MonitoredItemNotification;
import java.time.Instant;
import java.util.BitSet;

/**
 * What one subscription's data change notifications (Part 4, 7.20.2) or event notifications (Part 4,
 * 7.20.3, the number in the Message) delivered: per monitored item (its clientHandle is its index) the
 * writer's values it received, as the rounds of its slot (see {@link WriteSequence}), and the latency
 * from write sent to notification received of each value of the window when it first arrives. Publish
 * responses of a session complete on several threads, possibly out of order: the rounds are a set,
 * not a high-water mark, and one lock per subscription guards them (no lock is shared between
 * subscriptions).
 */
final class SubscriptionTally {

    private final long subscriptionId;
    private final int[] slots;
    private final BitSet[] received;
    private final WriteSequence values;
    private final LatencyHistogram latency = new LatencyHistogram();
    /** Indexed by {@link WriteSequence#windowIndex}: values outside the window are timed into a discarded one. */
    private final LatencyHistogram[] byWindow = {new LatencyHistogram(), latency};
    private long foreign;
    /** Values an item received again (a value it had already been notified of). */
    private long duplicates;
    /** Sequence numbers of the NotificationMessages received (not keep-alives, which carry the next one). */
    private final BitSet sequenceNumbers = new BitSet();
    private long maxSequenceNumber;

    /**
     * @param slots per clientHandle, the variable (slot of {@code values}) the item monitors
     */
    SubscriptionTally(long subscriptionId, int[] slots, WriteSequence values) {
        this.subscriptionId = subscriptionId;
        this.slots = slots;
        this.values = values;
        this.received = new BitSet[slots.length];
        for (int i = 0; i < slots.length; i++) {
            received[i] = new BitSet();
        }
    }

    long subscriptionId() {
        return subscriptionId;
    }

    int items() {
        return slots.length;
    }

    /**
     * Records the notifications of one DataChangeNotification received at {@code nowNanos}
     * ({@link System#nanoTime()}) and {@code epochNanos} (wall clock, for values timed by their source
     * timestamp, see {@link WriteSequence#isServerSide()}).
     */
    synchronized void recordDataChanges(MonitoredItemNotification[] notifications, long nowNanos, long epochNanos) {
        boolean bySource = values.isServerSide();
        for (MonitoredItemNotification n : notifications) {
            DataValue dv = n.value();
            if (bySource) {
                DateTime source = dv == null ? null : dv.sourceTimestamp();
                long sentEpochNanos = source == null ? -1 : epochNanos(source.toInstant());
                record(n.clientHandle(), value(dv), epochNanos, sentEpochNanos);
            } else {
                record(n.clientHandle(), value(dv), nowNanos);
            }
        }
    }

    static long epochNanos(Instant instant) {
        return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
    }

    /** Ticks of 100 ns since 1601 (an OPC UA DateTime, Part 6, 5.2.2.5) as nanoseconds since 1970; -1 for 0. */
    static long epochNanosOfTicks(long utcTicks) {
        return utcTicks <= 0 ? -1 : (utcTicks - TICKS_1601_TO_1970) * 100;
    }

    private static final long TICKS_1601_TO_1970 = 116_444_736_000_000_000L;

    /**
     * Records one value a client's listener received for item {@code index} (its index in the slots, not a
     * clientHandle) at {@code nowNanos} ({@link System#nanoTime()}) and {@code epochNanos} (wall clock):
     * {@code w} is the writer's number the value carries (see {@link #writerValue}), {@code sourceEpochNanos}
     * its source timestamp (-1 when it has none), used for values the server changes itself.
     */
    synchronized void recordValue(int index, long w, long nowNanos, long epochNanos, long sourceEpochNanos) {
        if (values.isServerSide()) {
            record(index, w, epochNanos, sourceEpochNanos);
        } else {
            record(index, w, nowNanos);
        }
    }

    /** The writer's number a value carries (a whole Double), or -1. */
    static long writerValue(Object value) {
        if (!(value instanceof Double d)) {
            return -1;
        }
        long w = (long) d.doubleValue();
        return w == d ? w : -1;
    }

    /** Records the events of one EventNotificationList received at {@code nowNanos}; the Message is the number. */
    synchronized void recordEvents(EventFieldList[] events, long nowNanos) {
        for (EventFieldList event : events) {
            record(event.clientHandle(), number(ItemRequests.message(event)), nowNanos);
        }
    }

    private void record(long handle, long w, long nowNanos) {
        record(handle, w, nowNanos, w < 0 ? -1 : values.sentNanos(w));
    }

    /** Records value {@code w} of item {@code handle}, timed from {@code sentNanos} (-1: untimed) to now. */
    private void record(long handle, long w, long nowNanos, long sentNanos) {
        if (handle < 0 || handle >= slots.length || w < 0 || !values.isValue(w)
                || values.slotOf(w) != slots[(int) handle]) {
            // the variable's value before the writer started, another server event, or another run's
            foreign++;
            return;
        }
        BitSet rounds = received[(int) handle];
        int round = values.roundOf(w);
        if (rounds.get(round)) {
            duplicates++;
            return;
        }
        rounds.set(round);
        if (sentNanos >= 0) {
            // a source timestamp may be a little ahead of the receiver's clock reading: never negative
            byWindow[values.windowIndex(w)].record(Math.max(0, nowNanos - sentNanos));
        }
    }

    /** The writer's value a notification carries, or -1 when it carries none (another value, a bad status). */
    private static long value(DataValue dv) {
        return dv == null || dv.value() == null ? -1 : writerValue(dv.value().value());
    }

    /** The number an event's Message carries, or -1. */
    private static long number(String message) {
        if (message == null || message.isEmpty() || message.length() > 18) {
            return -1;
        }
        for (int i = 0; i < message.length(); i++) {
            if (message.charAt(i) < '0' || message.charAt(i) > '9') {
                return -1;
            }
        }
        return Long.parseLong(message);
    }

    /** Distinct values of the window the items received (call once the sessions have stopped). */
    synchronized long delivered() {
        long total = 0;
        for (int i = 0; i < slots.length; i++) {
            total += deliveredTo(i);
        }
        return total;
    }

    /** Distinct values of the window item {@code i} received. */
    private int deliveredTo(int i) {
        int from = values.roundsBefore(slots[i], values.windowFrom());
        int to = values.roundsBefore(slots[i], values.windowTo());
        return from < to ? received[i].get(from, to).cardinality() : 0;
    }

    /** Items that received fewer of the window's values than their variables took (call once stopped). */
    synchronized int itemsShort() {
        int count = 0;
        for (int i = 0; i < slots.length; i++) {
            if (deliveredTo(i) < values.expected(slots[i])) {
                count++;
            }
        }
        return count;
    }

    /** Values items received more than once. */
    synchronized long duplicates() {
        return duplicates;
    }

    /** Values of the window written to the items' variables: what they should have received. */
    long expected() {
        long total = 0;
        for (int slot : slots) {
            total += values.expected(slot);
        }
        return total;
    }

    /**
     * Records the sequence number of a NotificationMessage with notifications (Part 4, 7.25: a subscription
     * numbers its messages 1, 2, 3 ...; a keep-alive carries the next number without using it).
     */
    synchronized void recordSequenceNumber(long sequenceNumber) {
        if (sequenceNumber < 1 || sequenceNumber > Integer.MAX_VALUE) {
            foreign++;
            return;
        }
        sequenceNumbers.set((int) sequenceNumber);
        maxSequenceNumber = Math.max(maxSequenceNumber, sequenceNumber);
    }

    /** Messages with notifications received, each sequence number counted once. */
    synchronized long messages() {
        return sequenceNumbers.cardinality();
    }

    /** Sequence numbers missing between 1 and the highest received: messages lost. */
    synchronized long sequenceGaps() {
        return maxSequenceNumber - sequenceNumbers.cardinality();
    }

    /** Notifications with a value that is not one of the writer's (initial values, earlier runs). */
    synchronized long foreign() {
        return foreign;
    }

    synchronized void addLatencyTo(LatencyHistogram into) {
        into.add(latency);
    }
}
