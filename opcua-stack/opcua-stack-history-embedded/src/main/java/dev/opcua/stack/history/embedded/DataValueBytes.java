package dev.opcua.stack.history.embedded;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.binary.UaDecoder;
import dev.opcua.stack.core.encoding.binary.UaEncoder;
import dev.opcua.stack.core.types.builtin.DataValue;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * A DataValue as stored: its UA Binary encoding (Part 6, 5.2.2.17), so that any value the stack can send
 * is kept as it was, structures included. Not thread-safe: one instance per thread.
 */
final class DataValueBytes {

    private final CodecRegistry registry = CodecRegistry.standard();
    private final ByteBuf buffer = Unpooled.buffer(128);
    private final UaEncoder encoder = new UaEncoder(registry);

    byte[] encode(DataValue value) {
        buffer.clear();
        encoder.setBuffer(buffer);
        try {
            encoder.writeDataValue("Value", value);
        } finally {
            encoder.setBuffer(null);
        }
        byte[] bytes = new byte[buffer.readableBytes()];
        buffer.readBytes(bytes);
        return bytes;
    }

    static DataValue decode(byte[] bytes) {
        ByteBuf wrapped = Unpooled.wrappedBuffer(bytes);
        UaDecoder decoder = new UaDecoder(CodecRegistry.standard(), EncodingLimits.DEFAULT, wrapped);
        return decoder.readDataValue("Value");
    }
}
