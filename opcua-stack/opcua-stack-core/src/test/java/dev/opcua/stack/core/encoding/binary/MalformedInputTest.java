package dev.opcua.stack.core.encoding.binary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.fail;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.UaEncodingException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.DiagnosticInfo;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.builtin.XmlElement;
import dev.opcua.stack.core.types.enumerated.ApplicationType;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.AnonymousIdentityToken;
import dev.opcua.stack.core.types.structured.ApplicationDescription;
import dev.opcua.stack.core.types.structured.CreateSessionRequest;
import dev.opcua.stack.core.types.structured.LiteralOperand;
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadResponse;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.core.types.structured.ResponseHeader;
import dev.opcua.stack.core.types.structured.WriteRequest;
import dev.opcua.stack.core.types.structured.WriteValue;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Hostile and broken input for {@link UaDecoder}: every failure must be a {@link UaEncodingException}
 * with {@code BadDecodingError} (malformed, truncated) or {@code BadEncodingLimitsExceeded} (beyond the
 * {@link EncodingLimits}), naming the field; nothing else may escape, nothing may be allocated for a
 * length the input cannot back, and nesting may not exhaust the stack (Part 6, 5.2.1 and 5.2.2.12).
 */
class MalformedInputTest {

    private static final CodecRegistry REGISTRY = CodecRegistry.standard();
    private static final EncodingLimits SMALL = new EncodingLimits(100, 200, 10, 10);
    private static final EncodingLimits HUGE =
            new EncodingLimits(Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE, 200);

    /** Status prefix of the message, then a dotted field path, then ": " and the detail. */
    private static final String MESSAGE_WITH_PATH =
            "(?s)Bad\\w+ \\(0x[0-9A-F]{8}\\): [A-Za-z][A-Za-z0-9]*(\\[\\d+])?(\\.[A-Za-z][A-Za-z0-9]*(\\[\\d+])?)*: .+";

    private static final DateTime TS = DateTime.ofInstant(Instant.parse("2024-06-15T12:30:45.1234567Z"));

    // ---- helpers -------------------------------------------------------------------------------

    static byte[] hex(String text) {
        return HexFormat.of().parseHex(text.replaceAll("\\s+", ""));
    }

    static byte[] concat(byte[]... parts) {
        int length = 0;
        for (byte[] p : parts) {
            length += p.length;
        }
        byte[] out = new byte[length];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }

    static byte[] encodeMessage(UaStructure message) {
        ByteBuf buf = Unpooled.buffer();
        try {
            new UaEncoder(REGISTRY, buf).writeMessage(message);
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
        }
    }

    static byte[] encode(java.util.function.Consumer<UaEncoder> writer) {
        ByteBuf buf = Unpooled.buffer();
        try {
            writer.accept(new UaEncoder(REGISTRY, buf));
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
        }
    }

    /** Decodes bytes with a fresh decoder, releasing the buffer; returns the value and asserts nothing is left. */
    static <T> T decode(byte[] bytes, EncodingLimits limits, Function<UaDecoder, T> reader) {
        ByteBuf buf = Unpooled.wrappedBuffer(bytes);
        try {
            T value = reader.apply(new UaDecoder(REGISTRY, limits, buf));
            assertThat(buf.readableBytes()).as("bytes left").isZero();
            return value;
        } finally {
            buf.release();
            assertThat(buf.refCnt()).isZero();
        }
    }

    /** Decodes bytes expecting a UaEncodingException with the status; any other outcome fails. */
    static UaEncodingException decodeFailure(byte[] bytes, EncodingLimits limits, int status,
            Function<UaDecoder, ?> reader) {
        ByteBuf buf = Unpooled.wrappedBuffer(bytes);
        try {
            Object value = reader.apply(new UaDecoder(REGISTRY, limits, buf));
            fail("expected %s but decoded %s from %s", StatusCode.of(status), value, HexFormat.of().formatHex(bytes));
            return null;
        } catch (UaEncodingException e) {
            assertThat(e.statusCode()).as("status of: %s", e.getMessage()).isEqualTo(StatusCode.of(status));
            return e;
        } finally {
            buf.release();
            assertThat(buf.refCnt()).isZero();
        }
    }

    static RequestHeader requestHeader() {
        return new RequestHeader(NodeId.opaque(0, ByteString.of(new byte[] {9, 8, 7, 6})), TS, 42, 0, "audit-1",
                10_000, ExtensionObject.of(new AnonymousIdentityToken("anon")));
    }

    static ReadRequest readRequest(String indexRange1) {
        return new ReadRequest(requestHeader(), 500.0, TimestampsToReturn.Both, new ReadValueId[] {
            new ReadValueId(NodeId.string(2, "Line1.Speed"), 13, null, QualifiedName.NULL),
            new ReadValueId(NodeId.ns0(2253), 13, indexRange1, QualifiedName.of(0, "Default Binary")),
        });
    }

