package dev.opcua.stack.server.subscriptions;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.binary.UaEncoder;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.structured.EventFieldList;
import dev.opcua.stack.core.types.structured.MonitoredItemNotification;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * Upper bounds of the UA Binary size of notifications (Part 6, 5.2), so that a publishing cycle can stop
 * filling a NotificationMessage before the Publish response exceeds what the client accepts. Scalars of a
 * fixed size, strings and byte strings are bounded from their length without encoding (a String counts
 * three bytes a character, the most UTF-8 needs for a char); anything else (arrays, structures, names) is
 * encoded once to measure it.
 */
final class NotificationSizes {

    /** ClientHandle of a MonitoredItemNotification or an EventFieldList. */
    private static final int CLIENT_HANDLE = 4;
    /** A DataValue with every optional field: mask, StatusCode, two timestamps and their picoseconds. */
    private static final int DATA_VALUE_FIELDS = 1 + 4 + 8 + 2 + 8 + 2;
    /** Length of an array or a string. */
    private static final int LENGTH = 4;
    /** Used where measuring fails (a structure without a codec here): the encoder will tell. */
    private static final int UNMEASURABLE = 1024;

    private static final ThreadLocal<UaEncoder> SCRATCH = ThreadLocal.withInitial(
            () -> new UaEncoder(CodecRegistry.standard(), Unpooled.buffer(256)));

    private NotificationSizes() {
    }

    static int of(MonitoredItemNotification notification) {
        DataValue value = notification.value();
        return CLIENT_HANDLE + DATA_VALUE_FIELDS + (value == null ? 0 : of(value.value()));
    }

    static int of(EventFieldList event) {
        int size = CLIENT_HANDLE + LENGTH;
        Variant[] fields = event.eventFields();
        if (fields != null) {
            for (Variant field : fields) {
                size += of(field);
            }
        }
        return size;
    }

    /** A Variant: its encoding byte and its value. */
    static int of(Variant variant) {
        if (variant == null || variant.isNull()) {
            return 1;
        }
        if (!variant.isArray()) {
            Object value = variant.value();
            switch (variant.type()) {
                case Boolean, SByte, Byte:
                    return 1 + 1;
                case Int16, UInt16:
                    return 1 + 2;
                case Int32, UInt32, Float, StatusCode:
                    return 1 + 4;
                case Int64, UInt64, Double, DateTime:
                    return 1 + 8;
                case Guid:
                    return 1 + 16;
                case String:
                    return 1 + LENGTH + (value == null ? 0 : 3 * ((String) value).length());
                case ByteString:
                    return 1 + LENGTH + (value == null ? 0 : Math.max(0, ((ByteString) value).length()));
                default:
                    break;
            }
        }
        return measured(variant);
    }

    private static int measured(Variant variant) {
        UaEncoder encoder = SCRATCH.get();
        ByteBuf buf = encoder.buffer();
        buf.clear();
        try {
            encoder.writeVariant(null, variant);
            return buf.writerIndex();
        } catch (RuntimeException e) {
            return UNMEASURABLE;
        } finally {
            if (buf.capacity() > 64 * 1024) {
                encoder.setBuffer(Unpooled.buffer(256)); // a large value once is not kept
            } else {
                buf.clear();
            }
        }
    }
}
