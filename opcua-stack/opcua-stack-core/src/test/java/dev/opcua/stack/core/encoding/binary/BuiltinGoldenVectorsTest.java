package dev.opcua.stack.core.encoding.binary;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.ids.StatusCodes;
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
import dev.opcua.stack.core.types.structured.AnonymousIdentityToken;
import dev.opcua.stack.core.types.structured.Argument;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.time.Instant;
import java.util.HexFormat;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Golden byte vectors for every built-in type of UA Binary (OPC 10000-6, 5.2.2).
 *
 * <p>Each vector is written by {@link UaEncoder} and compared byte for byte, then read back by
 * {@link UaDecoder} (from a heap buffer and from a pooled direct buffer) to an equal value with no
 * bytes left. Figure and table numbers are those of OPC 10000-6 v1.04 (later editions renumber
 * them; the section numbers are stable). A vector marked "derived" has no example in the
 * specification and was worked out by hand from the rule the comment names.
 */
class BuiltinGoldenVectorsTest {

    private static final CodecRegistry REGISTRY = CodecRegistry.standard();

    /** The Guid of the example in Part 6, 5.2.2.6 (Figure 5). */
    private static final UUID SPEC_GUID = UUID.fromString("72962B91-FA75-4AE6-8D28-B404DC7DAF63");
    /** Its wire form as Figure 5 gives it: Data1, Data2, Data3 little-endian, Data4 in order. */
    private static final String SPEC_GUID_BYTES = "91 2B 96 72  75 FA  E6 4A  8D 28 B4 04 DC 7D AF 63";

    /** 2024-01-01T00:00:00Z = 133485408000000000 ticks of 100 ns since 1601-01-01 (derived, 5.2.2.5). */
    private static final DateTime TS1 = DateTime.ofInstant(Instant.parse("2024-01-01T00:00:00Z"));
    private static final String TS1_BYTES = "00 C0 89 76 45 3C DA 01";
    /** 2024-06-15T12:30:45.1234567Z = 133629282451234567 ticks (derived, 5.2.2.5). */
    private static final DateTime TS2 = DateTime.ofInstant(Instant.parse("2024-06-15T12:30:45.1234567Z"));
    private static final String TS2_BYTES = "07 9F 18 D8 1F BF DA 01";

    // ---- helpers -------------------------------------------------------------------------------

    @FunctionalInterface
    interface Writer<T> {
        void write(UaEncoder encoder, T value);
    }

    @FunctionalInterface
    interface Reader<T> {
        T read(UaDecoder decoder);
    }

    /** Bytes from a hex string; whitespace is ignored. */
    static byte[] hex(String text) {
        return HexFormat.of().parseHex(text.replaceAll("\\s+", ""));
    }

    static String hexOf(byte[] bytes) {
        return HexFormat.of().withUpperCase().formatHex(bytes);
    }

    static <T> void assertEncodes(T value, Writer<T> writer, String expectedHex) {
        ByteBuf buf = PooledByteBufAllocator.DEFAULT.buffer();
        try {
            writer.write(new UaEncoder(REGISTRY, buf), value);
            assertThat(hexOf(ByteBufUtil.getBytes(buf)))
                    .as("bytes written for %s", value)
                    .isEqualTo(hexOf(hex(expectedHex)));
        } finally {
            buf.release();
        }
        assertThat(buf.refCnt()).isZero();
    }

    static <T> void assertDecodes(String hexBytes, Reader<T> reader, T expected) {
        byte[] bytes = hex(hexBytes);
        ByteBuf heap = Unpooled.wrappedBuffer(bytes);
        ByteBuf direct = PooledByteBufAllocator.DEFAULT.directBuffer(bytes.length).writeBytes(bytes);
        try {
            for (ByteBuf buf : new ByteBuf[] {heap, direct}) {
                T decoded = reader.read(new UaDecoder(REGISTRY, EncodingLimits.DEFAULT, buf));
                assertThat(decoded).as("value read from %s", hexOf(bytes)).isEqualTo(expected);
                assertThat(buf.readableBytes()).as("bytes left after reading %s", hexOf(bytes)).isZero();
            }
        } finally {
            heap.release();
            direct.release();
        }
        assertThat(heap.refCnt()).isZero();
        assertThat(direct.refCnt()).isZero();
    }

    static <T> void assertVector(String hexBytes, T value, Writer<T> writer, Reader<T> reader) {
        assertEncodes(value, writer, hexBytes);
        assertDecodes(hexBytes, reader, value);
    }

    static void assertVariant(String hexBytes, Variant value) {
        assertVector(hexBytes, value, (e, v) -> e.writeVariant("Value", v), d -> d.readVariant("Value"));
    }

    static void assertDataValue(String hexBytes, DataValue value) {
        assertVector(hexBytes, value, (e, v) -> e.writeDataValue("Value", v), d -> d.readDataValue("Value"));
    }

    static void assertDiagnosticInfo(String hexBytes, DiagnosticInfo value) {
        assertVector(hexBytes, value, (e, v) -> e.writeDiagnosticInfo("Diag", v), d -> d.readDiagnosticInfo("Diag"));
    }

    static void assertNodeId(String hexBytes, NodeId value) {
        assertVector(hexBytes, value, (e, v) -> e.writeNodeId("NodeId", v), d -> d.readNodeId("NodeId"));
    }

    static void assertExpandedNodeId(String hexBytes, ExpandedNodeId value) {
        assertVector(hexBytes, value, (e, v) -> e.writeExpandedNodeId("Id", v), d -> d.readExpandedNodeId("Id"));
    }

    static void assertExtensionObject(String hexBytes, ExtensionObject value) {
        assertVector(hexBytes, value, (e, v) -> e.writeExtensionObject("Body", v), d -> d.readExtensionObject("Body"));
    }

    static DiagnosticInfo diag(int symbolicId, int namespaceUri, int locale, int localizedText, String additional,
            StatusCode innerStatus, DiagnosticInfo inner) {
        return DiagnosticInfo.of(symbolicId, namespaceUri, locale, localizedText, additional, innerStatus, inner);
    }

    // ---- Boolean, integers, floating point (5.2.2.1 - 5.2.2.3) ------------------------------------

    @Nested
    class Primitives {

