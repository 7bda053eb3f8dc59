package dev.opcua.stack.core.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.UaCodec;
import dev.opcua.stack.core.encoding.UaEncodingException;
import dev.opcua.stack.core.encoding.binary.UaDecoder;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.NodeId;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Comparator;
import java.util.List;

/**
 * The UA Binary decoder, fed any bytes as the body of any generated structure of the standard
 * {@link CodecRegistry}, with {@link EncodingLimits#DEFAULT}.
 *
 * <p>Input: two bytes (big-endian UInt16) choose the structure: the namespace-0 DefaultBinary encoding id
 * when one has that number, otherwise the codec at that index (modulo their count) in name order; the
 * rest is the structure's body. The only acceptable failure is a {@link UaEncodingException} with
 * {@code BadDecodingError} or {@code BadEncodingLimitsExceeded} (UaDecoder's documented contract); any
 * other exception, an error (OutOfMemoryError, StackOverflowError) or a hang is a finding.
 *
 * <p>The committed inputs ({@code BinaryDecoderFuzzTestInputs/decodeStructure/}) are valid encodings of
 * requests and responses made by our encoder, replayed in the default build.
 */
class BinaryDecoderFuzzTest {

    private static final CodecRegistry REGISTRY = CodecRegistry.standard();
    private static final List<UaCodec<?>> CODECS = REGISTRY.codecs().stream()
            .sorted(Comparator.comparing(c -> c.type().getName()))
            .toList();

    /** The codec the first two bytes of a fuzz input choose (see the class comment). */
    static UaCodec<?> codecFor(int selector) {
        UaCodec<?> codec = REGISTRY.codecForEncodingId(NodeId.ns0(selector));
        return codec != null ? codec : CODECS.get(selector % CODECS.size());
    }

    @FuzzTest(maxDuration = "5m")
    void decodeStructure(byte[] data) {
        if (data.length < 2) {
            return;
        }
        UaCodec<?> codec = codecFor(((data[0] & 0xFF) << 8) | (data[1] & 0xFF));
        ByteBuf buf = Unpooled.wrappedBuffer(data, 2, data.length - 2);
        try {
            new UaDecoder(REGISTRY, EncodingLimits.DEFAULT, buf).decode(codec);
        } catch (UaEncodingException e) {
            int status = e.statusCode().value();
            if (status != StatusCodes.BadDecodingError && status != StatusCodes.BadEncodingLimitsExceeded) {
                throw new AssertionError("unexpected status decoding " + codec.type().getSimpleName(), e);
            }
        } finally {
            buf.release();
        }
    }
}