    static ReadResponse readResponse() {
        DataValue[] results = {
            DataValue.of(Variant.ofDouble(42.5), StatusCode.GOOD, TS, 10, TS, 20),
            DataValue.of(Variant.ofArray(BuiltinType.String, new String[] {"a", null, "水"})),
            DataValue.of(Variant.ofMatrix(BuiltinType.Int32, new int[] {1, 2, 3, 4}, new int[] {2, 2})),
            DataValue.of(Variant.of(LocalizedText.of("en", "Speed"))),
            DataValue.of(Variant.of(ExpandedNodeId.of(NodeId.guid(0, UUID.fromString(
                    "72962B91-FA75-4AE6-8D28-B404DC7DAF63")), "urn:x", 3))),
            DataValue.of(Variant.of(new AnonymousIdentityToken("anon"))),
            DataValue.of(Variant.ofArray(BuiltinType.Variant, new Variant[] {
                Variant.ofUInt32(7), Variant.of(XmlElement.of("<a/>")), Variant.of(QualifiedName.of(1, "q"))})),
            DataValue.ofStatus(StatusCode.of(StatusCodes.BadNodeIdUnknown)),
        };
        DiagnosticInfo info = DiagnosticInfo.of(0, 1, 2, 3, "more", StatusCode.BAD,
                DiagnosticInfo.of(-1, -1, -1, -1, "inner", null, null));
        return new ReadResponse(new ResponseHeader(TS, 42, StatusCode.GOOD, info, new String[] {"s0", "s1", "en", "t"},
                ExtensionObject.NULL), results, new DiagnosticInfo[] {DiagnosticInfo.NULL, info});
    }

    static WriteRequest writeRequest() {
        return new WriteRequest(requestHeader(), new WriteValue[] {
            new WriteValue(NodeId.numeric(3, 70_000), 13, "0:1", DataValue.of(Variant.ofArray(BuiltinType.Float,
                    new float[] {1f, 2f}))),
            new WriteValue(NodeId.string(1, "Tag"), 13, null, DataValue.of(Variant.of(ByteString.of(new byte[] {1, 2})),
                    StatusCode.UNCERTAIN, TS, null)),
        });
    }

    static CreateSessionRequest createSessionRequest() {
        return new CreateSessionRequest(requestHeader(),
                new ApplicationDescription("urn:client", "urn:product", LocalizedText.of("en", "Client"),
                        ApplicationType.Client, null, null, new String[] {"opc.tcp://localhost:4840"}),
                "urn:server", "opc.tcp://localhost:4840", "session-1", ByteString.of(new byte[32]),
                ByteString.of(new byte[] {0x30, (byte) 0x82, 0x01, 0x0A}), 60_000.0, 0);
    }

    static Stream<Arguments> messages() {
        return Stream.of(
                Arguments.of("ReadRequest", readRequest("1:2")),
                Arguments.of("ReadResponse", readResponse()),
                Arguments.of("WriteRequest", writeRequest()),
                Arguments.of("CreateSessionRequest", createSessionRequest()));
    }

    // ---- round trip of the messages used below -----------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("messages")
    void the_rich_messages_round_trip(String name, UaStructure message) {
        byte[] bytes = encodeMessage(message);
        assertThat((Object) decode(bytes, EncodingLimits.DEFAULT, UaDecoder::readMessage)).isEqualTo(message);
    }

    // ---- truncation ------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("messages")
    void every_truncated_prefix_fails_with_bad_decoding_error_naming_a_field(String name, UaStructure message) {
        byte[] bytes = encodeMessage(message);
        UaDecoder decoder = new UaDecoder(REGISTRY, EncodingLimits.DEFAULT);
        for (int length = 0; length < bytes.length; length++) {
            ByteBuf buf = Unpooled.buffer(length).writeBytes(bytes, 0, length);
            try {
                Object decoded = decoder.setBuffer(buf).readMessage();
                fail("%s truncated to %d of %d bytes decoded as %s", name, length, bytes.length, decoded);
            } catch (UaEncodingException e) {
                assertThat(e.statusCode()).as("status at length %d: %s", length, e.getMessage())
                        .isEqualTo(StatusCode.of(StatusCodes.BadDecodingError));
                assertThat(e.getMessage()).as("message at length %d", length).matches(MESSAGE_WITH_PATH);
            } catch (Throwable t) {
                throw new AssertionError(name + " truncated to " + length + " of " + bytes.length
                        + " bytes threw " + t, t);
            } finally {
                buf.release();
            }
            assertThat(buf.refCnt()).isZero();
        }
    }

    @Test
    void truncation_inside_a_nested_field_names_the_path_to_it() {
        byte[] bytes = encodeMessage(readRequest("1:2"));
        // Cut inside the last field of the message: NodesToRead[1].DataEncoding's name.
        UaEncodingException e = decodeFailure(Arrays.copyOf(bytes, bytes.length - 3), EncodingLimits.DEFAULT,
                StatusCodes.BadDecodingError, UaDecoder::readMessage);
        assertThat(e.getMessage()).contains("ReadRequest.NodesToRead[1].DataEncoding").contains("remain");
    }