        @Test
        void boolean_is_one_byte_with_one_for_true() {
            // Part 6, 5.2.2.1: one byte, 0 false, encoders write 1 for true.
            assertVector("01", true, (e, v) -> e.writeBoolean("B", v), d -> d.readBoolean("B"));
            assertVector("00", false, (e, v) -> e.writeBoolean("B", v), d -> d.readBoolean("B"));
        }

        @Test
        void boolean_decodes_any_non_zero_byte_as_true() {
            // Part 6, 5.2.2.1: decoders treat any non-zero value as true.
            assertDecodes("FF", d -> d.readBoolean("B"), true);
            assertDecodes("02", d -> d.readBoolean("B"), true);
        }

        @Test
        void sbyte_and_byte_are_single_bytes() {
            // Derived from the rule in Part 6, 5.2.2.2 (one byte, two's complement for SByte).
            assertVector("80", (byte) -128, (e, v) -> e.writeSByte("S", v), d -> d.readSByte("S"));
            assertVector("7F", (byte) 127, (e, v) -> e.writeSByte("S", v), d -> d.readSByte("S"));
            assertVector("FF", (short) 255, (e, v) -> e.writeByte("B", v), d -> d.readByte("B"));
            assertVector("00", (short) 0, (e, v) -> e.writeByte("B", v), d -> d.readByte("B"));
        }

        @Test
        void sixteen_bit_integers_are_little_endian() {
            // Derived from the rule in Part 6, 5.2.2.2 (little-endian, least significant byte first).
            assertVector("34 12", (short) 0x1234, (e, v) -> e.writeInt16("I", v), d -> d.readInt16("I"));
            assertVector("FE FF", (short) -2, (e, v) -> e.writeInt16("I", v), d -> d.readInt16("I"));
            assertVector("FF FF", 65535, (e, v) -> e.writeUInt16("U", v), d -> d.readUInt16("U"));
            assertVector("34 12", 0x1234, (e, v) -> e.writeUInt16("U", v), d -> d.readUInt16("U"));
        }

        @Test
        void int32_one_billion_matches_the_specification_example() {
            // Part 6, 5.2.2.2, Figure 2: 1 000 000 000 (0x3B9ACA00) is 00 CA 9A 3B.
            assertVector("00 CA 9A 3B", 1_000_000_000, (e, v) -> e.writeInt32("I", v), d -> d.readInt32("I"));
            // Derived from the same rule.
            assertVector("FF FF FF FF", -1, (e, v) -> e.writeInt32("I", v), d -> d.readInt32("I"));
            assertVector("00 00 00 80", Integer.MIN_VALUE, (e, v) -> e.writeInt32("I", v), d -> d.readInt32("I"));
        }

        @Test
        void uint32_uses_the_full_unsigned_range() {
            // Derived from the rule in Part 6, 5.2.2.2.
            assertVector("FF FF FF FF", 4_294_967_295L, (e, v) -> e.writeUInt32("U", v), d -> d.readUInt32("U"));
            assertVector("00 CA 9A 3B", 1_000_000_000L, (e, v) -> e.writeUInt32("U", v), d -> d.readUInt32("U"));
        }

        @Test
        void sixty_four_bit_integers_are_little_endian() {
            // Derived from the rule in Part 6, 5.2.2.2.
            assertVector("08 07 06 05 04 03 02 01", 0x0102030405060708L, (e, v) -> e.writeInt64("L", v),
                    d -> d.readInt64("L"));
            assertVector("00 00 00 00 00 00 00 80", Long.MIN_VALUE, (e, v) -> e.writeInt64("L", v),
                    d -> d.readInt64("L"));
            // UInt64 2^64-1 is held as the bits -1.
            assertVector("FF FF FF FF FF FF FF FF", -1L, (e, v) -> e.writeUInt64("U", v), d -> d.readUInt64("U"));
        }

        @Test
        void float_minus_six_point_five_matches_the_specification_example() {
            // Part 6, 5.2.2.3, Figure 3: -6.5 (0xC0D00000) is 00 00 D0 C0.
            assertVector("00 00 D0 C0", -6.5f, (e, v) -> e.writeFloat("F", v), d -> d.readFloat("F"));
            // Derived from the same rule (IEEE 754, little-endian).
            assertVector("00 00 80 7F", Float.POSITIVE_INFINITY, (e, v) -> e.writeFloat("F", v), d -> d.readFloat("F"));
        }

        @Test
        void double_is_ieee754_little_endian() {
            // Derived from the rule in Part 6, 5.2.2.3: -6.5 is 0xC01A000000000000.
            assertVector("00 00 00 00 00 00 1A C0", -6.5, (e, v) -> e.writeDouble("D", v), d -> d.readDouble("D"));
            assertVector("6E 86 1B F0 F9 21 09 40", 3.14159, (e, v) -> e.writeDouble("D", v), d -> d.readDouble("D"));
        }
    }

    // ---- String, DateTime, Guid, ByteString, XmlElement (5.2.2.4 - 5.2.2.8) ---------------------------

    @Nested
    class StringsTimesAndBytes {

        private void assertString(String hexBytes, String value) {
            assertVector(hexBytes, value, (e, v) -> e.writeString("S", v), d -> d.readString("S"));
        }

        @Test
        void null_string_is_length_minus_one() {
            // Part 6, 5.2.2.4: a length of -1 is the null string.
            assertString("FF FF FF FF", null);
        }

        @Test
        void empty_string_is_length_zero() {
            // Derived from the rule in Part 6, 5.2.2.4: length in bytes, no terminator.
            assertString("00 00 00 00", "");
        }

        @Test
        void ascii_string_is_length_then_bytes() {
            // Derived from the rule in Part 6, 5.2.2.4.
            assertString("03 00 00 00 61 62 63", "abc");
        }

        @Test
        void multi_byte_string_matches_the_specification_example() {
            // Part 6, 5.2.2.4, Figure 4: "水Boy" is 6 UTF-8 bytes.
            assertString("06 00 00 00 E6 B0 B4 42 6F 79", "水Boy");
        }

        @Test
        void supplementary_character_is_four_utf8_bytes() {
            // Derived from the rule in Part 6, 5.2.2.4: U+1F600 is F0 9F 98 80 in UTF-8, length counts bytes.
            assertString("04 00 00 00 F0 9F 98 80", "\uD83D\uDE00");
        }

