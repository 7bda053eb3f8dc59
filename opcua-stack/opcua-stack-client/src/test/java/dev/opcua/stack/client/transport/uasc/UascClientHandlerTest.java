package dev.opcua.stack.client.transport.uasc;

import static dev.opcua.stack.client.transport.uasc.GoldenFrames.abortBody;
import static dev.opcua.stack.client.transport.uasc.GoldenFrames.ack;
import static dev.opcua.stack.client.transport.uasc.GoldenFrames.concat;
import static dev.opcua.stack.client.transport.uasc.GoldenFrames.err;
import static dev.opcua.stack.client.transport.uasc.GoldenFrames.getEndpointsResponse;
import static dev.opcua.stack.client.transport.uasc.GoldenFrames.msgChunk;
import static dev.opcua.stack.client.transport.uasc.GoldenFrames.opnResponse;
import static dev.opcua.stack.client.transport.uasc.GoldenFrames.opnServiceFault;
import static dev.opcua.stack.client.transport.uasc.GoldenFrames.serviceFault;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.client.testing.ManualTimer;
import dev.opcua.stack.client.transport.uasc.GoldenFrames.Bytes;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.binary.UaDecoder;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.transport.tcp.UaTcpFrameDecoder;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.SecurityTokenRequestType;
import dev.opcua.stack.core.types.structured.CloseSecureChannelRequest;
import dev.opcua.stack.core.types.structured.GetEndpointsRequest;
import dev.opcua.stack.core.types.structured.GetEndpointsResponse;
import dev.opcua.stack.core.types.structured.OpenSecureChannelRequest;
import dev.opcua.stack.core.types.structured.RequestHeader;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link UascClientHandler} against a server played by the test through an {@link EmbeddedChannel}:
 * golden server frames from {@link GoldenFrames} in, the client's frames out. Futures complete on a
 * direct executor and time runs on a {@link ManualTimer}, so every test is deterministic.
 */
class UascClientHandlerTest {

    private static final String URL = "opc.tcp://localhost:4840/test";
    private static final Executor DIRECT = Runnable::run;
    private static final long CHANNEL_ID = 7;
    private static final long TOKEN_ID = 1;

    private final ManualTimer timer = new ManualTimer();
    private final List<ByteBuf> inputs = new ArrayList<>();
    private TransportQuotas quotas = TransportQuotas.builder().maxChunkCount(64).build();
    private UascClientHandler handler;
    private EmbeddedChannel channel;
    /** Sequence number of the next server chunk (Part 6, 6.7.2.4: +1 per chunk, any first value). */
    private long serverSequence = 51;

    @AfterEach
    void releaseEverything() {
        if (channel != null) {
            channel.finishAndReleaseAll();
        }
        for (ByteBuf in : inputs) {
            assertThat(in.refCnt()).as("input buffer released").isZero();
        }
    }

    // ---- handshake -------------------------------------------------------------------------------

    @Test
    void writes_hello_with_our_quotas_and_the_endpoint_url() {
        start();
        byte[] expected = new Bytes()
                .ascii("HELF").u32(32 + URL.length()) // Part 6, 7.1.2.3, Table 72
                .u32(0)                                // ProtocolVersion
                .u32(65535)                            // ReceiveBufferSize = maxBufferSize
                .u32(65535)                            // SendBufferSize = maxBufferSize
                .u32(2 * 1024 * 1024)                  // MaxMessageSize = maxMessageSize
                .u32(64)                               // MaxChunkCount
                .string(URL)                           // EndpointUrl
                .toArray();
        assertThat(readOutbound()).isEqualTo(expected);
    }

