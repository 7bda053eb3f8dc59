package dev.opcua.stack.server.hostile;

import static dev.opcua.stack.server.testing.GoldenFrames.HEL;
import static dev.opcua.stack.server.testing.GoldenFrames.OPN_ISSUE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.channel.ChunkType;
import dev.opcua.stack.core.channel.MessageType;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.server.transport.uasc.TransportRejection;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.structured.ChannelSecurityToken;
import dev.opcua.stack.core.types.structured.OpenSecureChannelResponse;
import dev.opcua.stack.server.testing.LeakWatch;
import dev.opcua.stack.server.testing.RawUaClient;
import dev.opcua.stack.server.testing.ServerFrames;
import dev.opcua.stack.server.testing.TestChunks;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Slowloris peers on a real socket: a Hello trickled a byte a second, a Hello or a partial
 * OpenSecureChannel followed by silence, a MSG chunk or a multi-chunk request never finished. Each is
 * answered ERR BadTimeout by the hello timeout or the message receive timeout, counted per
 * {@link TransportRejection}, while the well-behaved client's Reads succeed.
 */
class SlowlorisIT {

    @BeforeEach
    void watchLeaks() {
        LeakWatch.install();
    }

    @AfterEach
    void nothingLeaked() throws InterruptedException {
        LeakWatch.assertNoLeaks();
    }

    @Test
    void a_hello_trickled_one_byte_a_second_is_answered_with_bad_timeout_by_the_hello_timeout() throws Exception {
        try (HostileServer server = HostileServer.start(b -> { }).withGoodClient();
                RawUaClient slow = new RawUaClient(server.port()).readTimeout(20_000)) {
            Thread trickler = new Thread(() -> {
                try {
                    for (int i = 0; i < HEL.length - 1; i++) {
                        slow.send(new byte[] {HEL[i]});
                        Thread.sleep(1_000); // the scenario: one byte a second
                    }
                } catch (InterruptedException | RuntimeException e) {
                    // closed by the server or stopped by the test
                }
            }, "hostile-hello-trickler");
            trickler.start();
            try {
                server.assertGoodClientServed();

                assertTimeoutError(slow.readFrame());
                assertThat(slow.isClosedByServer()).isTrue();
            } finally {
                trickler.interrupt();
                trickler.join(5_000);
            }
            assertThat(server.rejected(TransportRejection.HANDSHAKE_TIMEOUT)).isEqualTo(1);
            server.assertGoodClientServed();
        }
    }

    @Test
    void a_hello_followed_by_silence_is_answered_with_bad_timeout() throws Exception {
        try (HostileServer server = HostileServer.start(b -> { }).withGoodClient();
                RawUaClient silent = new RawUaClient(server.port()).readTimeout(20_000)) {
            assertThat(ServerFrames.type(silent.send(HEL).readFrame())).isEqualTo(MessageType.ACK);
            server.assertGoodClientServed();

            assertTimeoutError(silent.readFrame());
            assertThat(silent.isClosedByServer()).isTrue();
            assertThat(server.rejected(TransportRejection.HANDSHAKE_TIMEOUT)).isEqualTo(1);
            server.assertGoodClientServed();
        }
    }

    @Test
    void an_open_secure_channel_cut_short_then_silence_is_answered_with_bad_timeout() throws Exception {
        try (HostileServer server = HostileServer.start(b -> { }).withGoodClient();
                RawUaClient silent = new RawUaClient(server.port()).readTimeout(20_000)) {
            silent.send(HEL).readFrame();
            silent.send(Arrays.copyOf(OPN_ISSUE, OPN_ISSUE.length / 2));
            server.assertGoodClientServed();

            assertTimeoutError(silent.readFrame());
            assertThat(silent.isClosedByServer()).isTrue();
            assertThat(server.rejected(TransportRejection.HANDSHAKE_TIMEOUT)).isEqualTo(1);
            server.assertGoodClientServed();
        }
    }

    @Test
    void a_msg_chunk_never_finished_is_answered_with_bad_timeout_by_the_message_receive_timeout() throws Exception {
        try (HostileServer server = HostileServer.start(b -> { }).withGoodClient();
                RawUaClient stalled = new RawUaClient(server.port()).readTimeout(20_000)) {
            ChannelSecurityToken token = open(stalled);
            byte[] chunk = TestChunks.getEndpoints(token.channelId(), token.tokenId(), 2, 2, server.endpointUrl());
            stalled.send(Arrays.copyOf(chunk, chunk.length - 10)); // the header announces 10 bytes more
            server.assertGoodClientServed();

            assertTimeoutError(stalled.readFrame());
            assertThat(stalled.isClosedByServer()).isTrue();
            assertThat(server.rejected(TransportRejection.RECEIVE_TIMEOUT)).isEqualTo(1);
            server.assertGoodClientServed();
        }
    }

    @Test
    void a_multi_chunk_request_whose_final_chunk_never_comes_is_answered_with_bad_timeout() throws Exception {
        try (HostileServer server = HostileServer.start(b -> { }).withGoodClient();
                RawUaClient stalled = new RawUaClient(server.port()).readTimeout(20_000)) {
            ChannelSecurityToken token = open(stalled);
            stalled.send(TestChunks.symmetric(MessageType.MSG, ChunkType.INTERMEDIATE, token.channelId(),
                    token.tokenId(), 2, 2, new byte[100]));
            server.assertGoodClientServed();

            assertTimeoutError(stalled.readFrame());
            assertThat(stalled.isClosedByServer()).isTrue();
            assertThat(server.rejected(TransportRejection.RECEIVE_TIMEOUT)).isEqualTo(1);
            server.assertGoodClientServed();
        }
    }

    @Test
    void whole_requests_sent_slowly_one_after_another_are_served_past_the_receive_timeout() throws Exception {
        try (HostileServer server = HostileServer.start(b -> { });
                RawUaClient patient = new RawUaClient(server.port()).readTimeout(20_000)) {
            ChannelSecurityToken token = open(patient);
            // Five requests over more than the 2 s timeout, each whole: the deadline is per message.
            for (int i = 0; i < 5; i++) {
                long sequence = 2 + i;
                patient.send(TestChunks.getEndpoints(token.channelId(), token.tokenId(), sequence, sequence,
                        server.endpointUrl()));
                assertThat(ServerFrames.type(patient.readFrame())).isEqualTo(MessageType.MSG);
                Thread.sleep(600); // the scenario: a patient client pauses between whole requests
            }
            assertThat(server.rejected(TransportRejection.RECEIVE_TIMEOUT)).isZero();
        }
    }

    private static ChannelSecurityToken open(RawUaClient client) {
        assertThat(ServerFrames.type(client.send(HEL).readFrame())).isEqualTo(MessageType.ACK);
        return ServerFrames.chunk(client.send(OPN_ISSUE).readFrame()).body(OpenSecureChannelResponse.class)
                .securityToken();
    }

    private static void assertTimeoutError(byte[] frame) {
        assertThat(ServerFrames.type(frame)).isEqualTo(MessageType.ERR);
        assertThat(StatusCode.of(ServerFrames.errorStatus(frame))).isEqualTo(StatusCode.of(StatusCodes.BadTimeout));
    }
}
