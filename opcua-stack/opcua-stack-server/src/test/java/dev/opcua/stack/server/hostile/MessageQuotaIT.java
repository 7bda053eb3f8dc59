package dev.opcua.stack.server.hostile;

import static dev.opcua.stack.server.testing.GoldenFrames.HEL;
import static dev.opcua.stack.server.testing.GoldenFrames.OPN_ISSUE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.client.transport.UaTcpClientChannel;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.channel.ChunkType;
import dev.opcua.stack.core.channel.MessageType;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.server.transport.uasc.TransportRejection;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ChannelSecurityToken;
import dev.opcua.stack.core.types.structured.OpenSecureChannelResponse;
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadResponse;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.server.testing.LeakWatch;
import dev.opcua.stack.server.testing.Hex;
import dev.opcua.stack.server.testing.RawUaClient;
import dev.opcua.stack.server.testing.ServerFrames;
import dev.opcua.stack.server.testing.TestChunks;
import dev.opcua.stack.server.testing.TestSessions;
import java.util.Arrays;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Chunks and messages past the quotas on a real socket (chunks of 8192 bytes, messages of 16384, at
 * most 3 chunks, arrays of 100 elements): a chunk over the buffer size is ERR BadTcpMessageTooLarge, a
 * request over MaxChunkCount or MaxMessageSize ERR BadRequestTooLarge (Part 6, 7.1.2.3 and 6.7.2; Part
 * 4, 5.3), an array over the decoder's limit a ServiceFault BadEncodingLimitsExceeded with the channel
 * kept; each counted, and the well-behaved client served throughout.
 */
class MessageQuotaIT {

    private static final TransportQuotas SMALL = HostileServer.SHORT_TIMERS.toBuilder()
            .maxBufferSize(8192).maxMessageSize(16_384).maxChunkCount(3).maxArrayLength(100).build();

    private static HostileServer server;

    @BeforeAll
    static void start() throws Exception {
        LeakWatch.install();
        server = HostileServer.start(b -> b.transportQuotas(SMALL)).withGoodClient();
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
        LeakWatch.assertNoLeaks();
    }

    @BeforeEach
    void goodClientFirst() throws Exception {
        server.assertGoodClientServed();
    }

    @AfterEach
    void goodClientAfter() throws Exception {
        server.assertGoodClientServed();
    }

    @Test
    void a_chunk_over_the_buffer_size_is_answered_with_tcp_message_too_large() {
        long before = server.rejected(TransportRejection.MESSAGE_TOO_LARGE);
        try (RawUaClient client = new RawUaClient(server.port()).readTimeout(20_000)) {
            ChannelSecurityToken token = open(client);
            client.send(Hex.bytes("4D 53 47 46", "29 23 00 00")); // MSGF of 9001 bytes, only its header

            assertError(client.readFrame(), StatusCodes.BadTcpMessageTooLarge);
            assertThat(client.isClosedByServer()).isTrue();
            assertThat(token.channelId()).isPositive();
        }
        assertThat(server.rejected(TransportRejection.MESSAGE_TOO_LARGE)).isEqualTo(before + 1);
    }

    @Test
    void a_request_of_more_chunks_than_max_chunk_count_is_answered_with_request_too_large() {
        long before = server.rejected(TransportRejection.MESSAGE_TOO_LARGE);
        try (RawUaClient client = new RawUaClient(server.port()).readTimeout(20_000)) {
            ChannelSecurityToken token = open(client);
            for (int i = 0; i < 4; i++) {
                client.send(TestChunks.symmetric(MessageType.MSG, ChunkType.INTERMEDIATE, token.channelId(),
                        token.tokenId(), 2 + i, 2, new byte[100]));
            }

            assertError(client.readFrame(), StatusCodes.BadRequestTooLarge);
            assertThat(client.isClosedByServer()).isTrue();
        }
        assertThat(server.rejected(TransportRejection.MESSAGE_TOO_LARGE)).isEqualTo(before + 1);
    }

    @Test
    void a_request_over_max_message_size_is_answered_with_request_too_large() {
        long before = server.rejected(TransportRejection.MESSAGE_TOO_LARGE);
        try (RawUaClient client = new RawUaClient(server.port()).readTimeout(20_000)) {
            ChannelSecurityToken token = open(client);
            for (int i = 0; i < 3; i++) { // 3 x 8000 bytes of body: within the count, over 16384 bytes
                client.send(TestChunks.symmetric(MessageType.MSG, ChunkType.INTERMEDIATE, token.channelId(),
                        token.tokenId(), 2 + i, 2, new byte[8000]));
            }

            assertError(client.readFrame(), StatusCodes.BadRequestTooLarge);
            assertThat(client.isClosedByServer()).isTrue();
        }
        assertThat(server.rejected(TransportRejection.MESSAGE_TOO_LARGE)).isEqualTo(before + 1);
    }

    @Test
    void an_array_over_the_decoders_limit_is_a_service_fault_and_the_channel_stays_up() throws Exception {
        long before = server.server().statistics().requests().undecodable();
        UaTcpClientChannel client = server.connect();
        try {
            NodeId session = TestSessions.open(client, server.endpointUrl());
            ReadValueId[] nodes = new ReadValueId[101];
            Arrays.fill(nodes, new ReadValueId(NodeId.ns0(NodeIds.Server_ServerStatus_State), AttributeIds.Value, null,
                    QualifiedName.NULL));

            assertThatThrownBy(() -> client.request(new ReadRequest(TestSessions.header(session), 0,
                    TimestampsToReturn.Neither, nodes), ReadResponse.class).get(20, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(UaException.class)
                    .satisfies(e -> assertThat(((UaException) e).statusCode())
                            .isEqualTo(StatusCode.of(StatusCodes.BadEncodingLimitsExceeded)));
            HostileServer.assertReadSucceeds(client, session);
            assertThat(server.server().statistics().requests().undecodable()).isEqualTo(before + 1);
        } finally {
            client.close().get(10, TimeUnit.SECONDS);
        }
    }

    private static ChannelSecurityToken open(RawUaClient client) {
        assertThat(ServerFrames.type(client.send(HEL).readFrame())).isEqualTo(MessageType.ACK);
        return ServerFrames.chunk(client.send(OPN_ISSUE).readFrame()).body(OpenSecureChannelResponse.class)
                .securityToken();
    }

    private static void assertError(byte[] frame, int status) {
        assertThat(ServerFrames.type(frame)).isEqualTo(MessageType.ERR);
        assertThat(StatusCode.of(ServerFrames.errorStatus(frame))).isEqualTo(StatusCode.of(status));
    }
}
