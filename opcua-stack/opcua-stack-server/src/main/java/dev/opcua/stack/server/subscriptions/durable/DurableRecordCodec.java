package dev.opcua.stack.server.subscriptions.durable;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.binary.UaDecoder;
import dev.opcua.stack.core.encoding.binary.UaEncoder;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.MonitoringMode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.core.types.structured.NotificationMessage;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.server.session.Identity;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;

/**
 * The bytes of a {@link DurableSubscriptionRecord}: a format version (Int32, now 1), then the record's
 * fields in declaration order in UA Binary (Part 6, 5.2): NotificationMessages, ReadValueIds and DataValues
 * with their codecs, the filter as an ExtensionObject, event fields as Variant arrays, lists as an Int32 count
 * and their elements. Stateless and thread-safe.
 */
public final class DurableRecordCodec {

    /** The format written; a different one is refused on reading. */
    public static final int VERSION = 1;

    private DurableRecordCodec() {
    }

    public static byte[] encode(DurableSubscriptionRecord record) {
        ByteBuf buf = Unpooled.buffer(256);
        try {
            UaEncoder e = new UaEncoder(CodecRegistry.standard(), buf);
            e.writeInt32(null, VERSION);
            e.writeUInt32(null, record.subscriptionId());
            Identity owner = record.owner();
            e.writeInt32(null, owner.tokenType().value());
            e.writeString(null, owner.userName());
            e.writeString(null, owner.certificateThumbprint());
            e.writeDouble(null, record.publishingInterval());
            e.writeInt64(null, record.lifetimeCount());
            e.writeInt64(null, record.maxKeepAliveCount());
            e.writeInt32(null, record.maxNotificationsPerPublish());
            e.writeInt16(null, record.priority());
            e.writeBoolean(null, record.publishingEnabled());
            e.writeInt64(null, record.durableLifetimeHours());
            e.writeInt64(null, record.expiresAtMillis());
            e.writeInt64(null, record.nextSequenceNumber());
            e.writeInt32(null, record.retransmission().size());
            for (NotificationMessage message : record.retransmission()) {
                e.writeStruct(null, message, NotificationMessage.CODEC);
            }
            e.writeInt32(null, record.items().size());
            for (DurableSubscriptionRecord.Item item : record.items()) {
                e.writeUInt32(null, item.monitoredItemId());
                e.writeUInt32(null, item.clientHandle());
                e.writeStruct(null, item.itemToMonitor(), ReadValueId.CODEC);
                e.writeInt32(null, item.mode().value());
                e.writeDouble(null, item.samplingInterval());
                e.writeInt32(null, item.queueSize());
                e.writeBoolean(null, item.discardOldest());
                e.writeExtensionObject(null, item.filter());
                e.writeInt32(null, item.timestamps().value());
                e.writeBoolean(null, item.event());
                e.writeInt32(null, item.queuedValues().size());
                for (DataValue value : item.queuedValues()) {
                    e.writeDataValue(null, value);
                }
                e.writeBoolean(null, item.lastValue() != null);
                if (item.lastValue() != null) {
                    e.writeDataValue(null, item.lastValue());
                }
                e.writeInt32(null, item.queuedEvents().size());
                for (Variant[] fields : item.queuedEvents()) {
                    e.writeVariantArray(null, fields);
                }
            }
            byte[] bytes = new byte[buf.readableBytes()];
            buf.readBytes(bytes);
            return bytes;
        } finally {
            buf.release();
        }
    }

    /** @throws IllegalArgumentException for another format version */
    public static DurableSubscriptionRecord decode(byte[] bytes) {
        ByteBuf buf = Unpooled.wrappedBuffer(bytes);
        try {
            UaDecoder d = new UaDecoder(CodecRegistry.standard(), EncodingLimits.DEFAULT, buf);
            int version = d.readInt32(null);
            if (version != VERSION) {
                throw new IllegalArgumentException("durable subscription record of format " + version
                        + ", this server reads " + VERSION);
            }
            long id = d.readUInt32(null);
            Identity owner = new Identity(UserTokenType.fromValue(d.readInt32(null)), d.readString(null),
                    d.readString(null));
            double interval = d.readDouble(null);
            long lifetime = d.readInt64(null);
            long keepAlive = d.readInt64(null);
            int maxNotifications = d.readInt32(null);
            short priority = d.readInt16(null);
            boolean enabled = d.readBoolean(null);
            long hours = d.readInt64(null);
            long expiresAt = d.readInt64(null);
            long next = d.readInt64(null);
            int messages = d.readInt32(null);
            List<NotificationMessage> retransmission = new ArrayList<>(messages);
            for (int i = 0; i < messages; i++) {
                retransmission.add(d.readStruct(null, NotificationMessage.CODEC));
            }
            int itemCount = d.readInt32(null);
            List<DurableSubscriptionRecord.Item> items = new ArrayList<>(itemCount);
            for (int i = 0; i < itemCount; i++) {
                long itemId = d.readUInt32(null);
                long handle = d.readUInt32(null);
                ReadValueId itemToMonitor = d.readStruct(null, ReadValueId.CODEC);
                MonitoringMode mode = MonitoringMode.fromValue(d.readInt32(null));
                double sampling = d.readDouble(null);
                int queueSize = d.readInt32(null);
                boolean discardOldest = d.readBoolean(null);
                var filter = d.readExtensionObject(null);
                TimestampsToReturn timestamps = TimestampsToReturn.fromValue(d.readInt32(null));
                boolean event = d.readBoolean(null);
                int valueCount = d.readInt32(null);
                List<DataValue> values = new ArrayList<>(valueCount);
                for (int k = 0; k < valueCount; k++) {
                    values.add(d.readDataValue(null));
                }
                DataValue last = d.readBoolean(null) ? d.readDataValue(null) : null;
                int eventCount = d.readInt32(null);
                List<Variant[]> events = new ArrayList<>(eventCount);
                for (int k = 0; k < eventCount; k++) {
                    events.add(d.readVariantArray(null));
                }
                items.add(new DurableSubscriptionRecord.Item(itemId, handle, itemToMonitor, mode, sampling, queueSize,
                        discardOldest, filter, timestamps, event, values, last, events));
            }
            return new DurableSubscriptionRecord(id, owner, interval, lifetime, keepAlive, maxNotifications, priority,
                    enabled, hours, expiresAt, next, retransmission, items);
        } finally {
            buf.release();
        }
    }
}
