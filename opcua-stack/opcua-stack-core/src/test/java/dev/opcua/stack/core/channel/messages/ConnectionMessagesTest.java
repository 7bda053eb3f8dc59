package dev.opcua.stack.core.channel.messages;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.StatusCode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * HEL, ACK, ERR and RHE on the wire (Part 6, 7.1.2).
 *
 * <p>The golden vectors are written field by field from the table layouts of Part 6: the common
 * header of 7.1.2.2 (Table 71), Hello Table 72, Acknowledge Table 73, Error Table 74, ReverseHello
 * Table 75; UInt32 little-endian, String as an Int32 length and UTF-8 bytes (Part 6, 5.2.2).
 */
class ConnectionMessagesTest {

    // Part 6, 7.1.2.3, Table 72
    static final String HEL_HEX = ""
            + "48454C" + "46"     // MessageType "HEL", reserved 'F'
            + "38000000"          // MessageSize 56
            + "00000000"          // ProtocolVersion 0
            + "FFFF0000"          // ReceiveBufferSize 65535
            + "00200000"          // SendBufferSize 8192
            + "00002000"          // MaxMessageSize 2097152
            + "40000000"          // MaxChunkCount 64
            + "18000000"          // EndpointUrl: length 24, "opc.tcp://localhost:4840"
            + "6F70632E7463703A2F2F6C6F63616C686F73743A34383430";
    static final HelloMessage HEL =
            new HelloMessage(0, 65_535, 8192, 2_097_152, 64, "opc.tcp://localhost:4840");

    // Part 6, 7.1.2.4, Table 73
    static final String ACK_HEX = ""
            + "41434B" + "46"     // MessageType "ACK", reserved 'F'
            + "1C000000"          // MessageSize 28
            + "00000000"          // ProtocolVersion 0
            + "00200000"          // ReceiveBufferSize 8192
            + "FFFF0000"          // SendBufferSize 65535
            + "00002000"          // MaxMessageSize 2097152
            + "22000000";         // MaxChunkCount 34
    static final AcknowledgeMessage ACK = new AcknowledgeMessage(0, 8192, 65_535, 2_097_152, 34);

    // Part 6, 7.1.2.5, Table 74
    static final String ERR_HEX = ""
            + "455252" + "46"     // MessageType "ERR", reserved 'F'
            + "1F000000"          // MessageSize 31
            + "00008080"          // Error 0x80800000 Bad_TcpMessageTooLarge
            + "0F000000"          // Reason: length 15, "chunk too large"
            + "6368756E6B20746F6F206C61726765";
    static final ErrorMessage ERR = ErrorMessage.of(StatusCodes.BadTcpMessageTooLarge, "chunk too large");

    static final String ERR_NULL_REASON_HEX = ""
            + "455252" + "46"     // MessageType "ERR", reserved 'F'
            + "10000000"          // MessageSize 16
            + "00007E80"          // Error 0x807E0000 Bad_TcpMessageTypeInvalid
            + "FFFFFFFF";         // Reason: null
    static final ErrorMessage ERR_NULL_REASON = ErrorMessage.of(StatusCodes.BadTcpMessageTypeInvalid, null);

    // Part 6, 7.1.2.6, Table 75
    static final String RHE_HEX = ""
            + "524845" + "46"     // MessageType "RHE", reserved 'F'
            + "35000000"          // MessageSize 53
            + "12000000"          // ServerUri: length 18, "urn:example:server"
            + "75726E3A6578616D706C653A736572766572"
            + "13000000"          // EndpointUrl: length 19, "opc.tcp://host:4840"
            + "6F70632E7463703A2F2F686F73743A34383430";
    static final ReverseHelloMessage RHE = new ReverseHelloMessage("urn:example:server", "opc.tcp://host:4840");