        private void assertDateTime(String hexBytes, DateTime value) {
            assertVector(hexBytes, value, (e, v) -> e.writeDateTime("T", v), d -> d.readDateTime("T"));
        }

        @Test
        void date_time_is_ticks_since1601_as_int64() {
            // Derived from the rule in Part 6, 5.2.2.5: Int64 count of 100 ns intervals since 1601-01-01 UTC.
            assertDateTime(TS1_BYTES, TS1);
            assertDateTime(TS2_BYTES, TS2);
            assertThat(TS2.utcTicks()).isEqualTo(133_629_282_451_234_567L);
        }

        @Test
        void date_time_min_value_is_zero() {
            // Part 6, 5.2.2.5: the earliest value is encoded as 0.
            assertDateTime("00 00 00 00 00 00 00 00", DateTime.MIN_VALUE);
        }

        @Test
        void date_time_max_value_is_int64_max() {
            // Part 6, 5.2.2.5: the latest value is encoded as the maximum Int64.
            assertDateTime("FF FF FF FF FF FF FF 7F", DateTime.MAX_VALUE);
        }

        @Test
        void date_time_before_1601_is_encoded_as_zero() {
            // Part 6, 5.2.2.5: a value equal to or earlier than 1601-01-01 00:00 UTC is encoded as 0.
            assertEncodes(DateTime.ofInstant(Instant.parse("1500-01-01T00:00:00Z")), (e, v) -> e.writeDateTime("T", v),
                    "00 00 00 00 00 00 00 00");
            assertEncodes(DateTime.ofInstant(Instant.MIN), (e, v) -> e.writeDateTime("T", v),
                    "00 00 00 00 00 00 00 00");
        }

        @Test
        void date_time_at_or_after_year9999_end_is_encoded_as_int64_max() {
            // Part 6, 5.2.2.5: a value equal to or later than 9999-12-31 23:59:59 UTC is encoded as Int64 max.
            assertEncodes(DateTime.ofInstant(Instant.parse("9999-12-31T23:59:59Z")), (e, v) -> e.writeDateTime("T", v),
                    "FF FF FF FF FF FF FF 7F");
            assertEncodes(DateTime.ofInstant(Instant.parse("+10000-06-01T00:00:00Z")),
                    (e, v) -> e.writeDateTime("T", v), "FF FF FF FF FF FF FF 7F");
        }

        @Test
        void negative_ticks_decode_as_min_value() {
            // DateTime's documented rule (ticks below 0 are MIN_VALUE), Part 6, 5.2.2.5.
            assertDecodes("FF FF FF FF FF FF FF FF", d -> d.readDateTime("T"), DateTime.MIN_VALUE);
            assertDecodes("00 00 00 00 00 00 00 80", d -> d.readDateTime("T"), DateTime.MIN_VALUE);
        }

        @Test
        void guid_matches_the_specification_example_with_mixed_byte_order() {
            // Part 6, 5.2.2.6, Figure 5: Data1 UInt32 LE, Data2 and Data3 UInt16 LE, Data4 bytes in order.
            assertVector(SPEC_GUID_BYTES, SPEC_GUID, (e, v) -> e.writeGuid("G", v), d -> d.readGuid("G"));
        }

        @Test
        void guid_fields_are_each_in_their_own_byte_order() {
            // Derived from the rule in Part 6, 5.2.2.6 / 5.1.3 (Table 2).
            UUID guid = UUID.fromString("00112233-4455-6677-8899-AABBCCDDEEFF");
            assertVector("33 22 11 00 55 44 77 66 88 99 AA BB CC DD EE FF", guid, (e, v) -> e.writeGuid("G", v),
                    d -> d.readGuid("G"));
        }

        private void assertByteString(String hexBytes, ByteString value) {
            assertVector(hexBytes, value, (e, v) -> e.writeByteString("B", v), d -> d.readByteString("B"));
        }

        @Test
        void byte_string_null_empty_and_data() {
            // Derived from the rule in Part 6, 5.2.2.7: Int32 length (-1 for null), then the bytes.
            assertByteString("FF FF FF FF", ByteString.NULL);
            assertByteString("00 00 00 00", ByteString.EMPTY);
            assertByteString("03 00 00 00 01 02 03", ByteString.of(new byte[] {1, 2, 3}));
        }

        @Test
        void xml_element_is_a_utf8_string_with_length() {
            // Derived from the rule in Part 6, 5.2.2.8: encoded as a String (Int32 length, UTF-8 bytes).
            assertVector("08 00 00 00 3C 61 3E 31 3C 2F 61 3E", XmlElement.of("<a>1</a>"),
                    (e, v) -> e.writeXmlElement("X", v), d -> d.readXmlElement("X"));
            assertVector("FF FF FF FF", XmlElement.NULL, (e, v) -> e.writeXmlElement("X", v),
                    d -> d.readXmlElement("X"));
        }
    }

    // ---- NodeId, ExpandedNodeId (5.2.2.9, 5.2.2.10) ---------------------------------------------

    @Nested
    class NodeIds {

        @Test
        void two_byte_node_id_matches_the_specification_example() {
            // Part 6, 5.2.2.9, Table 8 and Figure 7: i=72 is 00 48.
            assertNodeId("00 48", NodeId.ns0(72));
        }

        @Test
        void four_byte_node_id_matches_the_specification_example() {
            // Part 6, 5.2.2.9, Table 9 and Figure 8: ns=5;i=1025 is 01 05 01 04.
            assertNodeId("01 05 01 04", NodeId.numeric(5, 1025));
        }

        @Test
        void string_node_id_matches_the_specification_example() {
            // Part 6, 5.2.2.9, Table 7 and Figure 6: ns=1;s=Hot水.
            assertNodeId("03 01 00 06 00 00 00 48 6F 74 E6 B0 B4", NodeId.string(1, "Hot水"));
        }