    @Test
    void answers_the_acknowledge_with_an_open_secure_channel_issue() {
        start();
        readOutbound(); // HEL
        feed(ack());
        byte[] opn = readOutbound();
        byte[] expected = new Bytes()
                .ascii("OPNF").u32(132)                // Part 6, 6.7.2.2, Table 56
                .u32(0)                                // SecureChannelId 0 for an Issue (6.7.6)
                .i32(47).ascii(GoldenFrames.NONE_POLICY_URI) // Table 57: policy None
                .i32(-1).i32(-1)                       // no certificate, no thumbprint
                .u32(1).u32(1)                         // SequenceNumber 1, RequestId 1 (Table 59)
                .hex("01 00 BE 01")                    // OpenSecureChannelRequest_Encoding_DefaultBinary, i=446
                .hex("00 00")                          // RequestHeader.AuthenticationToken: null NodeId
                .i64(0)                                // Timestamp: masked below
                .u32(1)                                // RequestHandle
                .u32(0)                                // ReturnDiagnostics
                .i32(-1)                               // AuditEntryId: null
                .u32(120_000)                          // TimeoutHint = operation timeout
                .hex("00 00 00")                       // AdditionalHeader: none
                .u32(0)                                // ClientProtocolVersion (6.7.4, Table 63)
                .u32(0)                                // RequestType Issue
                .u32(1)                                // SecurityMode None
                .i32(-1)                               // ClientNonce: null in mode None
                .u32(3_600_000)                        // RequestedLifetime = securityTokenLifetime
                .toArray();
        int timestampAt = 12 + 59 + 8 + 4 + 2;
        Arrays.fill(opn, timestampAt, timestampAt + 8, (byte) 0);
        assertThat(opn).isEqualTo(expected);
    }

    @Test
    void opens_the_channel_from_golden_frames_fed_whole_split_at_every_byte_and_byte_by_byte() {
        byte[] stream = concat(ack(), opnResponse(CHANNEL_ID, 51, 1, TOKEN_ID, 3_600_000),
                msgChunk('F', CHANNEL_ID, TOKEN_ID, 52, 2, getEndpointsResponse()));
        List<int[]> splits = new ArrayList<>();
        splits.add(new int[0]);
        for (int at = 1; at < stream.length; at++) {
            splits.add(new int[] {at});
        }
        int[] everyByte = new int[stream.length - 1];
        Arrays.setAll(everyByte, i -> i + 1);
        splits.add(everyByte);

        for (int[] cuts : splits) {
            startFresh();
            CompletableFuture<GetEndpointsResponse> response = new CompletableFuture<>();
            // Sent the moment the channel opens, before the next frame is read.
            handler.handshake().thenRun(() -> handler.request(getEndpoints(), GetEndpointsResponse.class, 1000)
                    .whenComplete((r, e) -> {
                        if (e != null) {
                            response.completeExceptionally(e);
                        } else {
                            response.complete(r);
                        }
                    }));
            int from = 0;
            for (int cut : cuts) {
                feed(Arrays.copyOfRange(stream, from, cut));
                from = cut;
            }
            feed(Arrays.copyOfRange(stream, from, stream.length));
            String where = "cuts " + Arrays.toString(cuts.length > 3 ? new int[] {cuts.length} : cuts);
            assertThat(handler.handshake()).as(where).isCompleted();
            assertThat(handler.secureChannelId()).as(where).isEqualTo(CHANNEL_ID);
            assertThat(handler.tokenId()).as(where).isEqualTo(TOKEN_ID);
            assertThat(response).as(where).isCompleted();
            assertThat(response.join().endpoints()).isEmpty();
            channel.finishAndReleaseAll();
            assertInputsReleased();
        }
    }

