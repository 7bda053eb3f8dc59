package dev.opcua.stack.core.encoding.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.Consumer;
import java.util.function.Function;

/** Encoding and decoding helpers for the UA JSON tests. */
final class JsonTestSupport {

    static final CodecRegistry REGISTRY = CodecRegistry.standard();
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private JsonTestSupport() {
    }

    static String encode(JsonEncoding encoding, Consumer<JsonEncoder> writes) {
        return encode(REGISTRY, encoding, writes);
    }

    static String encode(CodecRegistry registry, JsonEncoding encoding, Consumer<JsonEncoder> writes) {
        JsonEncoder encoder = new JsonEncoder(registry, encoding);
        writes.accept(encoder);
        return encoder.toJson();
    }

    /** Encodes {@code writes} inside a top-level object. */
    static String member(JsonEncoding encoding, Consumer<JsonEncoder> writes) {
        return encode(encoding, e -> {
            e.beginObject();
            writes.accept(e);
            e.endObject();
        });
    }

    /** Decodes with {@code reads}; an Object, so that AssertJ's {@code assertThat} picks its Object overload. */
    static Object decode(String json, Function<JsonDecoder, ?> reads) {
        return decode(REGISTRY, json, reads);
    }

    static Object decode(CodecRegistry registry, String json, Function<JsonDecoder, ?> reads) {
        return reads.apply(new JsonDecoder(registry, EncodingLimits.DEFAULT, json));
    }

    /** Parses with Jackson, a standard JSON parser, refusing duplicate members: fails the test when it cannot. */
    static JsonNode standardParse(String json) {
        try {
            return MAPPER.reader().with(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                    .readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException("not plain JSON: " + json, e);
        }
    }

    /** The JSON text re-serialised by Jackson, for comparing documents without regard to whitespace. */
    static String canonical(String json) {
        return standardParse(json).toString();
    }
}
