package dev.opcua.stack.history.jdbc;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.binary.UaDecoder;
import dev.opcua.stack.core.encoding.binary.UaEncoder;
import dev.opcua.stack.core.types.builtin.DataValue;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * A stored value as the bytes of its UA Binary DataValue (Part 6, 5.2.2.17): value, status, both timestamps and
 * picoseconds kept exactly, whatever the value's type.
 */
final class DataValueBytes {

    /** The rows are ours, not a peer's: limits only as wide as Java arrays allow. */
    private static final EncodingLimits LIMITS =
            new EncodingLimits(Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE, 100);

    private final CodecRegistry registry;

    DataValueBytes(CodecRegistry registry) {
        this.registry = registry;
    }

    byte[] encode(DataValue value) {
        ByteBuf buf = Unpooled.buffer(32);
        try {
            new UaEncoder(registry, buf).writeDataValue(null, value);
            byte[] bytes = new byte[buf.readableBytes()];
            buf.readBytes(bytes);
            return bytes;
        } finally {
            buf.release();
        }
    }

    DataValue decode(byte[] bytes) {
        ByteBuf buf = Unpooled.wrappedBuffer(bytes);
        try {
            return new UaDecoder(registry, LIMITS, buf).readDataValue(null);
        } finally {
            buf.release();
        }
    }
}