    static Stream<Arguments> golden() {
        return Stream.of(
                golden("HEL", HEL, HEL_HEX, HEL::encode, HelloMessage::decode),
                golden("ACK", ACK, ACK_HEX, ACK::encode, AcknowledgeMessage::decode),
                golden("ERR", ERR, ERR_HEX, ERR::encode, ErrorMessage::decode),
                golden("ERR null reason", ERR_NULL_REASON, ERR_NULL_REASON_HEX, ERR_NULL_REASON::encode,
                        ErrorMessage::decode),
                golden("RHE", RHE, RHE_HEX, RHE::encode, ReverseHelloMessage::decode));
    }

    private static Arguments golden(String name, Object message, String hex, Consumer<ByteBuf> encode,
            Function<ByteBuf, Object> decode) {
        return Arguments.of(name, message, hex, encode, decode);
    }

    // ---- golden vectors ------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("golden")
    void encodes_to_the_golden_bytes(String name, Object message, String hex, Consumer<ByteBuf> encode,
            Function<ByteBuf, Object> decode) {
        ByteBuf out = Unpooled.buffer();
        try {
            out.writeByte(0x77); // the message starts at the writer index, not at 0
            encode.accept(out);
            out.skipBytes(1);
            assertThat(ByteBufUtil.hexDump(out)).isEqualToIgnoringCase(hex);
        } finally {
            out.release();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("golden")
    void decodes_the_golden_bytes(String name, Object message, String hex, Consumer<ByteBuf> encode,
            Function<ByteBuf, Object> decode) {
        ByteBuf frame = frame(hex);
        try {
            assertThat(decode.apply(frame)).isEqualTo(message);
            assertThat(frame.isReadable()).isFalse();
        } finally {
            frame.release();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("golden")
    void every_truncation_is_bad_decoding_error(String name, Object message, String hex, Consumer<ByteBuf> encode,
            Function<ByteBuf, Object> decode) {
        byte[] whole = HexFormat.of().parseHex(hex);
        for (int length = 0; length < whole.length; length++) {
            // as cut off, the header still claiming the whole size
            assertBadDecoding(decode, Unpooled.wrappedBuffer(whole, 0, length), name + " cut to " + length);
            if (length >= 8) {
                // with the MessageSize matching the cut, so that each body field runs short
                ByteBuf patched = Unpooled.copiedBuffer(whole, 0, length);
                patched.setIntLE(4, length);
                assertBadDecoding(decode, patched, name + " cut to " + length + ", size patched");
            }
        }
    }

    private static void assertBadDecoding(Function<ByteBuf, Object> decode, ByteBuf frame, String description) {
        try {
            Throwable thrown = catchThrowable(() -> decode.apply(frame));
            assertThat(thrown).as(description).isInstanceOf(UaException.class);
            assertThat(((UaException) thrown).statusCode().value()).as(description + ": " + thrown.getMessage())
                    .isEqualTo(StatusCodes.BadDecodingError);
        } finally {
            frame.release();
        }
    }

    @Test
    void truncation_message_names_the_field() {
        byte[] whole = HexFormat.of().parseHex(HEL_HEX);
        ByteBuf frame = Unpooled.copiedBuffer(whole, 0, 30);
        frame.setIntLE(4, 30);
        try {
            assertThatThrownBy(() -> HelloMessage.decode(frame))
                    .hasMessage("BadDecodingError (0x80070000): Hello.EndpointUrl: needs 4 bytes but only 2 remain");
        } finally {
            frame.release();
        }
    }

    @Test
    void size_mismatch_is_named() {
        ByteBuf frame = frame(ACK_HEX + "00");
        try {
            assertThatThrownBy(() -> AcknowledgeMessage.decode(frame))
                    .hasMessage("BadDecodingError (0x80070000): Acknowledge.MessageSize: 28 does not match the "
                            + "frame length 29");
        } finally {
            frame.release();
        }
    }

    @Test
    void other_message_type_is_refused() {
        ByteBuf frame = frame(ACK_HEX);
        try {
            UaException e = catchUa(() -> HelloMessage.decode(frame));
            assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadTcpMessageTypeInvalid);
            assertThat(e).hasMessageEndingWith("Hello: expected message type HEL, was 'ACK'");
        } finally {
            frame.release();
        }
    }

    @Test
    void bytes_after_the_last_field_are_skipped() {
        // a later protocol version may append fields
        ByteBuf frame = frame(ACK_HEX + "DEADBEEF");
        frame.setIntLE(4, 32);
        try {
            assertThat(AcknowledgeMessage.decode(frame)).isEqualTo(ACK);
            assertThat(frame.isReadable()).isFalse();
        } finally {
            frame.release();
        }
    }

    @Test
    void negative_string_length_other_than_null_is_malformed() {
        ByteBuf frame = frame(ERR_NULL_REASON_HEX);
        frame.setIntLE(12, -2);
        try {
            UaException e = catchUa(() -> ErrorMessage.decode(frame));
            assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadDecodingError);
            assertThat(e).hasMessageEndingWith("Error.Reason: negative length -2");
        } finally {
            frame.release();
        }
    }

    @Test
    void round_trips_unicode_and_extreme_values() {
        HelloMessage hello = new HelloMessage(0xFFFF_FFFFL, 0xFFFF_FFFFL, 0, 0x8000_0000L, 1,
                "opc.tcp://grüße.example:4840/€/\uD83D\uDE00");
        ReverseHelloMessage rhe = new ReverseHelloMessage(null, "");
        ByteBuf buf = Unpooled.buffer();
        try {
            hello.encode(buf);
            rhe.encode(buf);
            assertThat(buf.getIntLE(4)).isEqualTo(32 + hello.endpointUrl().getBytes(StandardCharsets.UTF_8).length);
            int helloSize = buf.getIntLE(4);
            assertThat(HelloMessage.decode(buf.readSlice(helloSize))).isEqualTo(hello);
            assertThat(ReverseHelloMessage.decode(buf.readSlice(buf.readableBytes()))).isEqualTo(rhe);
        } finally {
            buf.release();
        }
    }

    // ---- EndpointUrl and ServerUri limit (Part 6, 7.1.2.3 and 7.1.2.6) -------------------------

    @Test
    void endpoint_url_of_4096_bytes_is_refused_on_decode() {
        ByteBuf frame = helloWithUrlBytes(4096);
        try {
            UaException e = catchUa(() -> HelloMessage.decode(frame));
            assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadTcpEndpointUrlInvalid);
            assertThat(e).hasMessageEndingWith("Hello.EndpointUrl: length 4096 exceeds the limit of 4095 bytes");
        } finally {
            frame.release();
        }
    }

    @Test
    void endpoint_url_of_4095_bytes_is_accepted() {
        ByteBuf frame = helloWithUrlBytes(4095);
        try {
            assertThat(HelloMessage.decode(frame).endpointUrl()).hasSize(4095);
        } finally {
            frame.release();
        }
    }

    @Test
    void endpoint_url_of_4096_utf8_bytes_cannot_be_built() {
        String url = "ü".repeat(2048); // 2048 characters, 4096 bytes
        UaException e = catchUa(() -> new HelloMessage(0, 8192, 8192, 0, 0, url));
        assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadTcpEndpointUrlInvalid);
        assertThat(e).hasMessageContaining("Hello.EndpointUrl: length 4096");
    }

