package dev.opcua.stack.server.history;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.binary.UaDecoder;
import dev.opcua.stack.core.encoding.binary.UaEncoder;
import dev.opcua.stack.core.types.builtin.DataValue;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * A DataValue as a {@link HistoryStore} keeps it: the bytes of its UA Binary encoding (Part 6, 5.2.2.17), so that
 * value, status, both timestamps and picoseconds come back exactly as they were, whatever the value's type,
 * structures included.
 *
 * <p>An instance encodes into one buffer it reuses, so that a store's writer allocates only the bytes it keeps: it
 * is not thread-safe, one instance per writing thread. {@link #decode} is static and thread-safe.
 */
public final class DataValueBytes {

    /**
     * The bytes are the store's own, written by {@link #encode}, not a peer's: strings, byte strings and arrays as
     * long as Java allows, nesting as deep as the stack's default decoding limits accept from a peer.
     */
    private static final EncodingLimits LIMITS = new EncodingLimits(Integer.MAX_VALUE, Integer.MAX_VALUE,
            Integer.MAX_VALUE, EncodingLimits.DEFAULT.maxNestingDepth());

    private final ByteBuf buffer = Unpooled.buffer(128);
    private final UaEncoder encoder = new UaEncoder(CodecRegistry.standard());

    /** The value's bytes, a new array of exactly their length. */
    public byte[] encode(DataValue value) {
        buffer.clear();
        encoder.setBuffer(buffer);
        try {
            encoder.writeDataValue(null, value);
        } finally {
            encoder.setBuffer(null);
        }
        byte[] bytes = new byte[buffer.readableBytes()];
        buffer.readBytes(bytes);
        return bytes;
    }

    /** The value that {@link #encode} turned into {@code bytes}. */
    public static DataValue decode(byte[] bytes) {
        return new UaDecoder(CodecRegistry.standard(), LIMITS, Unpooled.wrappedBuffer(bytes)).readDataValue(null);
    }
}