        @Test
        void numeric_node_id_takes_the_smallest_form_that_fits() {
            // Derived from Part 6, 5.2.2.9, Table 6: two-byte for ns 0 and id <= 255, four-byte for
            // ns <= 255 and id <= 65535, the full numeric form otherwise.
            assertNodeId("00 00", NodeId.NULL);
            assertNodeId("00 FF", NodeId.ns0(255));
            assertNodeId("01 00 00 01", NodeId.ns0(256));
            assertNodeId("01 00 FF FF", NodeId.ns0(65535));
            assertNodeId("01 FF FF FF", NodeId.numeric(255, 65535));
            assertNodeId("01 01 05 00", NodeId.numeric(1, 5));
            assertNodeId("02 00 00 00 00 01 00", NodeId.numeric(0, 65536));
            assertNodeId("02 00 01 01 00 00 00", NodeId.numeric(256, 1));
            assertNodeId("02 01 00 FF FF FF FF", NodeId.numeric(1, 4_294_967_295L));
        }

        @Test
        void longer_numeric_forms_of_small_ids_decode_to_the_same_node_id() {
            // Derived from Part 6, 5.2.2.9: the forms are alternatives for the same value.
            assertDecodes("02 00 00 48 00 00 00", d -> d.readNodeId("N"), NodeId.ns0(72));
            assertDecodes("01 00 48 00", d -> d.readNodeId("N"), NodeId.ns0(72));
            assertDecodes("02 05 00 01 04 00 00", d -> d.readNodeId("N"), NodeId.numeric(5, 1025));
        }

        @Test
        void guid_node_id_uses_the_guid_byte_order() {
            // Derived from Part 6, 5.2.2.9, Table 7 with the Guid of 5.2.2.6, Figure 5.
            assertNodeId("04 01 00 " + SPEC_GUID_BYTES, NodeId.guid(1, SPEC_GUID));
        }

        @Test
        void opaque_node_id_is_a_byte_string() {
            // Derived from Part 6, 5.2.2.9, Table 7.
            assertNodeId("05 03 00 04 00 00 00 DE AD BE EF",
                    NodeId.opaque(3, ByteString.of(new byte[] {(byte) 0xDE, (byte) 0xAD, (byte) 0xBE, (byte) 0xEF})));
        }

        @Test
        void string_node_id_with_null_identifier_is_length_minus_one() {
            // Derived from Part 6, 5.2.2.9 and 5.2.2.4.
            assertNodeId("03 01 00 FF FF FF FF", NodeId.string(1, null));
        }

        @Test
        void local_expanded_node_id_is_written_as_a_plain_node_id() {
            // Part 6, 5.2.2.10, Table 10: no flags when there is no NamespaceUri and ServerIndex is 0.
            assertExpandedNodeId("01 05 01 04", ExpandedNodeId.of(NodeId.numeric(5, 1025)));
        }

        @Test
        void namespace_uri_sets_flag0_x80_and_follows_the_node_id() {
            // Part 6, 5.2.2.10, Table 10 and Table 6 (NamespaceUri flag 0x80).
            assertExpandedNodeId("81 00 01 04  05 00 00 00 75 72 6E 3A 78",
                    ExpandedNodeId.of(NodeId.numeric(0, 1025), "urn:x", 0));
        }

        @Test
        void server_index_sets_flag0_x40_and_comes_last() {
            // Part 6, 5.2.2.10, Table 10 and Table 6 (ServerIndex flag 0x40).
            assertExpandedNodeId("40 48 02 00 00 00", ExpandedNodeId.of(NodeId.ns0(72), null, 2));
        }

        @Test
        void namespace_uri_and_server_index_together() {
            // Part 6, 5.2.2.10, Table 10: NodeId, then NamespaceUri, then ServerIndex.
            assertExpandedNodeId("C3 00 00 05 00 00 00 53 70 65 65 64"
                            + " 0E 00 00 00 75 72 6E 3A 61 63 6D 65 3A 6C 69 6E 65 31  07 00 00 00",
                    ExpandedNodeId.of(NodeId.string(0, "Speed"), "urn:acme:line1", 7));
        }

        @Test
        void expanded_node_id_with_namespace_uri_is_written_with_namespace_index_zero() {
            // Part 6, 5.2.2.10: "If the NamespaceUri is present, then the encoder shall encode the
            // NamespaceIndex as 0 in the stream when the NodeId portion is encoded."
            assertEncodes(ExpandedNodeId.of(NodeId.numeric(2, 1025), "urn:x", 0),
                    (e, v) -> e.writeExpandedNodeId("Id", v), "81 00 01 04  05 00 00 00 75 72 6E 3A 78");
        }

        @Test
        void empty_namespace_uri_is_not_written() {
            // Part 6, 5.2.2.10, Table 10: NamespaceUri "Not present if null or Empty".
            assertEncodes(ExpandedNodeId.of(NodeId.ns0(72), "", 0), (e, v) -> e.writeExpandedNodeId("Id", v), "00 48");
        }
    }

    // ---- StatusCode, QualifiedName, LocalizedText (5.2.2.11, 5.2.2.13, 5.2.2.14) ------------------

    @Nested
    class CodesAndNames {

        @Test
        void status_code_is_u_int32_little_endian() {
            // Derived from the rule in Part 6, 5.2.2.11.
            assertVector("00 00 34 80", StatusCode.of(StatusCodes.BadNodeIdUnknown),
                    (e, v) -> e.writeStatusCode("S", v), d -> d.readStatusCode("S"));
            assertVector("00 00 00 00", StatusCode.GOOD, (e, v) -> e.writeStatusCode("S", v),
                    d -> d.readStatusCode("S"));
            assertVector("00 00 BC 40", StatusCode.of(StatusCodes.UncertainReferenceNotDeleted),
                    (e, v) -> e.writeStatusCode("S", v), d -> d.readStatusCode("S"));
        }

        @Test
        void qualified_name_is_namespace_index_then_name() {
            // Derived from Part 6, 5.2.2.13, Table 12: UInt16 NamespaceIndex, String Name.
            assertVector("02 00 05 00 00 00 53 70 65 65 64", QualifiedName.of(2, "Speed"),
                    (e, v) -> e.writeQualifiedName("Q", v), d -> d.readQualifiedName("Q"));
            assertVector("00 00 FF FF FF FF", QualifiedName.NULL, (e, v) -> e.writeQualifiedName("Q", v),
                    d -> d.readQualifiedName("Q"));
        }

        private void assertLocalizedText(String hexBytes, LocalizedText value) {
            assertVector(hexBytes, value, (e, v) -> e.writeLocalizedText("L", v), d -> d.readLocalizedText("L"));
        }

