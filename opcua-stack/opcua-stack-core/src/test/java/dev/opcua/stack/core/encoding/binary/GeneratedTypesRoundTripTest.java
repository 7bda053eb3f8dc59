package dev.opcua.stack.core.encoding.binary;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.UaCodec;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every generated structure survives encode and decode with randomly filled fields. */
class GeneratedTypesRoundTripTest {

    private static final CodecRegistry REGISTRY = CodecRegistry.standard();
    private static final EncodingLimits LIMITS = EncodingLimits.DEFAULT;

    static Stream<UaCodec<?>> standardCodecs() {
        return REGISTRY.codecs().stream().sorted(Comparator.comparing(c -> c.type().getSimpleName()));
    }

    @Test
    void the_standard_registry_holds_every_generated_structure() {
        List<String> names = REGISTRY.codecs().stream().map(c -> c.type().getSimpleName()).collect(Collectors.toList());
        // 312 standard structures less 22 abstract ones without fields (no encoding of their own).
        assertThat(names).hasSizeGreaterThanOrEqualTo(290).doesNotHaveDuplicates()
                .contains("ReadRequest", "ReadResponse", "CreateSessionRequest", "ActivateSessionResponse",
                        "PublishRequest", "UserNameIdentityToken", "ServiceFault", "OpenSecureChannelRequest");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("standardCodecs")
    <T> void random_instances_round_trip_in_place_and_in_an_extension_object(UaCodec<T> codec) {
        for (int seed = 0; seed < 20; seed++) {
            RandomValues random = new RandomValues(seed * 31L + codec.type().getName().hashCode());
            T value = random.structure(codec.type(), 0);

            ByteBuf buf = Unpooled.buffer();
            try {
                new UaEncoder(REGISTRY, buf).writeStruct("Value", value, codec);
                T decoded = new UaDecoder(REGISTRY, LIMITS, buf).readStruct("Value", codec);
                assertThat(decoded).as("seed %d", seed).isEqualTo(value);
                assertThat(decoded.hashCode()).isEqualTo(value.hashCode());
                assertThat(buf.readableBytes()).as("bytes left after decoding").isZero();

                buf.clear();
                ExtensionObject wrapped = ExtensionObject.of((UaStructure) value);
                new UaEncoder(REGISTRY, buf).writeExtensionObject("Body", wrapped);
                ExtensionObject decodedWrapper = new UaDecoder(REGISTRY, LIMITS, buf).readExtensionObject("Body");
                assertThat(decodedWrapper.decoded()).isEqualTo(value);
                assertThat(decodedWrapper.encodingId()).isEqualTo(codec.encodingId());
                assertThat(buf.readableBytes()).isZero();
            } finally {
                buf.release();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("standardCodecs")
    void messages_round_trip_with_their_encoding_id(UaCodec<?> codec) {
        UaStructure value = (UaStructure) new RandomValues(7).structure(codec.type(), 0);
        ByteBuf buf = Unpooled.buffer();
        try {
            new UaEncoder(REGISTRY, buf).writeMessage(value);
            assertThat(new UaDecoder(REGISTRY, LIMITS, buf).readMessage()).isEqualTo(value);
            assertThat(buf.readableBytes()).isZero();
        } finally {
            buf.release();
        }
        assertThat(buf.refCnt()).isZero();
    }
}