    // ---- negative lengths ---------------------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(ints = {-2, -100, Integer.MIN_VALUE})
    void negative_length_other_than_minus_one_is_bad_decoding_error_naming_the_field(int length) {
        byte[] bytes = encode(e -> e.writeInt32("Length", length));
        assertThat(decodeFailure(bytes, SMALL, StatusCodes.BadDecodingError, d -> d.readString("Name")).getMessage())
                .contains("Name").contains(String.valueOf(length));
        assertThat(decodeFailure(bytes, SMALL, StatusCodes.BadDecodingError, d -> d.readByteString("Nonce"))
                .getMessage()).contains("Nonce").contains(String.valueOf(length));
        assertThat(decodeFailure(bytes, SMALL, StatusCodes.BadDecodingError, d -> d.readXmlElement("Xml"))
                .getMessage()).contains("Xml");
        assertThat(decodeFailure(bytes, SMALL, StatusCodes.BadDecodingError, d -> d.readInt32Array("Values"))
                .getMessage()).contains("Values").contains(String.valueOf(length));
        assertThat(decodeFailure(bytes, SMALL, StatusCodes.BadDecodingError, d -> d.readStringArray("Names"))
                .getMessage()).contains("Names");
        assertThat(decodeFailure(bytes, SMALL, StatusCodes.BadDecodingError,
                d -> d.readStructArray("Items", ReadValueId.CODEC, ReadValueId[]::new)).getMessage()).contains("Items");
    }

    @Test
    void length_minus_one_is_null() {
        byte[] bytes = hex("FF FF FF FF");
        assertThat((Object) decode(bytes, SMALL, d -> d.readString("S"))).isNull();
        assertThat((Object) decode(bytes, SMALL, d -> d.readByteString("B"))).isEqualTo(ByteString.NULL);
        assertThat((Object) decode(bytes, SMALL, d -> d.readXmlElement("X"))).isEqualTo(XmlElement.NULL);
        assertThat((Object) decode(bytes, SMALL, d -> d.readInt32Array("A"))).isNull();
        assertThat((Object) decode(bytes, SMALL, d -> d.readDoubleArray("A"))).isNull();
        assertThat((Object) decode(bytes, SMALL, d -> d.readVariantArray("A"))).isNull();
        assertThat((Object) decode(bytes, SMALL, d -> d.readStructArray("A", ReadValueId.CODEC, ReadValueId[]::new))).isNull();
    }

    @Test
    void negative_array_length_in_a_message_names_the_array_field() {
        byte[] bytes = encodeMessage(new ReadRequest(requestHeader(), 0, TimestampsToReturn.Source, null));
        // NodesToRead is the last field: its length is the last 4 bytes.
        bytes[bytes.length - 4] = (byte) 0xFE;
        UaEncodingException e = decodeFailure(bytes, EncodingLimits.DEFAULT, StatusCodes.BadDecodingError,
                UaDecoder::readMessage);
        assertThat(e.getMessage()).contains("ReadRequest.NodesToRead").contains("-2");
    }

    // ---- huge lengths -------------------------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(ints = {Integer.MAX_VALUE, 101, 1_000_000})
    void string_longer_than_max_string_length_is_limit_exceeded(int length) {
        byte[] bytes = concat(encode(e -> e.writeInt32("L", length)), new byte[] {'a', 'b', 'c'});
        UaEncodingException e = decodeFailure(bytes, SMALL, StatusCodes.BadEncodingLimitsExceeded,
                d -> d.readString("Name"));
        assertThat(e.getMessage()).contains("Name").contains("MaxStringLength").contains("100")
                .contains(String.valueOf(length));
    }

    @Test
    void a_structure_body_longer_than_max_byte_string_length_decodes_within_its_own_limits() {
        ReadValueId node = new ReadValueId(NodeId.ns0(2258), 13, "a".repeat(90), QualifiedName.NULL);
        byte[] bytes = encode(e -> e.writeExtensionObject("Body", ExtensionObject.of(node)));
        EncodingLimits byteStrings50 = new EncodingLimits(100, 50, 10, 10);
        assertThat(bytes.length).as("a body over MaxByteStringLength 50").isGreaterThan(100);

        ExtensionObject decoded = decode(bytes, byteStrings50, d -> d.readExtensionObject("Body"));

        assertThat(decoded.decoded()).isEqualTo(node);
    }

