package dev.opcua.stack.server.subscriptions.durable;

import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.MonitoringMode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.NotificationMessage;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.server.session.Identity;
import java.util.List;
import java.util.Objects;

/**
 * What a {@link DurableSubscriptionStore} keeps of one durable subscription (Part 4, 6.8) so that it can
 * outlive a server restart: its parameters, its owner (what TransferSubscriptions compares), its sequence
 * numbering and unacknowledged NotificationMessages, and every monitored item with its queued notifications
 * in order. Immutable; encoded by {@link DurableRecordCodec}.
 *
 * @param subscriptionId the SubscriptionId, kept across the restart
 * @param owner the identity of the session that last held it
 * @param publishingInterval the revised publishing interval in milliseconds
 * @param lifetimeCount the revised lifetimeCount
 * @param maxKeepAliveCount the revised maxKeepAliveCount
 * @param maxNotificationsPerPublish the revised maximum, 0 for none
 * @param priority the relative priority
 * @param publishingEnabled the publishing mode
 * @param durableLifetimeHours the revised lifetime of SetSubscriptionDurable
 * @param expiresAtMillis wall-clock time (ms since 1970) at which its lifetime ends if nobody takes it
 * @param nextSequenceNumber the sequence number its next NotificationMessage takes: after a clean close the
 *        exact next one; in a periodic snapshot one past a reservation (see {@link #withSequenceReservation})
 * @param retransmission its unacknowledged NotificationMessages, oldest first
 * @param items its monitored items
 */
public record DurableSubscriptionRecord(long subscriptionId, Identity owner, double publishingInterval,
        long lifetimeCount, long maxKeepAliveCount, int maxNotificationsPerPublish, short priority,
        boolean publishingEnabled, long durableLifetimeHours, long expiresAtMillis, long nextSequenceNumber,
        List<NotificationMessage> retransmission, List<Item> items) {

    public DurableSubscriptionRecord {
        Objects.requireNonNull(owner, "owner");
        retransmission = List.copyOf(retransmission);
        items = List.copyOf(items);
    }

    /** The fewest sequence numbers a periodic snapshot reserves (see {@link #sequenceReservation}). */
    public static final long MIN_SEQUENCE_RESERVATION = 1000;
    /** Sequence numbers run 1..4294967295 and then start at 1 again (Part 4, 7.26 NotificationMessage). */
    private static final long SEQUENCE_CYCLE = 0xFFFF_FFFFL;

    /**
     * This record as a periodic snapshot stores it: the subscription numbers on from {@code reserved} past its
     * next sequence number, wrapping from 4294967295 to 1 (0 is never used). A server that crashes after the
     * snapshot has sent messages after it; the numbers of those may never be used again (Part 4, 5.14.1.1:
     * a sequence number is unique for the subscription; 7.26), so the restored subscription starts beyond all
     * of them. The client sees a gap, which it counts lost once Republish answers BadMessageNotAvailable (or
     * availableSequenceNumbers shows them absent).
     *
     * @param reserved sequence numbers the subscription may use before the next snapshot; at least 1
     */
    public DurableSubscriptionRecord withSequenceReservation(long reserved) {
        if (reserved < 1 || reserved >= SEQUENCE_CYCLE) {
            throw new IllegalArgumentException("reserved must be 1.." + (SEQUENCE_CYCLE - 1) + ": " + reserved);
        }
        long next = (nextSequenceNumber - 1 + reserved) % SEQUENCE_CYCLE + 1;
        return new DurableSubscriptionRecord(subscriptionId, owner, publishingInterval, lifetimeCount,
                maxKeepAliveCount, maxNotificationsPerPublish, priority, publishingEnabled, durableLifetimeHours,
                expiresAtMillis, next, retransmission, items);
    }

    /**
     * How many sequence numbers a periodic snapshot reserves (see {@link #withSequenceReservation}): four
     * snapshot periods' worth of publishing cycles, each with as many messages as a session may have Publish
     * requests parked (a late subscription answers each with one), and never fewer than
     * {@link #MIN_SEQUENCE_RESERVATION}. Messages beyond that between two snapshots (a store that fails its
     * saves for long, Publish requests answered faster than the cycles) may reuse numbers after a crash.
     *
     * @param publishingIntervalMillis the subscription's revised publishing interval
     * @param snapshotPeriodMillis how often a changed durable subscription is saved
     * @param messagesPerCycle the most NotificationMessages one publishing cycle sends
     */
    public static long sequenceReservation(double publishingIntervalMillis, long snapshotPeriodMillis,
            int messagesPerCycle) {
        double cycles = Math.ceil(4.0 * snapshotPeriodMillis / Math.max(1.0, publishingIntervalMillis));
        double reserved = cycles * Math.max(1, messagesPerCycle);
        return (long) Math.min(SEQUENCE_CYCLE / 2.0, Math.max(MIN_SEQUENCE_RESERVATION, reserved));
    }

    /**
     * One monitored item: its definition as revised, and its queue. A data-change item has
     * {@code queuedValues} (oldest first) and its {@code lastValue} (the last value queued, to recognise
     * the first sample after the restart); an event item has {@code queuedEvents}, each the selected fields
     * of one EventFieldList, and an EventFilter as {@code filter}.
     */
    public record Item(long monitoredItemId, long clientHandle, ReadValueId itemToMonitor, MonitoringMode mode,
            double samplingInterval, int queueSize, boolean discardOldest, ExtensionObject filter,
            TimestampsToReturn timestamps, boolean event, List<DataValue> queuedValues, DataValue lastValue,
            List<Variant[]> queuedEvents) {

        public Item {
            Objects.requireNonNull(itemToMonitor, "itemToMonitor");
            Objects.requireNonNull(mode, "mode");
            filter = filter == null ? ExtensionObject.NULL : filter;
            timestamps = timestamps == null ? TimestampsToReturn.Both : timestamps;
            queuedValues = List.copyOf(queuedValues);
            queuedEvents = List.copyOf(queuedEvents);
        }
    }
}