        @Test
        void localized_text_mask_zero_has_no_fields() {
            // Derived from Part 6, 5.2.2.14, Table 13.
            assertLocalizedText("00", LocalizedText.NULL);
        }

        @Test
        void localized_text_mask_one_has_only_the_locale() {
            // Derived from Part 6, 5.2.2.14, Table 13: 0x01 Locale.
            assertLocalizedText("01 02 00 00 00 65 6E", LocalizedText.of("en", null));
        }

        @Test
        void localized_text_mask_two_has_only_the_text() {
            // Derived from Part 6, 5.2.2.14, Table 13: 0x02 Text.
            assertLocalizedText("02 02 00 00 00 48 69", LocalizedText.of("Hi"));
        }

        @Test
        void localized_text_mask_three_has_locale_then_text() {
            // Derived from Part 6, 5.2.2.14, Table 13: Locale before Text.
            assertLocalizedText("03 05 00 00 00 64 65 2D 44 45 04 00 00 00 48 61 6C 6C", LocalizedText.of("de-DE", "Hall"));
        }
    }

    // ---- ExtensionObject (5.2.2.15) -------------------------------------------------------------

    @Nested
    class ExtensionObjects {

        @Test
        void null_extension_object_is_null_type_id_and_no_body() {
            // Derived from Part 6, 5.2.2.15, Table 14: TypeId, Encoding 0x00, no body.
            assertExtensionObject("00 00 00", ExtensionObject.NULL);
        }

        @Test
        void type_id_without_body_has_encoding_zero() {
            // Derived from Part 6, 5.2.2.15, Table 14.
            assertExtensionObject("01 02 88 13 00", ExtensionObject.ofEmpty(NodeId.numeric(2, 5000)));
        }

        @Test
        void known_structure_is_decoded_from_its_binary_body() {
            // Derived from Part 6, 5.2.2.15, Table 14 and 5.2.6: AnonymousIdentityToken, DefaultBinary i=321,
            // body = PolicyId String, Length 13.
            ExtensionObject value = ExtensionObject.of(new AnonymousIdentityToken("anonymous"));
            assertExtensionObject("01 00 41 01  01  0D 00 00 00  09 00 00 00 61 6E 6F 6E 79 6D 6F 75 73", value);
        }

        @Test
        void argument_structure_body_has_its_fields_in_order() {
            // Derived from Part 6, 5.2.2.15 and 5.2.6 with Argument (DefaultBinary i=298): Name, DataType,
            // ValueRank, ArrayDimensions (null), Description. Body length 27.
            Argument argument = new Argument("X", NodeId.ns0(11), -1, null, LocalizedText.of("en", "d"));
            assertExtensionObject("01 00 2A 01  01  1B 00 00 00"
                    + "  01 00 00 00 58  00 0B  FF FF FF FF  FF FF FF FF  03 02 00 00 00 65 6E 01 00 00 00 64",
                    ExtensionObject.of(argument));
        }

        @Test
        void known_structure_body_longer_than_its_fields_is_skipped_to_its_length() {
            // Part 6, 5.2.2.15: the Length lets a decoder skip bytes it does not understand; two extra
            // bytes after the PolicyId (derived).
            assertDecodes("01 00 41 01  01  0F 00 00 00  09 00 00 00 61 6E 6F 6E 79 6D 6F 75 73  AA BB",
                    d -> d.readExtensionObject("Body"), ExtensionObject.of(new AnonymousIdentityToken("anonymous")));
        }

        @Test
        void unknown_encoding_id_keeps_the_body_as_raw_bytes_and_re_encodes_them_identically() {
            // Derived from Part 6, 5.2.2.15, Table 14: ByteString body of an encoding the decoder does not know.
            String bytes = "01 02 89 13  01  03 00 00 00 01 02 03";
            ExtensionObject value = ExtensionObject.ofBinary(NodeId.numeric(2, 5001), ByteString.of(new byte[] {1, 2, 3}));
            assertExtensionObject(bytes, value);

            ByteBuf in = Unpooled.wrappedBuffer(hex(bytes));
            try {
                ExtensionObject decoded = new UaDecoder(REGISTRY, EncodingLimits.DEFAULT, in).readExtensionObject("Body");
                assertThat(decoded.isDecoded()).isFalse();
                assertThat(decoded.rawBody()).isEqualTo(ByteString.of(new byte[] {1, 2, 3}));
                assertEncodes(decoded, (e, v) -> e.writeExtensionObject("Body", v), bytes);
            } finally {
                in.release();
            }
            assertThat(in.refCnt()).isZero();
        }

        @Test
        void xml_body_has_encoding_two() {
            // Derived from Part 6, 5.2.2.15, Table 14: 0x02 XmlElement body.
            assertExtensionObject("01 02 8A 13  02  04 00 00 00 3C 61 2F 3E",
                    ExtensionObject.ofXml(NodeId.numeric(2, 5002), XmlElement.of("<a/>")));
        }
    }

    // ---- DataValue (5.2.2.17) -------------------------------------------------------------------

    @Nested
    class DataValues {

        @Test
        void empty_data_value_is_a_zero_mask() {
            // Part 6, 5.2.2.17, Table 16: a mask with no bits and no fields.
            assertDataValue("00", DataValue.NULL);
        }

        @Test
        void value_bit0_x01() {
            // Derived from Part 6, 5.2.2.17, Table 16.
            assertDataValue("01 06 2A 00 00 00", DataValue.of(Variant.ofInt32(42)));
        }

        @Test
        void status_code_bit0_x02() {
            // Derived from Part 6, 5.2.2.17, Table 16: present when the status is not Good.
            assertDataValue("02 00 00 34 80", DataValue.ofStatus(StatusCode.of(StatusCodes.BadNodeIdUnknown)));
        }

        @Test
        void source_timestamp_bit0_x04() {
            // Derived from Part 6, 5.2.2.17, Table 16.
            assertDataValue("04 " + TS1_BYTES, DataValue.of(Variant.NULL, null, TS1, null));
        }

        @Test
        void server_timestamp_bit0_x08() {
            // Derived from Part 6, 5.2.2.17, Table 16.
            assertDataValue("08 " + TS2_BYTES, DataValue.of(Variant.NULL, null, null, TS2));
        }