    @ParameterizedTest
    @ValueSource(ints = {Integer.MAX_VALUE, 201})
    void byte_string_and_xml_longer_than_max_byte_string_length_are_limit_exceeded(int length) {
        byte[] bytes = concat(encode(e -> e.writeInt32("L", length)), new byte[] {1, 2, 3});
        assertThat(decodeFailure(bytes, SMALL, StatusCodes.BadEncodingLimitsExceeded, d -> d.readByteString("Nonce"))
                .getMessage()).contains("Nonce").contains("MaxByteStringLength").contains("200")
                .contains(String.valueOf(length));
        assertThat(decodeFailure(bytes, SMALL, StatusCodes.BadEncodingLimitsExceeded, d -> d.readXmlElement("Xml"))
                .getMessage()).contains("Xml").contains("MaxByteStringLength");
    }

    @ParameterizedTest
    @ValueSource(ints = {Integer.MAX_VALUE, 11})
    void array_longer_than_max_array_length_is_limit_exceeded(int length) {
        byte[] bytes = concat(encode(e -> e.writeInt32("L", length)), new byte[64]);
        List<Function<UaDecoder, ?>> readers = List.of(
                d -> d.readBooleanArray("Values"), d -> d.readByteArray("Values"), d -> d.readInt32Array("Values"),
                d -> d.readDoubleArray("Values"), d -> d.readStringArray("Values"), d -> d.readVariantArray("Values"),
                d -> d.readDataValueArray("Values"), d -> d.readDiagnosticInfoArray("Values"),
                d -> d.readEnumArray("Values", TimestampsToReturn::fromValue, TimestampsToReturn[]::new),
                d -> d.readStructArray("Values", ReadValueId.CODEC, ReadValueId[]::new));
        for (Function<UaDecoder, ?> reader : readers) {
            assertThat(decodeFailure(bytes, SMALL, StatusCodes.BadEncodingLimitsExceeded, reader).getMessage())
                    .contains("Values").contains("MaxArrayLength").contains("10").contains(String.valueOf(length));
        }
    }

    @Test
    void length_within_the_limit_but_beyond_the_remaining_bytes_is_bad_decoding_error() {
        byte[] bytes = concat(encode(e -> e.writeInt32("L", 100)), new byte[] {'a', 'b', 'c'});
        assertThat(decodeFailure(bytes, SMALL, StatusCodes.BadDecodingError, d -> d.readString("Name")).getMessage())
                .contains("Name").contains("remain");
        byte[] array = concat(encode(e -> e.writeInt32("L", 10)), new byte[12]);
        assertThat(decodeFailure(array, SMALL, StatusCodes.BadDecodingError, d -> d.readInt64Array("Values"))
                .getMessage()).contains("Values").contains("remain");
    }

    static Stream<Arguments> everyArrayType() {
        return Stream.of(BuiltinType.values()).filter(t -> t != BuiltinType.Null).map(Arguments::of);
    }

    @ParameterizedTest
    @MethodSource("everyArrayType")
    void maximal_length_with_huge_limits_fails_before_allocating(BuiltinType type) {
        // A Variant array of Integer.MAX_VALUE elements backed by 8 bytes: the decoder must compare the
        // length with the remaining bytes before allocating (no OutOfMemoryError).
        byte[] bytes = concat(new byte[] {(byte) (0x80 | type.typeId())}, encode(e -> e.writeInt32("L", Integer.MAX_VALUE)),
                new byte[8]);
        assertThat(decodeFailure(bytes, HUGE, StatusCodes.BadDecodingError, d -> d.readVariant("Value")).getMessage())
                .contains("Value").contains("remain");
    }

    @Test
    void maximal_lengths_of_strings_byte_strings_and_struct_arrays_with_huge_limits_fail_before_allocating() {
        byte[] bytes = concat(encode(e -> e.writeInt32("L", Integer.MAX_VALUE)), new byte[8]);
        decodeFailure(bytes, HUGE, StatusCodes.BadDecodingError, d -> d.readString("S"));
        decodeFailure(bytes, HUGE, StatusCodes.BadDecodingError, d -> d.readByteString("B"));
        decodeFailure(bytes, HUGE, StatusCodes.BadDecodingError, d -> d.readXmlElement("X"));
        decodeFailure(bytes, HUGE, StatusCodes.BadDecodingError,
                d -> d.readStructArray("A", ReadValueId.CODEC, ReadValueId[]::new));
        decodeFailure(bytes, HUGE, StatusCodes.BadDecodingError,
                d -> d.readEnumArray("E", TimestampsToReturn::fromValue, TimestampsToReturn[]::new));
        // ExtensionObject with a known encoding id and a huge body length.
        byte[] eo = concat(hex("01 00 41 01 01"), bytes);
        decodeFailure(eo, HUGE, StatusCodes.BadDecodingError, d -> d.readExtensionObject("Body"));
    }

    // ---- nesting --------------------------------------------------------------------------------

    static Variant nestedVariantArrays(int depth) {
        Variant v = Variant.ofArray(BuiltinType.Int32, new int[] {1});
        for (int i = 1; i < depth; i++) {
            v = Variant.ofArray(BuiltinType.Variant, new Variant[] {v});
        }
        return v;
    }

