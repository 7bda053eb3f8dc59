package dev.opcua.stack.server.transport.uasc;

import static dev.opcua.stack.server.testing.GoldenFrames.CHANNEL_ID;
import static dev.opcua.stack.server.testing.GoldenFrames.ENDPOINT_URL;
import static dev.opcua.stack.server.testing.GoldenFrames.HEL;
import static dev.opcua.stack.server.testing.GoldenFrames.OPN_ISSUE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.channel.ChunkType;
import dev.opcua.stack.core.channel.MessageType;
import dev.opcua.stack.core.channel.messages.AcknowledgeMessage;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.enumerated.SecurityTokenRequestType;
import dev.opcua.stack.core.types.structured.OpenSecureChannelRequest;
import dev.opcua.stack.core.types.structured.OpenSecureChannelResponse;
import dev.opcua.stack.core.types.structured.ServiceFault;
import dev.opcua.stack.server.testing.EmbeddedConnection;
import dev.opcua.stack.server.testing.Hex;
import dev.opcua.stack.server.testing.LeakWatch;
import dev.opcua.stack.server.testing.ServerFrames;
import dev.opcua.stack.server.testing.SyncTestListener;
import dev.opcua.stack.server.testing.TestChunks;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Hostile and broken input to {@code UascServerHandler}: each is answered with an ERR carrying the
 * status of Part 6, 7.1.5 / 6.7.6 (or the one documented on the handler where the spec names none),
 * after which the connection is closed, with every buffer released.
 */
class UascServerHandlerHostileInputTest {

    private static final String BASIC256SHA256 = "http://opcfoundation.org/UA/SecurityPolicy#Basic256Sha256";

    private ServerChannelSettings settings = EmbeddedConnection.settings(TransportQuotas.DEFAULT);
    private final SyncTestListener listener = new SyncTestListener();
    private EmbeddedConnection connection;

    @BeforeAll
    static void watchLeaks() {
        LeakWatch.install();
    }

    @AfterAll
    static void nothingLeaked() throws InterruptedException {
        LeakWatch.assertNoLeaks();
    }

    @AfterEach
    void everythingIsReleased() {
        if (connection != null) {
            connection.finish();
        }
        assertThat(settings.counters().openConnections()).isZero();
        assertThat(settings.counters().secureChannels()).isZero();
        assertThat(settings.channelIds().liveCount()).isZero();
    }

    // ---- before and at the Hello --------------------------------------------------------------