    @Test
    void fails_the_handshake_with_the_status_and_reason_of_an_error_instead_of_the_acknowledge() {
        start();
        feed(err(GoldenFrames.BAD_TCP_ENDPOINT_URL_INVALID, "no such endpoint"));
        assertFailure(handler.handshake(), StatusCodes.BadTcpEndpointUrlInvalid, "no such endpoint");
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void rejects_an_acknowledge_with_a_buffer_below_8192_bytes() {
        start();
        feed(ack(0, 4096, 65535, 0, 0));
        assertFailure(handler.handshake(), StatusCodes.BadCommunicationError, "ReceiveBufferSize 4096");
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void rejects_an_acknowledge_with_buffers_larger_than_the_hello_offered() {
        start();
        feed(ack(0, 65535, 131072, 0, 0));
        assertFailure(handler.handshake(), StatusCodes.BadCommunicationError, "SendBufferSize 131072");
    }

    @Test
    void rejects_an_acknowledge_of_a_newer_protocol_version() {
        start();
        feed(ack(1, 65535, 65535, 0, 0));
        assertFailure(handler.handshake(), StatusCodes.BadProtocolVersionUnsupported, "protocol version 1");
    }

    @Test
    void fails_the_handshake_with_the_service_result_of_a_service_fault_to_the_open() {
        start();
        feed(ack());
        feed(opnServiceFault(51, 1, 0x80550000)); // BadSecurityPolicyRejected
        assertFailure(handler.handshake(), StatusCodes.BadSecurityPolicyRejected, "open");
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void fails_the_handshake_with_bad_timeout_when_the_server_stays_silent() {
        quotas = TransportQuotas.builder().operationTimeout(Duration.ofMillis(500)).build();
        start();
        timer.advance(499);
        channel.runPendingTasks();
        assertThat(handler.handshake()).isNotDone();
        timer.advance(1);
        channel.runPendingTasks();
        assertFailure(handler.handshake(), StatusCodes.BadTimeout, "Acknowledge");
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void raises_the_frame_limit_to_our_receive_buffer_size_once_acknowledged() {
        start();
        byte[] big = msgChunk('F', CHANNEL_ID, TOKEN_ID, 52, 2, new byte[20_000]);
        open();
        feed(big); // over the 8192 handshake limit, within the negotiated 65535: accepted and dropped
        assertThat(channel.isOpen()).isTrue();
    }

    // ---- requests and responses ------------------------------------------------------------------

    @Test
    void reassembles_a_response_split_over_three_chunks() {
        openChannel();
        CompletableFuture<GetEndpointsResponse> response = request(1000);
        byte[] body = getEndpointsResponse();
        feed(msgChunk('C', CHANNEL_ID, TOKEN_ID, serverSequence++, 2, Arrays.copyOfRange(body, 0, 10)));
        feed(msgChunk('C', CHANNEL_ID, TOKEN_ID, serverSequence++, 2, Arrays.copyOfRange(body, 10, 20)));
        assertThat(response).isNotDone();
        feed(msgChunk('F', CHANNEL_ID, TOKEN_ID, serverSequence++, 2, Arrays.copyOfRange(body, 20, body.length)));
        assertThat(response).isCompleted();
        assertThat(response.join().responseHeader().serviceResult().isGood()).isTrue();
    }

    @Test
    void an_abort_chunk_fails_only_its_request() {
        openChannel();
        CompletableFuture<GetEndpointsResponse> aborted = request(1000);
        CompletableFuture<GetEndpointsResponse> other = request(1000);
        byte[] body = getEndpointsResponse();
        feed(msgChunk('C', CHANNEL_ID, TOKEN_ID, serverSequence++, 2, Arrays.copyOfRange(body, 0, 10)));
        feed(msgChunk('A', CHANNEL_ID, TOKEN_ID, serverSequence++, 2,
                abortBody(GoldenFrames.BAD_RESPONSE_TOO_LARGE, "response too large")));
        assertFailure(aborted, StatusCodes.BadResponseTooLarge, "response too large");
        assertThat(other).isNotDone();
        feed(msgChunk('F', CHANNEL_ID, TOKEN_ID, serverSequence++, 3, body));
        assertThat(other).isCompleted();
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void an_error_from_the_server_fails_every_pending_request_with_its_status() {
        openChannel();
        CompletableFuture<GetEndpointsResponse> first = request(1000);
        CompletableFuture<GetEndpointsResponse> second = request(1000);
        feed(err(GoldenFrames.BAD_TCP_INTERNAL_ERROR, "server trouble"));
        assertFailure(first, StatusCodes.BadTcpInternalError, "server trouble");
        assertFailure(second, StatusCodes.BadTcpInternalError, "server trouble");
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void a_service_fault_completes_the_request_exceptionally_with_its_service_result() {
        openChannel();
        CompletableFuture<GetEndpointsResponse> response = request(1000);
        feed(msgChunk('F', CHANNEL_ID, TOKEN_ID, serverSequence++, 2, serviceFault(GoldenFrames.BAD_SESSION_ID_INVALID)));
        assertFailure(response, StatusCodes.BadSessionIdInvalid, "ServiceFault");
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void a_response_of_another_type_fails_with_bad_unknown_response() {
        openChannel();
        CompletableFuture<CloseSecureChannelRequest> response =
                handler.request(getEndpoints(), CloseSecureChannelRequest.class, 1000);
        feed(msgChunk('F', CHANNEL_ID, TOKEN_ID, serverSequence++, 2, getEndpointsResponse()));
        assertFailure(response, StatusCodes.BadUnknownResponse, "GetEndpointsResponse");
    }

    @Test
    void a_response_for_an_unknown_request_id_is_released_and_dropped() {
        openChannel();
        ByteBuf in = feed(msgChunk('F', CHANNEL_ID, TOKEN_ID, serverSequence++, 99, getEndpointsResponse()));
        assertThat(in.refCnt()).isZero();
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void a_request_without_response_fails_with_bad_timeout_and_its_late_response_is_dropped() {
        openChannel();
        CompletableFuture<GetEndpointsResponse> response = request(50);
        timer.advance(49);
        assertThat(response).isNotDone();
        timer.advance(1);
        assertFailure(response, StatusCodes.BadTimeout, "50 ms");
        ByteBuf late = feed(msgChunk('F', CHANNEL_ID, TOKEN_ID, serverSequence++, 2, getEndpointsResponse()));
        assertThat(late.refCnt()).isZero();
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void cancelling_a_request_forgets_it_so_its_deadline_and_its_late_response_do_nothing() {
        openChannel();
        CompletableFuture<GetEndpointsResponse> response = request(50);
        response.cancel(false);
        timer.advance(50);
        assertThat(response).isCancelled();
        ByteBuf late = feed(msgChunk('F', CHANNEL_ID, TOKEN_ID, serverSequence++, 2, getEndpointsResponse()));
        assertThat(late.refCnt()).isZero();
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void requests_share_one_timer_entry_for_the_earliest_deadline_and_each_times_out_at_its_own() {
        openChannel();
        int timers = timer.pendingDelays().size();
        CompletableFuture<GetEndpointsResponse> first = request(1000);
        CompletableFuture<GetEndpointsResponse> second = request(2000);
        assertThat(timer.pendingDelays()).as("one entry for both").hasSize(timers + 1);

        timer.advance(1000);
        assertFailure(first, StatusCodes.BadTimeout, "1000 ms");
        assertThat(second).isNotDone();
        // the entry is set again for the second deadline, 1000 ms and the real time between the two
        // requests later (rounded up to the millisecond); a busy machine may take a few ms between them
        timer.advance(998);
        assertThat(second).isNotDone();
        timer.advance(100);
        assertFailure(second, StatusCodes.BadTimeout, "2000 ms");
    }

    @Test
    void a_request_over_the_servers_max_message_size_fails_at_once_and_nothing_is_sent() {
        start();
        readOutbound();
        feed(ack(0, 65535, 65535, 64, 0)); // the server takes requests of at most 64 bytes
        readOutbound();
        feed(opnResponse(CHANNEL_ID, serverSequence++, 1, TOKEN_ID, 3_600_000));
        CompletableFuture<GetEndpointsResponse> response = handler.request(
                new GetEndpointsRequest(header(), URL + "/" + "x".repeat(100), null, null),
                GetEndpointsResponse.class, 1000);
        assertFailure(response, StatusCodes.BadRequestTooLarge, "MaxMessageSize 64");
        assertThat(channel.outboundMessages()).isEmpty();
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void a_response_over_our_max_message_size_fails_only_its_request_and_its_later_chunks_are_dropped() {
        quotas = TransportQuotas.builder().maxBufferSize(8192).maxMessageSize(8192).build();
        start();
        readOutbound();
        feed(ack(0, 8192, 8192, 0, 0));
        readOutbound();
        feed(opnResponse(CHANNEL_ID, serverSequence++, 1, TOKEN_ID, 3_600_000));
        CompletableFuture<GetEndpointsResponse> tooLarge = request(1000);
        CompletableFuture<GetEndpointsResponse> next = request(1000);

        feed(msgChunk('C', CHANNEL_ID, TOKEN_ID, serverSequence++, 2, new byte[5000]));
        feed(msgChunk('C', CHANNEL_ID, TOKEN_ID, serverSequence++, 2, new byte[5000]));
        assertFailure(tooLarge, StatusCodes.BadResponseTooLarge, "MaxMessageSize 8192");
        feed(msgChunk('F', CHANNEL_ID, TOKEN_ID, serverSequence++, 2, new byte[100]));
        feed(msgChunk('F', CHANNEL_ID, TOKEN_ID, serverSequence++, 3, getEndpointsResponse()));
        assertThat(next).isCompleted();
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void a_gap_in_the_servers_sequence_numbers_closes_the_channel() {
        openChannel();
        CompletableFuture<GetEndpointsResponse> pending = request(1000);
        feed(msgChunk('F', CHANNEL_ID, TOKEN_ID, serverSequence + 1, 2, getEndpointsResponse()));
        assertFailure(pending, StatusCodes.BadSequenceNumberInvalid, "does not follow");
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void a_chunk_for_another_secure_channel_id_closes_the_channel() {
        openChannel();
        CompletableFuture<GetEndpointsResponse> pending = request(1000);
        feed(msgChunk('F', CHANNEL_ID + 1, TOKEN_ID, serverSequence++, 2, getEndpointsResponse()));
        assertFailure(pending, StatusCodes.BadTcpSecureChannelUnknown, "SecureChannelId 8");
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void a_request_before_the_channel_is_open_fails_with_bad_secure_channel_closed() {
        start();
        assertFailure(request(1000), StatusCodes.BadSecureChannelClosed, "not open");
    }

    // ---- renewal ---------------------------------------------------------------------------------

    @Test
    void renews_the_token_at_three_quarters_of_its_lifetime_and_sends_under_the_new_token_at_once() {
        start();
        readOutbound();
        feed(ack());
        readOutbound();
        feed(opnResponse(CHANNEL_ID, serverSequence++, 1, TOKEN_ID, 400));
        assertThat(handler.handshake()).isCompleted();

        timer.advance(299);
        channel.runPendingTasks();
        assertThat(channel.outboundMessages()).isEmpty();
        timer.advance(1);
        channel.runPendingTasks();
        ByteBuf renew = nextOutbound();
        long renewRequestId;
        try {
            assertThat(renew.getIntLE(8)).as("SecureChannelId in the Renew header").isEqualTo((int) CHANNEL_ID);
            renewRequestId = renew.getUnsignedIntLE(12 + 59 + 4);
            renew.readerIndex(12 + 59 + 8);
            OpenSecureChannelRequest request = (OpenSecureChannelRequest) decode(renew);
            assertThat(request.requestType()).isEqualTo(SecurityTokenRequestType.Renew);
        } finally {
            renew.release();
        }

        // Requests sent before the response still use token 1; after it, token 2 at once.
        CompletableFuture<GetEndpointsResponse> beforeSwitch = request(1000); // RequestId 3
        feed(opnResponse(CHANNEL_ID, serverSequence++, renewRequestId, 2, 400));
        assertThat(handler.tokenId()).isEqualTo(2);
        CompletableFuture<GetEndpointsResponse> afterSwitch = request(1000); // RequestId 4
        assertThat(sentTokenId()).as("TokenId of the MSG before the switch").isEqualTo(TOKEN_ID);
        assertThat(sentTokenId()).as("TokenId of the MSG after the switch").isEqualTo(2);

        // The server may still answer under the old token until it uses the new one.
        feed(msgChunk('F', CHANNEL_ID, TOKEN_ID, serverSequence++, 3, getEndpointsResponse()));
        assertThat(beforeSwitch).isCompleted();
        feed(msgChunk('F', CHANNEL_ID, 2, serverSequence++, 4, getEndpointsResponse()));
        assertThat(afterSwitch).isCompleted();
        assertThat(timer.pendingDelays()).as("the next renewal").contains(300L);

        // Once the new token was seen, the old one is refused: the channel closes.
        CompletableFuture<GetEndpointsResponse> late = request(1000); // RequestId 5
        feed(msgChunk('F', CHANNEL_ID, TOKEN_ID, serverSequence++, 5, getEndpointsResponse()));
        assertFailure(late, StatusCodes.BadSecureChannelTokenUnknown, "TokenId 1");
        assertThat(channel.isOpen()).isFalse();
    }

    // ---- closing ---------------------------------------------------------------------------------

    @Test
    void close_sends_close_secure_channel_and_fails_pending_requests_with_bad_secure_channel_closed() {
        openChannel();
        CompletableFuture<GetEndpointsResponse> pending = request(1000);
        readOutbound(); // the MSG
        CompletableFuture<Void> closed = handler.close();
        assertFailure(pending, StatusCodes.BadSecureChannelClosed, "closed");
        ByteBuf clo = nextOutbound();
        try {
            assertThat(clo.toString(0, 4, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("CLOF");
            assertThat(clo.getUnsignedIntLE(8)).isEqualTo(CHANNEL_ID);
            assertThat(clo.getUnsignedIntLE(12)).isEqualTo(TOKEN_ID);
            clo.readerIndex(24);
            assertThat(decode(clo)).isInstanceOf(CloseSecureChannelRequest.class);
        } finally {
            clo.release();
        }
        channel.runPendingTasks();
        assertThat(channel.isOpen()).isFalse();
        assertThat(closed).isCompleted();
        assertThat(handler.close()).isSameAs(closed);
        assertThat(timer.pendingDelays()).as("renewal and request timers cancelled").isEmpty();
    }

    @Test
    void losing_the_connection_fails_pending_requests_with_bad_connection_closed() {
        openChannel();
        CompletableFuture<GetEndpointsResponse> pending = request(1000);
        channel.close();
        assertFailure(pending, StatusCodes.BadConnectionClosed, "closed");
        assertFailure(request(1000), StatusCodes.BadSecureChannelClosed, "not open");
    }

    // ---- helpers ---------------------------------------------------------------------------------

    private void start() {
        handler = new UascClientHandler(URL, quotas, timer, DIRECT);
        channel = new EmbeddedChannel(new UaTcpFrameDecoder(UascClientHandler.HANDSHAKE_MAX_FRAME_SIZE), handler);
    }

    private void startFresh() {
        serverSequence = 51;
        start();
    }

    /** ACK and OPN response after HEL and OPN, the client's frames discarded. */
    private void open() {
        readOutbound();
        feed(ack());
        readOutbound();
        feed(opnResponse(CHANNEL_ID, serverSequence++, 1, TOKEN_ID, 3_600_000));
        assertThat(handler.handshake()).isCompleted();
    }

    private void openChannel() {
        start();
        open();
    }

    /** A request header with the RequestHandle 1 the golden responses echo. */
    private static RequestHeader header() {
        return new RequestHeader(NodeId.NULL, DateTime.now(), 1, 0, null, 0, ExtensionObject.NULL);
    }

    private CompletableFuture<GetEndpointsResponse> request(long timeoutMillis) {
        return handler.request(getEndpoints(), GetEndpointsResponse.class, timeoutMillis);
    }

    private static GetEndpointsRequest getEndpoints() {
        return new GetEndpointsRequest(header(), URL, null, null);
    }

    private ByteBuf feed(byte[] bytes) {
        ByteBuf in = Unpooled.wrappedBuffer(bytes);
        inputs.add(in);
        channel.writeInbound(in);
        return in;
    }

    /** The next frame the client wrote; writes go through the event loop's task queue, so run it first. */
    private ByteBuf nextOutbound() {
        channel.runPendingTasks();
        return channel.readOutbound();
    }

    private byte[] readOutbound() {
        ByteBuf out = nextOutbound();
        assertThat(out).as("a frame written by the client").isNotNull();
        try {
            return ByteBufUtil.getBytes(out);
        } finally {
            out.release();
        }
    }

    private long sentTokenId() {
        ByteBuf sent = nextOutbound();
        try {
            return sent.getUnsignedIntLE(12);
        } finally {
            sent.release();
        }
    }

    private void assertInputsReleased() {
        for (ByteBuf in : inputs) {
            assertThat(in.refCnt()).isZero();
        }
        inputs.clear();
    }

    private static UaStructure decode(ByteBuf body) {
        return new UaDecoder(CodecRegistry.standard(), EncodingLimits.DEFAULT).setBuffer(body).readMessage();
    }

    private static void assertFailure(CompletableFuture<?> future, int status, String messagePart) {
        assertThat(future).isCompletedExceptionally();
        assertThatThrownBy(future::join)
                .isInstanceOf(CompletionException.class)
                .cause()
                .isInstanceOf(UaException.class)
                .hasMessageContaining(messagePart)
                .satisfies(e -> assertThat(((UaException) e).statusCode().value()).isEqualTo(status));
    }
}
