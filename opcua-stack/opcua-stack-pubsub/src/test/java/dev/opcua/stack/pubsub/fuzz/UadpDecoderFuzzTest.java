package dev.opcua.stack.pubsub.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.UaEncodingException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.structured.ConfigurationVersionDataType;
import dev.opcua.stack.core.types.structured.DataSetMetaDataType;
import dev.opcua.stack.core.types.structured.FieldMetaData;
import dev.opcua.stack.pubsub.message.uadp.UadpMessageDecoder;
import dev.opcua.stack.pubsub.message.MetaDataLookup;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * The UADP decoder (Part 14, 7.2.4), fed any bytes as a network message, with {@link EncodingLimits#DEFAULT}
 * and a metadata lookup that knows one data set for writers 1 to 3 (so that RawData fields and field names are
 * exercised) and none for the others.
 *
 * <p>The only acceptable failure is a {@link UaEncodingException} with {@code BadDecodingError} or
 * {@code BadEncodingLimitsExceeded} (UadpMessageDecoder's documented contract); any other exception, an error
 * (OutOfMemoryError, StackOverflowError) or a hang is a finding.
 *
 * <p>The committed inputs ({@code UadpDecoderFuzzTestInputs/decode/}) are valid messages made by our encoder
 * (every header variant, the three field encodings, all message types, a metadata announcement), replayed in
 * the default build.
 */
class UadpDecoderFuzzTest {

    /** Fields of every RawData type the decoder reads, two strings with a MaxStringLength. */
    static final DataSetMetaDataType META_DATA = new DataSetMetaDataType(null, null, null, null, "fuzz",
            LocalizedText.NULL, new FieldMetaData[] {
                field("b", BuiltinType.Boolean, 0), field("i32", BuiltinType.Int32, 0),
                field("s", BuiltinType.String, 8), field("d", BuiltinType.Double, 0),
                field("bs", BuiltinType.ByteString, 4), field("t", BuiltinType.DateTime, 0),
                field("g", BuiltinType.Guid, 0), field("sc", BuiltinType.StatusCode, 0),
                field("u64", BuiltinType.UInt64, 0), field("unbounded", BuiltinType.String, 0)},
            null, new ConfigurationVersionDataType(1, 1));

    static final MetaDataLookup LOOKUP = (publisherId, writerGroupId, writerId) ->
            writerId >= 1 && writerId <= 3 ? META_DATA : null;

    private static final UadpMessageDecoder DECODER = new UadpMessageDecoder(CodecRegistry.standard(),
            EncodingLimits.DEFAULT, LOOKUP);

    static FieldMetaData field(String name, BuiltinType type, long maxStringLength) {
        return new FieldMetaData(name, LocalizedText.NULL, 0, (short) type.typeId(), type.dataTypeId(), -1, null,
                maxStringLength, null, null);
    }

    @FuzzTest(maxDuration = "5m")
    void decode(byte[] data) {
        ByteBuf buf = Unpooled.wrappedBuffer(data);
        try {
            DECODER.decode(buf);
        } catch (UaEncodingException e) {
            int status = e.statusCode().value();
            if (status != StatusCodes.BadDecodingError && status != StatusCodes.BadEncodingLimitsExceeded) {
                throw new AssertionError("unexpected status decoding UADP", e);
            }
        } finally {
            buf.release();
        }
    }
}