    @Test
    void garbage_bytes_are_answered_with_message_type_invalid() {
        connect().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));

        assertErrorAndClosed(StatusCodes.BadTcpMessageTypeInvalid);
    }

    @Test
    void an_unknown_message_type_is_answered_with_message_type_invalid() {
        connect().write(Hex.bytes("58 59 5A 46", "10 00 00 00", "00 00 00 00 00 00 00 00")); // "XYZ" 'F', 16 bytes

        assertErrorAndClosed(StatusCodes.BadTcpMessageTypeInvalid);
    }

    @Test
    void a_message_size_smaller_than_the_header_is_answered_with_decoding_error() {
        connect().write(Hex.bytes("48 45 4C 46", "04 00 00 00")); // HEL claiming 4 bytes

        assertErrorAndClosed(StatusCodes.BadDecodingError);
    }

    @Test
    void an_open_before_the_hello_is_answered_with_message_type_invalid() {
        connect().write(OPN_ISSUE);

        assertErrorAndClosed(StatusCodes.BadTcpMessageTypeInvalid);
    }

    @Test
    void a_hello_with_buffer_sizes_of_zero_is_refused() {
        connect().write(TestChunks.hello(ENDPOINT_URL, 0, 0, 0, 0));

        // BufferNegotiation's choice: the spec names no status for sizes below 8192 (Part 6, 7.1.2.3).
        assertErrorAndClosed(StatusCodes.BadCommunicationError);
    }

    @Test
    void a_hello_with_buffer_sizes_of_2_pow_31_is_acknowledged_with_the_servers_maximum() {
        connect().write(TestChunks.hello(ENDPOINT_URL, 1L << 31, 1L << 31, 0, 0));

        // Legal UInt32 values: the ACK clamps them to maxBufferSize (Part 6, 7.1.2.4).
        AcknowledgeMessage ack = AcknowledgeMessage.decode(Unpooled.wrappedBuffer(connection.read()));
        assertThat(ack.receiveBufferSize()).isEqualTo(65_535);
        assertThat(ack.sendBufferSize()).isEqualTo(65_535);
        assertThat(connection.channel.isActive()).isTrue();
    }

    @Test
    void a_hello_for_a_path_the_server_does_not_serve_is_answered_with_endpoint_url_invalid() {
        connect().write(TestChunks.hello("opc.tcp://localhost:4840/other"));

        assertErrorAndClosed(StatusCodes.BadTcpEndpointUrlInvalid);
    }

    @Test
    void a_second_hello_is_answered_with_message_type_invalid() {
        connect().write(HEL);
        connection.read();

        connection.write(HEL);

        assertErrorAndClosed(StatusCodes.BadTcpMessageTypeInvalid);
    }

    @Test
    void an_error_message_from_the_client_is_answered_with_message_type_invalid() {
        connect().write(HEL);
        connection.read();

        connection.write(Hex.bytes("45 52 52 46", "10 00 00 00", "00 00 82 80", "FF FF FF FF"));

        assertErrorAndClosed(StatusCodes.BadTcpMessageTypeInvalid);
    }

    @Test
    void the_connection_beyond_max_connections_is_answered_with_not_enough_resources() {
        settings = EmbeddedConnection.settings(TransportQuotas.builder().maxConnections(1).build());
        EmbeddedConnection first = new EmbeddedConnection(settings, listener);

        connect();

        assertErrorAndClosed(StatusCodes.BadTcpNotEnoughResources);
        assertThat(first.channel.isActive()).isTrue();
        first.finish();
    }

    // ---- chunk sizes and counts -----------------------------------------------------------------

    @Test
    void a_chunk_larger_than_the_negotiated_buffer_is_answered_with_message_too_large() {
        open(TestChunks.hello(ENDPOINT_URL, 65_536, 8192, 0, 0));

        connection.write(TestChunks.symmetric(MessageType.MSG, ChunkType.FINAL, CHANNEL_ID, 1, 2, 2, new byte[8192]));

        assertErrorAndClosed(StatusCodes.BadTcpMessageTooLarge);
    }

    @Test
    void more_chunks_than_the_acknowledged_max_chunk_count_are_answered_with_request_too_large() {
        settings = EmbeddedConnection.settings(TransportQuotas.builder().maxChunkCount(2).build());
        open(HEL);

        connection.write(intermediate(2, 100)).write(intermediate(3, 100)).write(intermediate(4, 100));

        assertErrorAndClosed(StatusCodes.BadRequestTooLarge);
    }

    @Test
    void a_message_larger_than_the_acknowledged_max_message_size_is_answered_with_request_too_large() {
        settings = EmbeddedConnection.settings(
                TransportQuotas.builder().maxBufferSize(8192).maxMessageSize(16_384).build());
        open(TestChunks.hello(ENDPOINT_URL, 8192, 8192, 0, 0));

        connection.write(intermediate(2, 8000)).write(intermediate(3, 8000)).write(intermediate(4, 8000));

        assertErrorAndClosed(StatusCodes.BadRequestTooLarge);
    }

    // ---- secure channel ids, tokens, sequence numbers -------------------------------------------

    @Test
    void a_message_before_the_open_is_answered_with_secure_channel_unknown() {
        connect().write(HEL);
        connection.read();

        connection.write(TestChunks.getEndpoints(0, 0, 1, 1, ENDPOINT_URL));

        assertErrorAndClosed(StatusCodes.BadTcpSecureChannelUnknown);
    }

    @Test
    void a_message_for_another_secure_channel_is_answered_with_secure_channel_unknown() {
        open(HEL);

        connection.write(TestChunks.getEndpoints(CHANNEL_ID + 1, 1, 2, 2, ENDPOINT_URL));

        assertErrorAndClosed(StatusCodes.BadTcpSecureChannelUnknown);
    }

    @Test
    void a_message_with_an_unknown_token_is_answered_with_token_unknown() {
        open(HEL);

        connection.write(TestChunks.getEndpoints(CHANNEL_ID, 7, 2, 2, ENDPOINT_URL));

        assertErrorAndClosed(StatusCodes.BadSecureChannelTokenUnknown);
    }

    @Test
    void a_gap_in_the_sequence_numbers_is_answered_with_sequence_number_invalid() {
        open(HEL);

        connection.write(TestChunks.getEndpoints(CHANNEL_ID, 1, 3, 2, ENDPOINT_URL)); // OPN had 1

        assertErrorAndClosed(StatusCodes.BadSequenceNumberInvalid);
    }

    @Test
    void a_close_for_another_secure_channel_is_answered_with_secure_channel_unknown() {
        open(HEL);

        connection.write(TestChunks.close(CHANNEL_ID + 5, 1, 2, 2));

        assertErrorAndClosed(StatusCodes.BadTcpSecureChannelUnknown);
    }

    @Test
    void a_close_before_the_open_is_answered_with_secure_channel_unknown() {
        connect().write(HEL);
        connection.read();

        connection.write(TestChunks.close(0, 0, 1, 1));

        assertErrorAndClosed(StatusCodes.BadTcpSecureChannelUnknown);
    }

    // ---- OpenSecureChannel ----------------------------------------------------------------------

    @Test
    void an_open_with_another_security_policy_is_answered_with_policy_rejected() {
        connect().write(HEL);
        connection.read();

        connection.write(TestChunks.open(0, BASIC256SHA256, 1, 1, issue(MessageSecurityMode.None)));

        assertErrorAndClosed(StatusCodes.BadSecurityPolicyRejected);
    }

    @Test
    void an_open_with_mode_sign_gets_a_service_fault_and_the_connection_stays_usable() {
        connect().write(HEL);
        connection.read();

        connection.write(TestChunks.open(0, TestChunks.NONE_URI, 1, 1, issue(MessageSecurityMode.Sign)));

        ServerFrames.Chunk fault = ServerFrames.chunk(connection.read());
        assertThat(fault.type()).isEqualTo(MessageType.OPN);
        assertThat(fault.body(ServiceFault.class).responseHeader().serviceResult())
                .isEqualTo(StatusCode.of(StatusCodes.BadSecurityModeRejected));
        assertThat(fault.body(ServiceFault.class).responseHeader().requestHandle()).isEqualTo(1);
        assertThat(connection.channel.isActive()).isTrue();

        connection.write(TestChunks.open(0, TestChunks.NONE_URI, 2, 2, issue(MessageSecurityMode.None)));
        assertThat(ServerFrames.chunk(connection.read()).message()).isInstanceOf(OpenSecureChannelResponse.class);
    }

    @Test
    void an_issue_naming_a_secure_channel_id_is_answered_with_secure_channel_unknown() {
        connect().write(HEL);
        connection.read();

        connection.write(TestChunks.open(1234, TestChunks.NONE_URI, 1, 1, issue(MessageSecurityMode.None)));

        assertErrorAndClosed(StatusCodes.BadTcpSecureChannelUnknown);
    }

    @Test
    void a_second_issue_on_an_open_channel_is_answered_with_request_type_invalid() {
        open(HEL);

        connection.write(TestChunks.open(CHANNEL_ID, TestChunks.NONE_URI, 2, 2, issue(MessageSecurityMode.None)));

        assertErrorAndClosed(StatusCodes.BadRequestTypeInvalid);
    }

    @Test
    void a_renew_without_an_open_channel_is_answered_with_secure_channel_unknown() {
        connect().write(HEL);
        connection.read();

        connection.write(TestChunks.open(0, TestChunks.NONE_URI, 1, 1, TestChunks.openRequest(
                SecurityTokenRequestType.Renew, MessageSecurityMode.None, 60_000, 1)));

        assertErrorAndClosed(StatusCodes.BadTcpSecureChannelUnknown);
    }

    @Test
    void an_open_with_another_protocol_version_than_the_hello_is_answered_with_version_unsupported() {
        connect().write(HEL);
        connection.read();
        OpenSecureChannelRequest v1 = new OpenSecureChannelRequest(TestChunks.requestHeader(1), 1,
                SecurityTokenRequestType.Issue, MessageSecurityMode.None, null, 60_000);

        connection.write(TestChunks.open(0, TestChunks.NONE_URI, 1, 1, v1));

        assertErrorAndClosed(StatusCodes.BadProtocolVersionUnsupported);
    }

    @Test
    void an_open_with_a_truncated_body_is_answered_with_decoding_error() {
        connect().write(HEL);
        connection.read();
        byte[] open = TestChunks.openIssue();
        byte[] truncated = Arrays.copyOf(open, open.length - 6);
        truncated[4] = (byte) truncated.length; // MessageSize, below 256 here

        connection.write(truncated);

        assertErrorAndClosed(StatusCodes.BadDecodingError);
    }

    // ---- aborts -----------------------------------------------------------------------------------

    @Test
    void an_abort_chunk_drops_the_partial_request_and_keeps_the_channel() {
        open(HEL);
        byte[] abortBody = Hex.bytes("00 00 B8 80", "FF FF FF FF"); // Error Bad_RequestTooLarge, Reason null (Table 62)

        connection.write(intermediate(2, 100))
                .write(TestChunks.symmetric(MessageType.MSG, ChunkType.ABORT, CHANNEL_ID, 1, 3, 2, abortBody))
                .write(TestChunks.getEndpoints(CHANNEL_ID, 1, 4, 3, ENDPOINT_URL));

        assertThat(connection.channel.isActive()).isTrue();
        assertThat(listener.requestIds).containsExactly(3L);
        ServerFrames.Chunk fault = ServerFrames.chunk(connection.read());
        assertThat(fault.requestId()).isEqualTo(3);
        assertThat(fault.body(ServiceFault.class).responseHeader().serviceResult())
                .isEqualTo(StatusCode.of(StatusCodes.BadServiceUnsupported));
    }

    // ---- helpers ----------------------------------------------------------------------------------

    private EmbeddedConnection connect() {
        connection = new EmbeddedConnection(settings, listener);
        return connection;
    }

    /** Connects, sends {@code hello} and the golden OPN Issue, and drops the answers. */
    private void open(byte[] hello) {
        connect().write(hello).write(OPN_ISSUE);
        List<byte[]> answers = connection.readAll();
        assertThat(answers).hasSize(2);
        assertThat(ServerFrames.type(answers.get(1))).isEqualTo(MessageType.OPN);
    }

    private static OpenSecureChannelRequest issue(MessageSecurityMode mode) {
        return TestChunks.openRequest(SecurityTokenRequestType.Issue, mode, 60_000, 1);
    }

    /** An intermediate MSG chunk of request 2 with a body of {@code size} bytes. */
    private static byte[] intermediate(long sequenceNumber, int size) {
        return TestChunks.symmetric(MessageType.MSG, ChunkType.INTERMEDIATE, CHANNEL_ID, 1, sequenceNumber, 2,
                new byte[size]);
    }

    private void assertErrorAndClosed(int status) {
        List<byte[]> frames = connection.readAll();
        assertThat(frames).as("frames written").isNotEmpty();
        byte[] last = frames.get(frames.size() - 1);
        assertThat(ServerFrames.type(last)).isEqualTo(MessageType.ERR);
        assertThat(StatusCode.of(ServerFrames.errorStatus(last))).isEqualTo(StatusCode.of(status));
        assertThat(ServerFrames.errorReason(last)).isNotBlank();
        assertThat(connection.channel.isActive()).as("connection closed").isFalse();
    }
}
