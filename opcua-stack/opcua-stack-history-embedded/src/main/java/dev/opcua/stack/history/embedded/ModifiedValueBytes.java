package dev.opcua.stack.history.embedded;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.binary.UaDecoder;
import dev.opcua.stack.core.encoding.binary.UaEncoder;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.enumerated.HistoryUpdateType;
import dev.opcua.stack.core.types.structured.ModificationInfo;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * A modified value as stored: in UA Binary (Part 6, 5.2) the DataValue, then the modification's time (DateTime),
 * update type (Int32) and user name (String). Stateless and thread-safe.
 */
final class ModifiedValueBytes {

    private ModifiedValueBytes() {
    }

    static byte[] encode(DataValue value, ModificationInfo info) {
        ByteBuf buf = Unpooled.buffer(64);
        try {
            UaEncoder encoder = new UaEncoder(CodecRegistry.standard(), buf);
            encoder.writeDataValue(null, value);
            encoder.writeDateTime(null, info.modificationTime());
            encoder.writeInt32(null, info.updateType().value());
            encoder.writeString(null, info.userName());
            byte[] bytes = new byte[buf.readableBytes()];
            buf.readBytes(bytes);
            return bytes;
        } finally {
            buf.release();
        }
    }

    /** The value and its info: element 0 a DataValue, element 1 a ModificationInfo. */
    static Object[] decode(byte[] bytes) {
        ByteBuf buf = Unpooled.wrappedBuffer(bytes);
        try {
            UaDecoder decoder = new UaDecoder(CodecRegistry.standard(), EncodingLimits.DEFAULT, buf);
            DataValue value = decoder.readDataValue(null);
            ModificationInfo info = new ModificationInfo(decoder.readDateTime(null),
                    HistoryUpdateType.fromValue(decoder.readInt32(null)), decoder.readString(null));
            return new Object[] {value, info};
        } finally {
            buf.release();
        }
    }
}