    @Test
    void variant_arrays_nested_within_the_limit_decode() {
        Variant value = nestedVariantArrays(10);
        byte[] bytes = encode(e -> e.writeVariant("Value", value));
        assertThat((Object) decode(bytes, SMALL, d -> d.readVariant("Value"))).isEqualTo(value);
    }

    @Test
    void variant_arrays_nested_beyond_the_limit_exceed_it() {
        for (int depth : new int[] {11, 12, 50}) {
            Variant value = nestedVariantArrays(depth);
            byte[] bytes = encode(e -> e.writeVariant("Value", value));
            assertThat(decodeFailure(bytes, SMALL, StatusCodes.BadEncodingLimitsExceeded, d -> d.readVariant("Value"))
                    .getMessage()).contains("MaxEncodingNestingLevels").contains("10");
        }
    }

    static DiagnosticInfo diagnosticChain(int depth) {
        DiagnosticInfo info = DiagnosticInfo.of(depth, -1, -1, -1, null, null, null);
        for (int i = depth - 1; i >= 1; i--) {
            info = DiagnosticInfo.of(i, -1, -1, -1, null, null, info);
        }
        return info;
    }

    @Test
    void diagnostic_info_chain_within_the_limit_decodes() {
        DiagnosticInfo value = diagnosticChain(10);
        byte[] bytes = encode(e -> e.writeDiagnosticInfo("Diag", value));
        assertThat((Object) decode(bytes, SMALL, d -> d.readDiagnosticInfo("Diag"))).isEqualTo(value);
    }

    @Test
    void diagnostic_info_chain_beyond_the_limit_exceeds_it() {
        DiagnosticInfo value = diagnosticChain(11);
        byte[] bytes = encode(e -> e.writeDiagnosticInfo("Diag", value));
        assertThat(decodeFailure(bytes, SMALL, StatusCodes.BadEncodingLimitsExceeded, d -> d.readDiagnosticInfo("Diag"))
                .getMessage()).contains("MaxEncodingNestingLevels").contains("10").contains("Diag");
    }

    @Test
    void hundred_thousand_deep_diagnostic_info_chain_fails_with_the_limit_not_a_stack_overflow() {
        // Part 6, 5.2.2.12: decoders shall report an error when the nesting exceeds what they support.
        byte[] bytes = new byte[100_001];
        Arrays.fill(bytes, 0, 100_000, (byte) 0x40); // InnerDiagnosticInfo only
        assertThatCode(() -> decodeFailure(bytes, EncodingLimits.DEFAULT, StatusCodes.BadEncodingLimitsExceeded,
                d -> d.readDiagnosticInfo("Diag"))).doesNotThrowAnyException();
    }

    @Test
    void hundred_thousand_deep_variant_arrays_fail_with_the_limit_not_a_stack_overflow() {
        byte[] level = hex("98 01 00 00 00");
        byte[] bytes = new byte[level.length * 100_000 + 1];
        for (int i = 0; i < 100_000; i++) {
            System.arraycopy(level, 0, bytes, i * level.length, level.length);
        }
        assertThatCode(() -> decodeFailure(bytes, EncodingLimits.DEFAULT, StatusCodes.BadEncodingLimitsExceeded,
                d -> d.readVariant("Value"))).doesNotThrowAnyException();
    }

    @Test
    void hundred_thousand_deep_data_values_in_variants_fail_with_the_limit_not_a_stack_overflow() {
        byte[] bytes = new byte[200_001];
        for (int i = 0; i < 100_000; i++) {
            bytes[2 * i] = 0x17; // Variant of DataValue
            bytes[2 * i + 1] = 0x01; // DataValue with a Value
        }
        assertThatCode(() -> decodeFailure(bytes, EncodingLimits.DEFAULT, StatusCodes.BadEncodingLimitsExceeded,
                d -> d.readVariant("Value"))).doesNotThrowAnyException();
    }

    static Variant nestedExtensionObjects(int depth) {
        Variant v = Variant.ofInt32(7);
        for (int i = 0; i < depth; i++) {
            v = Variant.of(new LiteralOperand(v));
        }
        return v;
    }

    @Test
    void extension_objects_inside_variants_nested_within_the_limit_decode() {
        Variant value = nestedExtensionObjects(2);
        byte[] bytes = encode(e -> e.writeVariant("Value", value));
        assertThat((Object) decode(bytes, SMALL, d -> d.readVariant("Value"))).isEqualTo(value);
    }

    @Test
    void extension_objects_inside_variants_nested_beyond_the_limit_exceed_it() {
        Variant value = nestedExtensionObjects(11);
        byte[] bytes = encode(e -> e.writeVariant("Value", value));
        assertThat(decodeFailure(bytes, SMALL, StatusCodes.BadEncodingLimitsExceeded, d -> d.readVariant("Value"))
                .getMessage()).contains("MaxEncodingNestingLevels");
    }

