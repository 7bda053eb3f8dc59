package dev.opcua.stack.core.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.UaCodec;
import dev.opcua.stack.core.encoding.UaEncodingException;
import dev.opcua.stack.core.encoding.json.JsonDecoder;
import dev.opcua.stack.core.ids.StatusCodes;
import java.util.Arrays;

/**
 * The UA JSON decoder, fed any bytes as a JSON document: as the body of any generated structure of the standard
 * {@link CodecRegistry} (chosen by the first two bytes, as {@link BinaryDecoderFuzzTest} chooses), and as a
 * Variant and a DataValue, with {@link EncodingLimits#DEFAULT} and small limits.
 *
 * <p>The only acceptable failure is a {@link UaEncodingException} with {@code BadDecodingError} or
 * {@code BadEncodingLimitsExceeded} (JsonDecoder's documented contract); any other exception, an error
 * (OutOfMemoryError, StackOverflowError) or a hang is a finding.
 *
 * <p>The committed inputs ({@code JsonDecoderFuzzTestInputs/<method>/}) are valid encodings made by our
 * encoder, replayed in the default build.
 */
class JsonDecoderFuzzTest {

    private static final CodecRegistry REGISTRY = CodecRegistry.standard();
    private static final EncodingLimits SMALL = new EncodingLimits(64, 64, 8, 6);

    @FuzzTest(maxDuration = "5m")
    void decodeStructure(byte[] data) {
        if (data.length < 2) {
            return;
        }
        UaCodec<?> codec = BinaryDecoderFuzzTest.codecFor(((data[0] & 0xFF) << 8) | (data[1] & 0xFF));
        byte[] json = Arrays.copyOfRange(data, 2, data.length);
        decode(() -> new JsonDecoder(REGISTRY, EncodingLimits.DEFAULT, json).decode(codec), codec.type().getSimpleName());
    }

    @FuzzTest(maxDuration = "5m")
    void decodeVariantAndDataValue(byte[] data) {
        decode(() -> new JsonDecoder(REGISTRY, EncodingLimits.DEFAULT, data).readVariant(null), "Variant");
        decode(() -> new JsonDecoder(REGISTRY, EncodingLimits.DEFAULT, data).readDataValue(null), "DataValue");
        decode(() -> new JsonDecoder(REGISTRY, SMALL, data).readDataValue(null), "DataValue (small limits)");
    }

    private static void decode(Runnable decoding, String what) {
        try {
            decoding.run();
        } catch (UaEncodingException e) {
            int status = e.statusCode().value();
            if (status != StatusCodes.BadDecodingError && status != StatusCodes.BadEncodingLimitsExceeded) {
                throw new AssertionError("unexpected status decoding " + what, e);
            }
        }
    }
}