        @Test
        void source_picoseconds_bit0_x10_follows_the_source_timestamp() {
            // Derived from Part 6, 5.2.2.17, Table 16: 1234 = 0x04D2.
            assertDataValue("14 " + TS1_BYTES + " D2 04", DataValue.of(Variant.NULL, null, TS1, 1234, null, 0));
        }

        @Test
        void server_picoseconds_bit0_x20_follows_the_server_timestamp() {
            // Derived from Part 6, 5.2.2.17, Table 16: 9999 = 0x270F.
            assertDataValue("28 " + TS2_BYTES + " 0F 27", DataValue.of(Variant.NULL, null, null, 0, TS2, 9999));
        }

        @Test
        void all_fields_are_in_wire_order_value_status_source_source_pico_server_server_pico() {
            // Part 6, 5.2.2.17, Table 16: Value, Status, SourceTimestamp, SourcePicoseconds,
            // ServerTimestamp, ServerPicoseconds (not in mask-bit order).
            DataValue value = DataValue.of(Variant.ofInt32(42), StatusCode.UNCERTAIN, TS1, 1234, TS2, 9999);
            assertDataValue("3F  06 2A 00 00 00  00 00 00 40  " + TS1_BYTES + "  D2 04  " + TS2_BYTES + "  0F 27", value);
        }

        @Test
        void picoseconds_of_ten_thousand_or_more_decode_as9999() {
            // Part 6, 5.2.2.17: "The decoder shall treat values greater than or equal to 10 000 as the value 9999."
            // 10000 = 0x2710, 0xFFFF = 65535.
            assertDecodes("14 " + TS1_BYTES + " 10 27", d -> d.readDataValue("V"),
                    DataValue.of(Variant.NULL, null, TS1, 9999, null, 0));
            assertDecodes("28 " + TS2_BYTES + " FF FF", d -> d.readDataValue("V"),
                    DataValue.of(Variant.NULL, null, null, 0, TS2, 9999));
        }

        @Test
        void source_timestamp_of_min_value_leaves_its_mask_bit_clear() {
            // Part 6, 5.2.2.17, Table 16: bit 0x04 is "False if the SourceTimestamp is DateTime.MinValue",
            // bit 0x08 likewise for the ServerTimestamp.
            assertEncodes(DataValue.of(Variant.ofInt32(42), null, DateTime.MIN_VALUE, DateTime.MIN_VALUE),
                    (e, v) -> e.writeDataValue("V", v), "01 06 2A 00 00 00");
        }
    }

    // ---- Variant (5.2.2.16) ---------------------------------------------------------------------

    @Nested
    class Variants {

        @Test
        void null_variant_is_a_zero_mask() {
            // Part 6, 5.2.2.16, Table 15: a mask of 0 is NULL with no other fields.
            assertVariant("00", Variant.NULL);
        }

        static Stream<Arguments> scalars() {
            // Derived from Part 6, 5.2.2.16, Table 15: mask = built-in type id (Part 6, 5.1.2, Table 1),
            // then the value by the rule of its type.
            return Stream.of(
                    Arguments.of("Boolean", Variant.ofBoolean(true), "01 01"),
                    Arguments.of("SByte", Variant.ofSByte((byte) -2), "02 FE"),
                    Arguments.of("Byte", Variant.ofByte(200), "03 C8"),
                    Arguments.of("Int16", Variant.ofInt16((short) -300), "04 D4 FE"),
                    Arguments.of("UInt16", Variant.ofUInt16(60000), "05 60 EA"),
                    Arguments.of("Int32", Variant.ofInt32(-100000), "06 60 79 FE FF"),
                    Arguments.of("UInt32", Variant.ofUInt32(3_000_000_000L), "07 00 5E D0 B2"),
                    Arguments.of("Int64", Variant.ofInt64(-2), "08 FE FF FF FF FF FF FF FF"),
                    Arguments.of("UInt64", Variant.ofUInt64(-2), "09 FE FF FF FF FF FF FF FF"),
                    Arguments.of("Float", Variant.ofFloat(-6.5f), "0A 00 00 D0 C0"),
                    Arguments.of("Double", Variant.ofDouble(3.14159), "0B 6E 86 1B F0 F9 21 09 40"),
                    Arguments.of("String", Variant.ofString("水Boy"), "0C 06 00 00 00 E6 B0 B4 42 6F 79"),
                    Arguments.of("DateTime", Variant.of(TS1), "0D " + TS1_BYTES),
                    Arguments.of("Guid", Variant.of(SPEC_GUID), "0E " + SPEC_GUID_BYTES),
                    Arguments.of("ByteString", Variant.of(ByteString.of(new byte[] {1, 2})), "0F 02 00 00 00 01 02"),
                    Arguments.of("XmlElement", Variant.of(XmlElement.of("<a/>")), "10 04 00 00 00 3C 61 2F 3E"),
                    Arguments.of("NodeId", Variant.of(NodeId.numeric(5, 1025)), "11 01 05 01 04"),
                    Arguments.of("ExpandedNodeId", Variant.of(ExpandedNodeId.of(NodeId.ns0(72), null, 2)),
                            "12 40 48 02 00 00 00"),
                    Arguments.of("StatusCode", Variant.of(StatusCode.of(StatusCodes.BadNodeIdUnknown)), "13 00 00 34 80"),
                    Arguments.of("QualifiedName", Variant.of(QualifiedName.of(2, "Speed")),
                            "14 02 00 05 00 00 00 53 70 65 65 64"),
                    Arguments.of("LocalizedText", Variant.of(LocalizedText.of("en", "Hi")),
                            "15 03 02 00 00 00 65 6E 02 00 00 00 48 69"),
                    Arguments.of("ExtensionObject", Variant.of(ExtensionObject.ofBinary(NodeId.numeric(2, 5001),
                            ByteString.of(new byte[] {1, 2, 3}))), "16 01 02 89 13 01 03 00 00 00 01 02 03"),
                    Arguments.of("ExtensionObject (decoded)", Variant.of(new AnonymousIdentityToken("a")),
                            "16 01 00 41 01 01 05 00 00 00 01 00 00 00 61"),
                    Arguments.of("DataValue", Variant.of(DataValue.of(Variant.ofInt32(42))), "17 01 06 2A 00 00 00"),
                    Arguments.of("DiagnosticInfo", Variant.of(diag(5, -1, -1, -1, null, null, null)),
                            "19 01 05 00 00 00"));
        }