    @Test
    void nesting_state_is_reset_for_the_next_message() {
        UaDecoder decoder = new UaDecoder(REGISTRY, SMALL);
        byte[] deep = encode(e -> e.writeVariant("Value", nestedVariantArrays(50)));
        byte[] fine = encode(e -> e.writeVariant("Value", nestedVariantArrays(10)));
        ByteBuf first = Unpooled.wrappedBuffer(deep);
        ByteBuf second = Unpooled.wrappedBuffer(fine);
        try {
            assertThat(catchThrowableOfType(UaEncodingException.class,
                    () -> decoder.setBuffer(first).readVariant("Value"))).isNotNull();
            assertThat(decoder.setBuffer(second).readVariant("Value")).isEqualTo(nestedVariantArrays(10));
        } finally {
            first.release();
            second.release();
        }
        assertThat(first.refCnt()).isZero();
        assertThat(second.refCnt()).isZero();
    }

    // ---- unknown and invalid encodings ----------------------------------------------------------------

    @Test
    void message_with_an_unknown_encoding_id_is_bad_decoding_error_naming_the_id() {
        byte[] bytes = concat(encode(e -> e.writeNodeId("TypeId", NodeId.numeric(2, 12345))), new byte[16]);
        UaEncodingException e = decodeFailure(bytes, EncodingLimits.DEFAULT, StatusCodes.BadDecodingError,
                UaDecoder::readMessage);
        assertThat(e.getMessage()).contains("ns=2;i=12345");

        byte[] ns0 = concat(hex("01 00 0F 27"), new byte[16]); // i=9999 has no codec
        assertThat(decodeFailure(ns0, EncodingLimits.DEFAULT, StatusCodes.BadDecodingError, UaDecoder::readMessage)
                .getMessage()).contains("i=9999");
    }

    @Test
    void extension_object_with_unknown_encoding_id_is_kept_as_raw_bytes_and_re_encoded_identically() {
        byte[] bytes = hex("05 02 00 03 00 00 00 AB CD EF  01  06 00 00 00 01 02 03 04 05 06");
        ExtensionObject eo = decode(bytes, SMALL, d -> d.readExtensionObject("Body"));
        assertThat(eo.isDecoded()).isFalse();
        assertThat(eo.encodingId()).isEqualTo(NodeId.opaque(2, ByteString.of(new byte[] {(byte) 0xAB, (byte) 0xCD,
                (byte) 0xEF})));
        assertThat(eo.rawBody()).isEqualTo(ByteString.of(new byte[] {1, 2, 3, 4, 5, 6}));
        assertThat(encode(e -> e.writeExtensionObject("Body", eo))).isEqualTo(bytes);
    }

    @ParameterizedTest
    @ValueSource(ints = {0x06, 0x07, 0x10, 0x3F})
    void invalid_node_id_encoding_byte_is_bad_decoding_error(int encodingByte) {
        byte[] bytes = new byte[] {(byte) encodingByte, 0, 0, 0, 0, 0, 0, 0};
        assertThat(decodeFailure(bytes, SMALL, StatusCodes.BadDecodingError, d -> d.readNodeId("NodeId")).getMessage())
                .contains("NodeId").contains(String.format("0x%02X", encodingByte));
        decodeFailure(bytes, SMALL, StatusCodes.BadDecodingError, d -> d.readExpandedNodeId("Target"));
    }

    @ParameterizedTest
    @ValueSource(ints = {0x40, 0x80, 0xC0})
    void expanded_node_id_flags_in_a_plain_node_id_are_bad_decoding_error(int encodingByte) {
        byte[] bytes = new byte[] {(byte) encodingByte, 0x48, 0, 0, 0, 0, 0, 0};
        decodeFailure(bytes, SMALL, StatusCodes.BadDecodingError, d -> d.readNodeId("NodeId"));
    }

    @ParameterizedTest
    @ValueSource(ints = {0x03, 0x04, 0x80, 0xFF})
    void invalid_extension_object_encoding_byte_is_bad_decoding_error(int encodingByte) {
        byte[] bytes = new byte[] {0x01, 0x02, (byte) 0x89, 0x13, (byte) encodingByte, 0, 0, 0, 0};
        assertThat(decodeFailure(bytes, SMALL, StatusCodes.BadDecodingError, d -> d.readExtensionObject("Body"))
                .getMessage()).contains("Body").contains(String.format("0x%02X", encodingByte));
    }

    static IntStream unassignedVariantTypeIds() {
        return IntStream.rangeClosed(32, 63);
    }

