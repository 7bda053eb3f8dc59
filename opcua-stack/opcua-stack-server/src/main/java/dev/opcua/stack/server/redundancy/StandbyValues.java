package dev.opcua.stack.server.redundancy;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Completes a taken-over subscription's stored queues with what this server sampled while it stood by
 * ({@link StandbySampler}): per data item, the standby values newer than the newest value the stored state holds
 * for it (its queued values and the last value it queued), appended oldest first after the stored queue. The
 * restored item then queues them with its own queue size and discard policy (Part 4, 5.12.1.5: overflow marked as
 * for any value), and its first sample is compared with the last of them.
 *
 * <p>Which timestamp orders the values: the source timestamp when the item returns source timestamps (the Value
 * attribute with Source or Both: the servers of a set report the same device's timestamps, Part 4, 6.6.2.2), else
 * the server timestamp (each server's own clock: servers of a set keep their clocks synchronised). A standby value
 * without that timestamp is not appended; so an item whose stored state holds no timestamp at all (Neither, and
 * no last value) gets none. Event items keep their stored queues only. Stateless.
 */
final class StandbyValues {

    /** The info bits of a StatusCode (Part 4, 7.39.1): InfoType in bits 10 and 11, the bits in 0 to 9. */
    private static final int INFO_TYPE_MASK = 0x0C00;
    private static final int INFO_BITS_MASK = 0x03FF;

    private StandbyValues() {
    }

    /** What {@link #append} made of one subscription: the record to restore and the values it appended. */
    record Completed(DurableSubscriptionRecord record, int appended) {
    }

    /**
     * @param stored the subscription as the store holds it
     * @param standby this server's standby items of the subscription, by MonitoredItemId, with their queued values
     *        (sampled with both timestamps)
     */
    static Completed append(DurableSubscriptionRecord stored, List<DurableSubscriptionRecord.Item> standby) {
        Map<Long, List<DataValue>> sampled = new HashMap<>();
        for (DurableSubscriptionRecord.Item item : standby) {
            sampled.put(item.monitoredItemId(), item.queuedValues());
        }
        int appended = 0;
        List<DurableSubscriptionRecord.Item> items = new ArrayList<>(stored.items().size());
        for (DurableSubscriptionRecord.Item item : stored.items()) {
            List<DataValue> values = sampled.get(item.monitoredItemId());
            DurableSubscriptionRecord.Item completed = item.event() || values == null ? item : append(item, values);
            appended += completed.queuedValues().size() - item.queuedValues().size();
            items.add(completed);
        }
        if (appended == 0) {
            return new Completed(stored, 0);
        }
        return new Completed(new DurableSubscriptionRecord(stored.subscriptionId(), stored.owner(),
                stored.publishingInterval(), stored.lifetimeCount(), stored.maxKeepAliveCount(),
                stored.maxNotificationsPerPublish(), stored.priority(), stored.publishingEnabled(),
                stored.durableLifetimeHours(), stored.expiresAtMillis(), stored.nextSequenceNumber(),
                stored.retransmission(), items), appended);
    }

    /** The item with the standby values newer than its stored ones appended, stamped as the item returns them. */
    static DurableSubscriptionRecord.Item append(DurableSubscriptionRecord.Item item, List<DataValue> sampled) {
        boolean valueAttribute = item.itemToMonitor().attributeId() == AttributeIds.Value;
        TimestampsToReturn which = item.timestamps();
        boolean source = valueAttribute && (which == TimestampsToReturn.Source || which == TimestampsToReturn.Both);
        boolean server = which == TimestampsToReturn.Server || which == TimestampsToReturn.Both;
        DateTime newest = null;
        boolean storedAny = item.lastValue() != null || !item.queuedValues().isEmpty();
        for (DataValue value : item.queuedValues()) {
            newest = later(newest, orderOf(value, source));
        }
        if (item.lastValue() != null) {
            newest = later(newest, orderOf(item.lastValue(), source));
        }
        if (storedAny && newest == null) {
            return item; // nothing to order by: appending could repeat what the first server queued
        }
        List<DataValue> queue = new ArrayList<>(item.queuedValues());
        DataValue last = item.lastValue();
        for (DataValue value : sampled) {
            DateTime order = orderOf(value, source);
            if (order == null || (newest != null && order.compareTo(newest) <= 0)) {
                continue;
            }
            newest = order;
            last = withoutOverflow(value);
            queue.add(stamp(last, source, server));
        }
        if (queue.size() == item.queuedValues().size()) {
            return item;
        }
        return new DurableSubscriptionRecord.Item(item.monitoredItemId(), item.clientHandle(), item.itemToMonitor(),
                item.mode(), item.samplingInterval(), item.queueSize(), item.discardOldest(), item.filter(),
                item.timestamps(), false, queue, last, List.of());
    }

    private static DateTime orderOf(DataValue value, boolean bySource) {
        DateTime time = bySource ? value.sourceTimestamp() : value.serverTimestamp();
        return time == null || time.isNull() ? null : time;
    }

    private static DateTime later(DateTime a, DateTime b) {
        return a == null ? b : b == null || b.compareTo(a) <= 0 ? a : b;
    }

    /** The standby queue's own overflow is not the client's: its bit is cleared (and the InfoType with it). */
    private static DataValue withoutOverflow(DataValue value) {
        if (!value.statusCode().isOverflow()) {
            return value;
        }
        int code = value.statusCode().value() & ~StatusCode.OVERFLOW_BIT;
        if ((code & INFO_BITS_MASK) == 0) {
            code &= ~INFO_TYPE_MASK;
        }
        return DataValue.of(value.value(), StatusCode.of(code), value.sourceTimestamp(), value.sourcePicoseconds(),
                value.serverTimestamp(), value.serverPicoseconds());
    }

    /** Keeps the timestamps the item returns (Part 4, 7.40). */
    private static DataValue stamp(DataValue value, boolean source, boolean server) {
        return DataValue.of(value.value(), value.statusCode(), source ? value.sourceTimestamp() : null,
                source ? value.sourcePicoseconds() : 0, server ? value.serverTimestamp() : null,
                server ? value.serverPicoseconds() : 0);
    }
}