        @ParameterizedTest(name = "{0}")
        @MethodSource("scalars")
        void scalar_of_each_builtin_type_is_its_type_id_then_its_value(String name, Variant value, String hexBytes) {
            assertThat(hex(hexBytes)[0]).isEqualTo((byte) value.type().typeId());
            assertVariant(hexBytes, value);
        }

        @Test
        void every_builtin_type_except_null_and_variant_has_a_scalar_vector() {
            assertThat(scalars().map(a -> ((Variant) a.get()[1]).type()).distinct())
                    .containsExactlyInAnyOrder(Stream.of(BuiltinType.values())
                            .filter(t -> t != BuiltinType.Null && t != BuiltinType.Variant)
                            .toArray(BuiltinType[]::new));
        }

        static Stream<Arguments> arrays() {
            // Derived from Part 6, 5.2.2.16, Table 15 (mask bit 7 = array) and 5.2.5 (Int32 length, elements).
            return Stream.of(
                    Arguments.of("Boolean", Variant.ofArray(BuiltinType.Boolean, new boolean[] {true, false}),
                            "81 02 00 00 00 01 00"),
                    Arguments.of("SByte", Variant.ofArray(BuiltinType.SByte, new byte[] {-1, 1}), "82 02 00 00 00 FF 01"),
                    Arguments.of("Byte", Variant.ofArray(BuiltinType.Byte, new short[] {0, 255}), "83 02 00 00 00 00 FF"),
                    Arguments.of("Int16", Variant.ofArray(BuiltinType.Int16, new short[] {1, -1}),
                            "84 02 00 00 00 01 00 FF FF"),
                    Arguments.of("UInt16", Variant.ofArray(BuiltinType.UInt16, new int[] {1, 65535}),
                            "85 02 00 00 00 01 00 FF FF"),
                    Arguments.of("Int32", Variant.ofArray(BuiltinType.Int32, new int[] {1, 2, 3}),
                            "86 03 00 00 00 01 00 00 00 02 00 00 00 03 00 00 00"),
                    Arguments.of("UInt32", Variant.ofArray(BuiltinType.UInt32, new long[] {1, 4_294_967_295L}),
                            "87 02 00 00 00 01 00 00 00 FF FF FF FF"),
                    Arguments.of("Int64", Variant.ofArray(BuiltinType.Int64, new long[] {1}),
                            "88 01 00 00 00 01 00 00 00 00 00 00 00"),
                    Arguments.of("UInt64", Variant.ofArray(BuiltinType.UInt64, new long[] {-1}),
                            "89 01 00 00 00 FF FF FF FF FF FF FF FF"),
                    Arguments.of("Float", Variant.ofArray(BuiltinType.Float, new float[] {1.5f}), "8A 01 00 00 00 00 00 C0 3F"),
                    Arguments.of("Double", Variant.ofArray(BuiltinType.Double, new double[] {500.0}),
                            "8B 01 00 00 00 00 00 00 00 00 40 7F 40"),
                    Arguments.of("Double (empty)", Variant.ofArray(BuiltinType.Double, new double[0]), "8B 00 00 00 00"),
                    Arguments.of("String", Variant.ofArray(BuiltinType.String, new String[] {"a", null}),
                            "8C 02 00 00 00 01 00 00 00 61 FF FF FF FF"),
                    Arguments.of("DateTime", Variant.ofArray(BuiltinType.DateTime,
                            new DateTime[] {DateTime.MIN_VALUE, DateTime.MAX_VALUE}),
                            "8D 02 00 00 00 00 00 00 00 00 00 00 00 FF FF FF FF FF FF FF 7F"),
                    Arguments.of("Guid", Variant.ofArray(BuiltinType.Guid, new UUID[] {SPEC_GUID}),
                            "8E 01 00 00 00 " + SPEC_GUID_BYTES),
                    Arguments.of("ByteString", Variant.ofArray(BuiltinType.ByteString,
                            new ByteString[] {ByteString.NULL, ByteString.EMPTY}), "8F 02 00 00 00 FF FF FF FF 00 00 00 00"),
                    Arguments.of("XmlElement", Variant.ofArray(BuiltinType.XmlElement, new XmlElement[] {XmlElement.of("<a/>")}),
                            "90 01 00 00 00 04 00 00 00 3C 61 2F 3E"),
                    Arguments.of("NodeId", Variant.ofArray(BuiltinType.NodeId,
                            new NodeId[] {NodeId.ns0(72), NodeId.numeric(5, 1025)}), "91 02 00 00 00 00 48 01 05 01 04"),
                    Arguments.of("ExpandedNodeId", Variant.ofArray(BuiltinType.ExpandedNodeId,
                            new ExpandedNodeId[] {ExpandedNodeId.of(NodeId.ns0(72))}), "92 01 00 00 00 00 48"),
                    Arguments.of("StatusCode", Variant.ofArray(BuiltinType.StatusCode, new StatusCode[] {StatusCode.GOOD,
                            StatusCode.of(StatusCodes.BadNodeIdUnknown)}), "93 02 00 00 00 00 00 00 00 00 00 34 80"),
                    Arguments.of("QualifiedName", Variant.ofArray(BuiltinType.QualifiedName,
                            new QualifiedName[] {QualifiedName.of(0, "a")}), "94 01 00 00 00 00 00 01 00 00 00 61"),
                    Arguments.of("LocalizedText", Variant.ofArray(BuiltinType.LocalizedText,
                            new LocalizedText[] {LocalizedText.NULL, LocalizedText.of("x")}),
                            "95 02 00 00 00 00 02 01 00 00 00 78"),
                    Arguments.of("ExtensionObject", Variant.ofArray(BuiltinType.ExtensionObject,
                            new ExtensionObject[] {ExtensionObject.NULL}), "96 01 00 00 00 00 00 00"),
                    Arguments.of("DataValue", Variant.ofArray(BuiltinType.DataValue,
                            new DataValue[] {DataValue.NULL, DataValue.ofStatus(StatusCode.BAD)}),
                            "97 02 00 00 00 00 02 00 00 00 80"),
                    Arguments.of("Variant", Variant.ofArray(BuiltinType.Variant,
                            new Variant[] {Variant.ofInt32(1), Variant.ofString("x"), Variant.NULL}),
                            "98 03 00 00 00 06 01 00 00 00 0C 01 00 00 00 78 00"),
                    Arguments.of("DiagnosticInfo", Variant.ofArray(BuiltinType.DiagnosticInfo,
                            new DiagnosticInfo[] {DiagnosticInfo.NULL, diag(1, -1, -1, -1, null, null, null)}),
                            "99 02 00 00 00 00 01 01 00 00 00"));
        }