    @ParameterizedTest
    @MethodSource("unassignedVariantTypeIds")
    void variant_with_a_type_id_outside_the_builtin_types_is_bad_decoding_error(int typeId) {
        byte[] scalar = new byte[] {(byte) typeId, 4, 0, 0, 0, 1, 2, 3, 4};
        assertThat(decodeFailure(scalar, SMALL, StatusCodes.BadDecodingError, d -> d.readVariant("Value")).getMessage())
                .contains("Value").contains(String.valueOf(typeId));
        byte[] array = new byte[] {(byte) (0x80 | typeId), 0, 0, 0, 0};
        decodeFailure(array, SMALL, StatusCodes.BadDecodingError, d -> d.readVariant("Value"));
    }

    @ParameterizedTest
    @ValueSource(ints = {26, 27, 31})
    void variant_with_a_reserved_type_id_26_to_31_is_read_as_a_byte_string(int typeId) {
        // Part 6, 5.2.2.16, Table 15: "The Built-in Type Ids 26 through 31 are not currently assigned but may
        // be used in the future. Decoders shall accept these IDs, assume the Value contains a ByteString and
        // pass both onto the application."
        byte[] scalar = new byte[] {(byte) typeId, 4, 0, 0, 0, 1, 2, 3, 4};
        Variant value = decode(scalar, SMALL, d -> d.readVariant("Value"));
        assertThat(value.value()).isEqualTo(ByteString.of(new byte[] {1, 2, 3, 4}));
    }

    @Test
    void scalar_variant_of_type_variant_is_bad_decoding_error() {
        // Part 6, 5.2.2.16: "The value shall not be a Variant but it could be an array of Variants."
        byte[] bytes = hex("18 06 01 00 00 00");
        assertThat(decodeFailure(bytes, SMALL, StatusCodes.BadDecodingError, d -> d.readVariant("Value")).getMessage())
                .contains("Value");
    }

    @Test
    void array_dimensions_that_do_not_match_the_length_are_bad_decoding_error() {
        // 2 Int32 elements, dimensions [2, 3].
        byte[] bytes = hex("C6 02 00 00 00 01 00 00 00 02 00 00 00  02 00 00 00 02 00 00 00 03 00 00 00");
        assertThat(decodeFailure(bytes, SMALL, StatusCodes.BadDecodingError, d -> d.readVariant("Value")).getMessage())
                .contains("ArrayDimensions");
    }

    @Test
    void negative_array_dimension_is_bad_decoding_error() {
        // 2 Int32 elements, dimensions [-1, -2] (product 2).
        byte[] bytes = hex("C6 02 00 00 00 01 00 00 00 02 00 00 00  02 00 00 00 FF FF FF FF FE FF FF FF");
        assertThat(decodeFailure(bytes, SMALL, StatusCodes.BadDecodingError, d -> d.readVariant("Value")).getMessage())
                .contains("ArrayDimensions").contains("-1");
    }

    @Test
    void array_dimensions_flag_without_the_array_flag_is_bad_decoding_error() {
        decodeFailure(hex("46 01 00 00 00"), SMALL, StatusCodes.BadDecodingError, d -> d.readVariant("Value"));
    }

    @Test
    void array_flags_with_type_id_zero_are_bad_decoding_error() {
        decodeFailure(hex("80 00 00 00 00"), SMALL, StatusCodes.BadDecodingError, d -> d.readVariant("Value"));
    }

    @Test
    void null_array_with_the_dimensions_flag_still_consumes_its_dimensions_or_fails() {
        // Mask 0xC6: Int32 array with ArrayDimensions; ArrayLength -1 (null), then the ArrayDimensions field
        // which Part 6, 5.2.2.16, Table 15 says is present whenever the flag is set. Reading must not stop
        // in the middle of the Variant: either all 13 bytes are read, or the input is refused.
        byte[] bytes = hex("C6 FF FF FF FF 01 00 00 00 00 00 00 00");
        ByteBuf buf = Unpooled.wrappedBuffer(bytes);
        try {
            new UaDecoder(REGISTRY, SMALL, buf).readVariant("Value");
            assertThat(buf.readableBytes()).as("bytes of the Variant left unread").isZero();
        } catch (UaEncodingException e) {
            assertThat(e.statusCode()).isEqualTo(StatusCode.of(StatusCodes.BadDecodingError));
        } finally {
            buf.release();
        }
    }

    @Test
    void unknown_enumeration_value_is_bad_decoding_error_naming_the_field() {
        ReadRequest request = readRequest(null);
        byte[] bytes = encodeMessage(request);
        byte[] prefix = encode(e -> {
            e.writeNodeId("TypeId", ReadRequest.BINARY_ENCODING_ID);
            e.writeStruct("RequestHeader", request.requestHeader(), RequestHeader.CODEC);
            e.writeDouble("MaxAge", request.maxAge());
        });
        assertThat(bytes[prefix.length]).isEqualTo((byte) TimestampsToReturn.Both.value());
        bytes[prefix.length] = 99;
        UaEncodingException e = decodeFailure(bytes, EncodingLimits.DEFAULT, StatusCodes.BadDecodingError,
                UaDecoder::readMessage);
        assertThat(e.getMessage()).contains("ReadRequest.TimestampsToReturn").contains("99");
    }

