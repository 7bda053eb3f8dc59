package dev.opcua.stack.core.encoding.json;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.UaCodec;
import dev.opcua.stack.core.encoding.binary.RandomValues;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Property test: every generated structure, filled with random values (text-safe mode, see
 * {@link RandomValues}), survives UA JSON encode and decode in both forms, in place and in an ExtensionObject;
 * the output parses with a standard JSON parser and encoding the decoded value gives the same text.
 */
class JsonGeneratedTypesRoundTripTest {

    private static final CodecRegistry REGISTRY = CodecRegistry.standard();

    static Stream<UaCodec<?>> standardCodecs() {
        return REGISTRY.codecs().stream().sorted(Comparator.comparing(c -> c.type().getSimpleName()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("standardCodecs")
    <T> void random_instances_round_trip_in_both_forms(UaCodec<T> codec) {
        for (JsonEncoding encoding : JsonEncoding.values()) {
            for (int seed = 0; seed < 10; seed++) {
                RandomValues random = new RandomValues(seed * 31L + codec.type().getName().hashCode(), true);
                T value = random.structure(codec.type(), 0);

                JsonEncoder encoder = new JsonEncoder(REGISTRY, encoding);
                encoder.writeStruct(null, value, codec);
                String json = encoder.toJson();
                JsonTestSupport.standardParse(json);
                T decoded = new JsonDecoder(REGISTRY, EncodingLimits.DEFAULT, encoder.toBytes()).decode(codec);
                assertThat(decoded).as("%s seed %d: %s", encoding, seed, json).isEqualTo(value);

                JsonEncoder again = new JsonEncoder(REGISTRY, encoding);
                again.writeStruct(null, decoded, codec);
                assertThat(again.toJson()).isEqualTo(json);

                ExtensionObject wrapped = ExtensionObject.of((UaStructure) value);
                JsonEncoder eoEncoder = new JsonEncoder(REGISTRY, encoding);
                eoEncoder.writeExtensionObject(null, wrapped);
                assertThat(JsonTestSupport.standardParse(eoEncoder.toJson()).get("UaTypeId").asText())
                        .isEqualTo(codec.dataTypeId().toString());
                ExtensionObject back = new JsonDecoder(REGISTRY, EncodingLimits.DEFAULT, eoEncoder.toBytes())
                        .readExtensionObject(null);
                assertThat(back.decoded()).isEqualTo(value);
                assertThat(back.encodingId()).isEqualTo(codec.encodingId());
            }
        }
    }
}