        @ParameterizedTest(name = "{0}")
        @MethodSource("arrays")
        void one_dimensional_array_sets_bit0_x80_and_writes_length_then_elements(String name, Variant value, String hexBytes) {
            assertVariant(hexBytes, value);
        }

        @Test
        void matrix_sets_bit0_x40_and_writes_array_dimensions_after_the_values() {
            // Derived from Part 6, 5.2.2.16, Table 15: flat values (last index fastest), then
            // ArrayDimensionsLength and ArrayDimensions.
            Variant matrix = Variant.ofMatrix(BuiltinType.Int32, new int[] {1, 2, 3, 4, 5, 6}, new int[] {2, 3});
            assertVariant("C6  06 00 00 00  01 00 00 00 02 00 00 00 03 00 00 00 04 00 00 00 05 00 00 00 06 00 00 00"
                    + "  02 00 00 00  02 00 00 00 03 00 00 00", matrix);
        }

        @Test
        void three_dimensional_string_matrix() {
            // Derived from Part 6, 5.2.2.16, Table 15.
            Variant matrix = Variant.ofMatrix(BuiltinType.String, new String[] {"a", "b"}, new int[] {1, 1, 2});
            assertVariant("CC  02 00 00 00  01 00 00 00 61  01 00 00 00 62"
                    + "  03 00 00 00  01 00 00 00 01 00 00 00 02 00 00 00", matrix);
        }

        @Test
        void empty_matrix_with_a_zero_dimension_decodes_after_encoding() {
            // Part 6, 5.2.2.16 (v1.05, Table 20): "If one or more dimensions has a length <= 0 then the
            // ArrayLength is 0" and ArrayDimensions are only present when every dimension is > 0. A 2x0
            // matrix is a valid value; what the encoder writes for it must decode.
            Variant matrix = Variant.ofMatrix(BuiltinType.Int32, new int[0], new int[] {2, 0});
            ByteBuf buf = Unpooled.buffer();
            try {
                new UaEncoder(REGISTRY, buf).writeVariant("Value", matrix);
                Variant decoded = new UaDecoder(REGISTRY, EncodingLimits.DEFAULT, buf).readVariant("Value");
                assertThat(decoded.type()).isEqualTo(BuiltinType.Int32);
                assertThat((int[]) decoded.value()).isEmpty();
                assertThat(buf.readableBytes()).isZero();
            } finally {
                buf.release();
            }
            assertThat(buf.refCnt()).isZero();
        }

        @Test
        void array_of_variants_may_hold_arrays() {
            // Part 6, 5.2.2.16, Table 15: "The value shall not be a Variant but it could be an array of Variants";
            // bytes derived.
            Variant nested = Variant.ofArray(BuiltinType.Variant, new Variant[] {
                Variant.ofArray(BuiltinType.Int32, new int[] {1, 2}), Variant.NULL});
            assertVariant("98 02 00 00 00  86 02 00 00 00 01 00 00 00 02 00 00 00  00", nested);
        }
    }

    // ---- DiagnosticInfo (5.2.2.12) --------------------------------------------------------------

    @Nested
    class DiagnosticInfos {

        @Test
        void empty_diagnostic_info_is_a_zero_mask() {
            // Derived from Part 6, 5.2.2.12, Table 11.
            assertDiagnosticInfo("00", DiagnosticInfo.NULL);
        }

        @Test
        void each_mask_bit_carries_its_field() {
            // Derived from Part 6, 5.2.2.12, Table 11: 0x01 SymbolicId, 0x02 NamespaceUri, 0x04 LocalizedText,
            // 0x08 Locale, 0x10 AdditionalInfo, 0x20 InnerStatusCode, 0x40 InnerDiagnosticInfo.
            assertDiagnosticInfo("01 05 00 00 00", diag(5, -1, -1, -1, null, null, null));
            assertDiagnosticInfo("02 06 00 00 00", diag(-1, 6, -1, -1, null, null, null));
            assertDiagnosticInfo("04 07 00 00 00", diag(-1, -1, -1, 7, null, null, null));
            assertDiagnosticInfo("08 08 00 00 00", diag(-1, -1, 8, -1, null, null, null));
            assertDiagnosticInfo("10 01 00 00 00 78", diag(-1, -1, -1, -1, "x", null, null));
            assertDiagnosticInfo("20 00 00 34 80",
                    diag(-1, -1, -1, -1, null, StatusCode.of(StatusCodes.BadNodeIdUnknown), null));
            assertDiagnosticInfo("40 01 05 00 00 00",
                    diag(-1, -1, -1, -1, null, null, diag(5, -1, -1, -1, null, null, null)));
        }

        @Test
        void locale_is_written_before_localized_text_although_its_mask_bit_is_higher() {
            // Part 6, 5.2.2.12, Table 11: field order SymbolicId, NamespaceUri, Locale, LocalizedText,
            // AdditionalInfo, InnerStatusCode, InnerDiagnosticInfo.
            DiagnosticInfo all = diag(1, 2, 3, 4, "ab", StatusCode.of(StatusCodes.BadNodeIdUnknown),
                    diag(9, -1, -1, -1, null, null, null));
            assertDiagnosticInfo("7F  01 00 00 00  02 00 00 00  03 00 00 00  04 00 00 00  02 00 00 00 61 62"
                    + "  00 00 34 80  01 09 00 00 00", all);
        }

        @Test
        void inner_diagnostic_infos_nest_recursively() {
            // Derived from Part 6, 5.2.2.12, Table 11: the inner DiagnosticInfo follows its parent's fields.
            DiagnosticInfo chain = diag(-1, -1, -1, -1, null, StatusCode.BAD,
                    diag(-1, -1, -1, -1, "inner", null, diag(1, -1, -1, -1, null, null, null)));
            assertDiagnosticInfo("60 00 00 00 80  50 05 00 00 00 69 6E 6E 65 72  01 01 00 00 00", chain);
        }
    }
}