    // ---- field paths ------------------------------------------------------------------------------

    @Test
    void too_long_index_range_names_its_path_in_the_message() {
        byte[] bytes = encodeMessage(readRequest("x".repeat(101)));
        UaEncodingException e = decodeFailure(bytes, SMALL, StatusCodes.BadEncodingLimitsExceeded,
                UaDecoder::readMessage);
        assertThat(e.getMessage()).contains("ReadRequest.NodesToRead[1].IndexRange").contains("MaxStringLength 100")
                .contains("101");
    }

    @Test
    void failure_inside_an_element_of_a_builtin_array_names_the_element_index() {
        // UaDecoder promises "the path of the field" (e.g. ReadRequest.NodesToRead[3].IndexRange); an element
        // of a DataValue array is a field path too: ReadResponse.Results[1].
        DataValue[] results = {DataValue.of(Variant.ofString("ok")), DataValue.of(Variant.ofString("y".repeat(101)))};
        ReadResponse response = new ReadResponse(new ResponseHeader(TS, 1, StatusCode.GOOD, DiagnosticInfo.NULL, null,
                ExtensionObject.NULL), results, null);
        UaEncodingException e = decodeFailure(encodeMessage(response), SMALL, StatusCodes.BadEncodingLimitsExceeded,
                UaDecoder::readMessage);
        assertThat(e.getMessage()).contains("ReadResponse.Results[1]").contains("MaxStringLength");
    }

    // ---- fuzzing ----------------------------------------------------------------------------------

    @Test
    void randomly_mutated_messages_decode_or_fail_with_ua_encoding_exception_only() {
        long seed = 0x5EED_C0DEL;
        Random random = new Random(seed);
        List<byte[]> originals = List.of(encodeMessage(readRequest("1:2")), encodeMessage(readResponse()),
                encodeMessage(createSessionRequest()), encodeMessage(writeRequest()));
        UaDecoder decoder = new UaDecoder(REGISTRY, new EncodingLimits(4096, 4096, 256, 32));
        int decoded = 0;
        int refused = 0;
        for (int iteration = 0; iteration < 2_000; iteration++) {
            byte[] bytes = mutate(originals.get(iteration % originals.size()), random);
            ByteBuf buf = Unpooled.wrappedBuffer(bytes);
            try {
                decoder.setBuffer(buf).readMessage();
                decoded++;
            } catch (UaEncodingException e) {
                refused++;
            } catch (Throwable t) {
                throw new AssertionError("seed " + seed + ", iteration " + iteration + ": " + t + " decoding "
                        + HexFormat.of().formatHex(bytes), t);
            } finally {
                buf.release();
            }
        }
        assertThat(decoded + refused).isEqualTo(2_000);
        assertThat(refused).as("mutations refused").isPositive();
        assertThat(decoded).as("mutations that still decode").isPositive();
    }

    private static byte[] mutate(byte[] original, Random random) {
        byte[] bytes = original.clone();
        int mutations = 1 + random.nextInt(4);
        for (int m = 0; m < mutations; m++) {
            int at = bytes.length == 0 ? 0 : random.nextInt(bytes.length);
            switch (random.nextInt(5)) {
                case 0 -> { // flip one bit
                    if (bytes.length > 0) {
                        bytes[at] ^= (byte) (1 << random.nextInt(8));
                    }
                }
                case 1 -> { // replace a byte
                    if (bytes.length > 0) {
                        bytes[at] = (byte) random.nextInt(256);
                    }
                }
                case 2 -> { // insert a byte
                    byte[] longer = new byte[bytes.length + 1];
                    System.arraycopy(bytes, 0, longer, 0, at);
                    longer[at] = (byte) random.nextInt(256);
                    System.arraycopy(bytes, at, longer, at + 1, bytes.length - at);
                    bytes = longer;
                }
                case 3 -> { // delete a byte
                    if (bytes.length > 0) {
                        byte[] shorter = new byte[bytes.length - 1];
                        System.arraycopy(bytes, 0, shorter, 0, at);
                        System.arraycopy(bytes, at + 1, shorter, at, bytes.length - at - 1);
                        bytes = shorter;
                    }
                }
                default -> { // write an extreme Int32 (a length field, perhaps)
                    if (bytes.length >= 4) {
                        int pos = random.nextInt(bytes.length - 3);
                        int value = switch (random.nextInt(4)) {
                            case 0 -> -1;
                            case 1 -> Integer.MAX_VALUE;
                            case 2 -> Integer.MIN_VALUE;
                            default -> random.nextInt(1 << 16);
                        };
                        bytes[pos] = (byte) value;
                        bytes[pos + 1] = (byte) (value >>> 8);
                        bytes[pos + 2] = (byte) (value >>> 16);
                        bytes[pos + 3] = (byte) (value >>> 24);
                    }
                }
            }
        }
        return bytes;
    }
}
