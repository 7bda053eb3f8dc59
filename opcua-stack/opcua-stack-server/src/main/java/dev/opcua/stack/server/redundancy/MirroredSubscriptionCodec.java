package dev.opcua.stack.server.redundancy;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.binary.UaDecoder;
import dev.opcua.stack.core.encoding.binary.UaEncoder;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.structured.NotificationMessage;
import dev.opcua.stack.server.subscriptions.durable.DurableRecordCodec;
import dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionRecord;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A mirrored subscription in the parts a {@link SessionStateStore} keeps apart, so that each is written only when it
 * changes ({@link SubscriptionChanges}):
 *
 * <ul>
 *   <li>the <em>definition</em>: the subscription's parameters, owner and monitored items without their queues, as
 *       {@link DurableRecordCodec} bytes of the record {@link #definitionOf} strips (one subscription format wherever
 *       a subscription is kept); it changes with CreateMonitoredItems, ModifySubscription and the like;</li>
 *   <li>the <em>counters</em>: the next sequence number and the end of the lifetime, two numbers;</li>
 *   <li>the <em>queues</em>: each item's queued values and the last value it queued (against which a partner's first
 *       sample is compared; written as a Byte flag when it is the last of the queue), in UA Binary (Part 6, 5.2)
 *       after a format version (Int32, now 1);</li>
 *   <li>the <em>messages</em>: each sent, unacknowledged NotificationMessage (Part 4, 7.26) by its sequence number,
 *       appended when sent and deleted when acknowledged.</li>
 * </ul>
 *
 * {@link #assemble} makes the {@link DurableSubscriptionRecord} a partner restores from them. Stateless and
 * thread-safe.
 */
public final class MirroredSubscriptionCodec {

    /** The format of the queues written; a different one is refused on reading. */
    public static final int QUEUES_VERSION = 1;
    /** How an item's last value is written: none, the last queued value (not written again), or following. */
    private static final short NO_LAST = 0;
    private static final short LAST_QUEUED = 1;
    private static final short LAST_FOLLOWS = 2;
    /** Sequence numbers run 1..4294967295 and then start at 1 again (Part 4, 7.26). */
    private static final long SEQUENCE_CYCLE = 0xFFFF_FFFFL;

    private MirroredSubscriptionCodec() {
    }

    /** What of one item's queue the queues part keeps. */
    public record ItemQueue(long monitoredItemId, List<DataValue> queuedValues, DataValue lastValue,
            List<Variant[]> queuedEvents) {
    }

    /**
     * The record without what changes with every notification: no counters (0), no messages, items without queues
     * and last values. Equal records have equal definitions, so the mirror compares these, not bytes.
     */
    public static DurableSubscriptionRecord definitionOf(DurableSubscriptionRecord r) {
        List<DurableSubscriptionRecord.Item> items = new ArrayList<>(r.items().size());
        for (DurableSubscriptionRecord.Item i : r.items()) {
            items.add(new DurableSubscriptionRecord.Item(i.monitoredItemId(), i.clientHandle(), i.itemToMonitor(),
                    i.mode(), i.samplingInterval(), i.queueSize(), i.discardOldest(), i.filter(), i.timestamps(),
                    i.event(), List.of(), null, List.of()));
        }
        return new DurableSubscriptionRecord(r.subscriptionId(), r.owner(), r.publishingInterval(), r.lifetimeCount(),
                r.maxKeepAliveCount(), r.maxNotificationsPerPublish(), r.priority(), r.publishingEnabled(),
                r.durableLifetimeHours(), 0, 0, List.of(), items);
    }

    /** The queues of the record's items, in item order. */
    public static List<ItemQueue> queuesOf(DurableSubscriptionRecord r) {
        List<ItemQueue> queues = new ArrayList<>(r.items().size());
        for (DurableSubscriptionRecord.Item i : r.items()) {
            queues.add(new ItemQueue(i.monitoredItemId(), i.queuedValues(), i.lastValue(), i.queuedEvents()));
        }
        return queues;
    }

    public static byte[] encodeDefinition(DurableSubscriptionRecord definition) {
        return DurableRecordCodec.encode(definition);
    }

    /** The definition part as written by {@link #encodeDefinition}: items without queues, no counters. */
    public static DurableSubscriptionRecord decodeDefinition(byte[] definition) {
        return DurableRecordCodec.decode(definition);
    }

    public static byte[] encodeQueues(List<ItemQueue> queues) {
        return encode(512, e -> {
            e.writeInt32(null, QUEUES_VERSION);
            e.writeInt32(null, queues.size());
            for (ItemQueue queue : queues) {
                e.writeUInt32(null, queue.monitoredItemId());
                e.writeInt32(null, queue.queuedValues().size());
                for (DataValue value : queue.queuedValues()) {
                    e.writeDataValue(null, value);
                }
                List<DataValue> values = queue.queuedValues();
                DataValue last = queue.lastValue();
                if (last == null) {
                    e.writeByte(null, NO_LAST);
                } else if (!values.isEmpty() && last.equals(values.get(values.size() - 1))) {
                    e.writeByte(null, LAST_QUEUED); // the usual case under load: not written twice
                } else {
                    e.writeByte(null, LAST_FOLLOWS);
                    e.writeDataValue(null, last);
                }
                e.writeInt32(null, queue.queuedEvents().size());
                for (Variant[] fields : queue.queuedEvents()) {
                    e.writeVariantArray(null, fields);
                }
            }
        });
    }

    /** @throws IllegalArgumentException for another format version */
    public static List<ItemQueue> decodeQueues(byte[] bytes) {
        return decode(bytes, d -> {
            int version = d.readInt32(null);
            if (version != QUEUES_VERSION) {
                throw new IllegalArgumentException("mirrored item queues of format " + version + ", this server reads "
                        + QUEUES_VERSION);
            }
            int count = d.readInt32(null);
            List<ItemQueue> queues = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                long id = d.readUInt32(null);
                int valueCount = d.readInt32(null);
                List<DataValue> values = new ArrayList<>(valueCount);
                for (int k = 0; k < valueCount; k++) {
                    values.add(d.readDataValue(null));
                }
                short lastKind = d.readByte(null);
                DataValue last = switch (lastKind) {
                    case NO_LAST -> null;
                    case LAST_QUEUED -> values.isEmpty() ? null : values.get(values.size() - 1);
                    case LAST_FOLLOWS -> d.readDataValue(null);
                    default -> throw new IllegalArgumentException("mirrored item queue " + id
                            + " with an unknown kind of last value " + lastKind);
                };
                int eventCount = d.readInt32(null);
                List<Variant[]> events = new ArrayList<>(eventCount);
                for (int k = 0; k < eventCount; k++) {
                    events.add(d.readVariantArray(null));
                }
                queues.add(new ItemQueue(id, values, last, events));
            }
            return queues;
        });
    }

    public static byte[] encodeMessage(NotificationMessage message) {
        return encode(256, e -> e.writeStruct(null, message, NotificationMessage.CODEC));
    }

    public static NotificationMessage decodeMessage(byte[] bytes) {
        return decode(bytes, d -> d.readStruct(null, NotificationMessage.CODEC));
    }

    /**
     * The subscription a partner restores from its stored parts.
     *
     * @param messages the unacknowledged messages' bytes in any order: they are put oldest first by their sequence
     *        numbers as counted back from {@code nextSequenceNumber}, so a wrap from 4294967295 to 1 keeps the order
     */
    public static DurableSubscriptionRecord assemble(byte[] definition, long nextSequenceNumber, long expiresAtMillis,
            byte[] queues, List<byte[]> messages) {
        DurableSubscriptionRecord d = decodeDefinition(definition);
        Map<Long, ItemQueue> byItem = new HashMap<>();
        if (queues != null) {
            for (ItemQueue queue : decodeQueues(queues)) {
                byItem.put(queue.monitoredItemId(), queue);
            }
        }
        List<DurableSubscriptionRecord.Item> items = new ArrayList<>(d.items().size());
        for (DurableSubscriptionRecord.Item i : d.items()) {
            ItemQueue q = byItem.get(i.monitoredItemId());
            items.add(q == null ? i : new DurableSubscriptionRecord.Item(i.monitoredItemId(), i.clientHandle(),
                    i.itemToMonitor(), i.mode(), i.samplingInterval(), i.queueSize(), i.discardOldest(), i.filter(),
                    i.timestamps(), i.event(), q.queuedValues(), q.lastValue(), q.queuedEvents()));
        }
        List<NotificationMessage> retransmission = new ArrayList<>(messages.size());
        for (byte[] message : messages) {
            retransmission.add(decodeMessage(message));
        }
        retransmission.sort(Comparator.comparingLong(m -> age(m.sequenceNumber(), nextSequenceNumber)));
        return new DurableSubscriptionRecord(d.subscriptionId(), d.owner(), d.publishingInterval(), d.lifetimeCount(),
                d.maxKeepAliveCount(), d.maxNotificationsPerPublish(), d.priority(), d.publishingEnabled(),
                d.durableLifetimeHours(), expiresAtMillis, nextSequenceNumber, retransmission, items);
    }

    /** Minus how far before the next sequence number this one was sent, modulo the cycle: smaller is older. */
    private static long age(long sequenceNumber, long next) {
        return -Math.floorMod(next - sequenceNumber, SEQUENCE_CYCLE);
    }

    private static byte[] encode(int initialCapacity, Consumer<UaEncoder> body) {
        ByteBuf buf = Unpooled.buffer(initialCapacity);
        try {
            body.accept(new UaEncoder(CodecRegistry.standard(), buf));
            byte[] bytes = new byte[buf.readableBytes()];
            buf.readBytes(bytes);
            return bytes;
        } finally {
            buf.release();
        }
    }

    private static <T> T decode(byte[] bytes, Function<UaDecoder, T> body) {
        ByteBuf buf = Unpooled.wrappedBuffer(bytes);
        try {
            return body.apply(new UaDecoder(CodecRegistry.standard(), EncodingLimits.DEFAULT, buf));
        } finally {
            buf.release();
        }
    }
}