    @Test
    void reverse_hello_server_uri_of_4096_bytes_is_refused() {
        ByteBuf frame = Unpooled.buffer();
        frame.writeBytes("RHEF".getBytes(StandardCharsets.US_ASCII)).writeIntLE(8 + 4 + 4096 + 4);
        frame.writeIntLE(4096).writeZero(4096).writeIntLE(-1);
        try {
            UaException e = catchUa(() -> ReverseHelloMessage.decode(frame));
            assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadTcpEndpointUrlInvalid);
            assertThat(e).hasMessageContaining("ReverseHello.ServerUri");
        } finally {
            frame.release();
        }
        assertThat(catchUa(() -> new ReverseHelloMessage("u", "x".repeat(4096))).statusCode().value())
                .isEqualTo(StatusCodes.BadTcpEndpointUrlInvalid);
    }

    private static ByteBuf helloWithUrlBytes(int length) {
        ByteBuf frame = Unpooled.buffer();
        frame.writeBytes("HELF".getBytes(StandardCharsets.US_ASCII)).writeIntLE(32 + length);
        frame.writeIntLE(0).writeIntLE(8192).writeIntLE(8192).writeIntLE(0).writeIntLE(0);
        frame.writeIntLE(length).writeBytes("a".repeat(length).getBytes(StandardCharsets.US_ASCII));
        return frame;
    }

    @Test
    void uint32_fields_out_of_range_cannot_be_built() {
        assertThatThrownBy(() -> new AcknowledgeMessage(0, -1, 8192, 0, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("receiveBufferSize must be a UInt32 (0 to 4294967295), was -1");
        assertThatThrownBy(() -> new HelloMessage(0, 8192, 8192, 0x1_0000_0000L, 0, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("maxMessageSize must be a UInt32");
    }

    // ---- Error reason (Part 6, 7.1.2.5) --------------------------------------------------------

    @Test
    void error_reason_over_4096_bytes_is_ignored() {
        ByteBuf frame = errorWithReasonBytes(4097);
        try {
            ErrorMessage error = ErrorMessage.decode(frame);
            assertThat(error.reason()).isNull();
            assertThat(error.status()).isEqualTo(StatusCode.of(StatusCodes.BadTcpInternalError));
            assertThat(frame.isReadable()).isFalse();
        } finally {
            frame.release();
        }
    }

    @Test
    void error_reason_of_4096_bytes_is_read_and_cut_below_4096() {
        ByteBuf frame = errorWithReasonBytes(4096);
        try {
            assertThat(ErrorMessage.decode(frame).reason()).hasSize(4095);
        } finally {
            frame.release();
        }
    }

    private static ByteBuf errorWithReasonBytes(int length) {
        ByteBuf frame = Unpooled.buffer();
        frame.writeBytes("ERRF".getBytes(StandardCharsets.US_ASCII)).writeIntLE(16 + length);
        frame.writeIntLE(StatusCodes.BadTcpInternalError).writeIntLE(length);
        frame.writeBytes("r".repeat(length).getBytes(StandardCharsets.US_ASCII));
        return frame;
    }

    @Test
    void error_reason_is_cut_at_a_character_boundary_below_4096_bytes() {
        assertThat(ErrorMessage.of(StatusCodes.BadTcpInternalError, "a".repeat(5000)).reason()).hasSize(4095);
        // 3-byte characters: 1365 of them are 4095 bytes
        assertThat(ErrorMessage.of(StatusCodes.BadTcpInternalError, "€".repeat(2000)).reason()).hasSize(1365);
        // 4-byte code points: 1023 of them are 4092 bytes; no pair is split
        String cut = ErrorMessage.of(StatusCodes.BadTcpInternalError, "\uD83D\uDE00".repeat(1100)).reason();
        assertThat(cut).isEqualTo("\uD83D\uDE00".repeat(1023));
        String fits = "b".repeat(4095);
        assertThat(ErrorMessage.of(StatusCodes.BadTcpInternalError, fits).reason()).isSameAs(fits);
    }

    @Test
    void error_status_helper() {
        assertThat(ERR.error()).isEqualTo(0x8080_0000L);
        assertThat(ERR.status().value()).isEqualTo(StatusCodes.BadTcpMessageTooLarge);
    }

    // ---- helpers -------------------------------------------------------------------------------

    private static ByteBuf frame(String hex) {
        return Unpooled.wrappedBuffer(HexFormat.of().parseHex(hex));
    }

    private static UaException catchUa(Runnable action) {
        Throwable thrown = catchThrowable(action::run);
        assertThat(thrown).isInstanceOf(UaException.class);
        return (UaException) thrown;
    }
}
