package dev.opcua.stack.server.transport.uasc;

import static dev.opcua.stack.server.testing.GoldenFrames.ACK;
import static dev.opcua.stack.server.testing.GoldenFrames.CHANNEL_ID;
import static dev.opcua.stack.server.testing.GoldenFrames.CLO;
import static dev.opcua.stack.server.testing.GoldenFrames.ENDPOINT_URL;
import static dev.opcua.stack.server.testing.GoldenFrames.HEL;
import static dev.opcua.stack.server.testing.GoldenFrames.MSG_GET_ENDPOINTS;
import static dev.opcua.stack.server.testing.GoldenFrames.OPN_ISSUE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.channel.AsymmetricSecurityHeader;
import dev.opcua.stack.core.channel.ChunkType;
import dev.opcua.stack.core.channel.MessageType;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import dev.opcua.stack.core.types.structured.GetEndpointsRequest;
import dev.opcua.stack.core.types.structured.GetEndpointsResponse;
import dev.opcua.stack.core.types.structured.OpenSecureChannelResponse;
import dev.opcua.stack.server.discovery.DiscoveryServices;
import dev.opcua.stack.server.testing.EmbeddedConnection;
import dev.opcua.stack.server.testing.Hex;
import dev.opcua.stack.server.testing.LeakWatch;
import dev.opcua.stack.server.testing.ServerFrames;
import dev.opcua.stack.server.testing.SyncTestListener;
import io.netty.buffer.ByteBuf;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A whole conversation with SecurityPolicy None against {@code UascServerHandler} in an
 * EmbeddedChannel: golden client frames (see {@code GoldenFrames}), fed whole, cut at every offset,
 * and byte by byte (Part 6, 7.1 and 6.7).
 */
class UascServerHandlerConversationTest {

    private static final DiscoveryServices DISCOVERY = DiscoveryServices.builder()
            .application("urn:test:server", "urn:test:product", "Test Server")
            .endpointUrls(List.of(ENDPOINT_URL))
            .build();

    private final ServerChannelSettings settings = EmbeddedConnection.settings(TransportQuotas.DEFAULT);
    private final SyncTestListener listener =
            new SyncTestListener(r -> r instanceof GetEndpointsRequest g ? DISCOVERY.getEndpoints(g) : null);

    @BeforeAll
    static void watchLeaks() {
        LeakWatch.install();
    }

    @AfterAll
    static void nothingLeaked() throws InterruptedException {
        LeakWatch.assertNoLeaks();
    }

    @Test
    void hello_is_answered_with_the_negotiated_acknowledge() {
        EmbeddedConnection connection = new EmbeddedConnection(settings, listener).write(HEL);

        assertThat(connection.read()).isEqualTo(ACK);
        assertThat(connection.channel.isActive()).isTrue();
        connection.finish();
    }

    @Test
    void a_response_frame_never_released_is_caught_as_held_bytes_at_the_close() {
        EmbeddedConnection connection = new EmbeddedConnection(settings, listener).write(HEL);
        connection.channel.runPendingTasks();
        ByteBuf ack = connection.channel.readOutbound(); // taken and, on purpose, not released

        assertThat(connection.heldBytes()).isPositive();
        assertThatThrownBy(connection::finish).isInstanceOf(AssertionError.class).hasMessageContaining("still held");
        ack.release();
        assertThat(connection.heldBytes()).isZero();
    }

    @Test
    void open_secure_channel_issue_assigns_a_channel_and_a_token() {
        EmbeddedConnection connection = new EmbeddedConnection(settings, listener).write(HEL).write(OPN_ISSUE);
        connection.read(); // ACK

        assertOpenResponse(connection.read());
        assertThat(listener.opened).singleElement().satisfies(channel -> {
            assertThat(channel.secureChannelId()).isEqualTo(CHANNEL_ID);
            assertThat(channel.endpointUrl()).isEqualTo(ENDPOINT_URL);
        });
        assertThat(settings.counters().secureChannels()).isEqualTo(1);
        connection.finish();
        assertThat(settings.counters().secureChannels()).isZero();
        assertThat(settings.counters().openConnections()).isZero();
        assertThat(listener.closed).hasSize(1);
    }

    @Test
    void a_request_reaches_the_listener_and_its_response_goes_back_on_the_channel() {
        EmbeddedConnection connection = new EmbeddedConnection(settings, listener)
                .write(HEL).write(OPN_ISSUE).write(MSG_GET_ENDPOINTS);
        connection.read(); // ACK
        connection.read(); // OPN

        assertGetEndpointsResponse(connection.read());
        assertThat(listener.requestIds).containsExactly(2L);
        connection.finish();
    }

    @Test
    void close_secure_channel_closes_the_socket_without_a_response() {
        EmbeddedConnection connection = new EmbeddedConnection(settings, listener)
                .write(HEL).write(OPN_ISSUE).write(MSG_GET_ENDPOINTS);
        connection.readAll();

        connection.write(CLO);

        assertThat(connection.readAll()).isEmpty();
        assertThat(connection.channel.isActive()).isFalse();
        assertThat(listener.closed).singleElement().satisfies(c -> assertThat(c.isOpen()).isFalse());
        assertThat(settings.counters().secureChannels()).isZero();
        connection.finish();
    }

    @Test
    void the_conversation_cut_at_every_offset_gets_the_same_answers() {
        byte[] stream = Hex.concat(HEL, OPN_ISSUE, MSG_GET_ENDPOINTS, CLO);
        for (int cut = 1; cut < stream.length; cut++) {
            ServerChannelSettings fresh = EmbeddedConnection.settings(TransportQuotas.DEFAULT);
            SyncTestListener recorder =
                    new SyncTestListener(r -> r instanceof GetEndpointsRequest g ? DISCOVERY.getEndpoints(g) : null);
            EmbeddedConnection connection = new EmbeddedConnection(fresh, recorder)
                    .write(stream, 0, cut)
                    .write(stream, cut, stream.length - cut);

            assertConversation(connection.readAll(), "cut at " + cut);
            assertThat(connection.channel.isActive()).as("closed by CLO, cut at " + cut).isFalse();
            connection.finish();
            assertThat(fresh.counters().openConnections()).isZero();
        }
    }

    @Test
    void the_conversation_fed_byte_by_byte_gets_the_same_answers() {
        byte[] stream = Hex.concat(HEL, OPN_ISSUE, MSG_GET_ENDPOINTS, CLO);
        EmbeddedConnection connection = new EmbeddedConnection(settings, listener);
        for (int i = 0; i < stream.length; i++) {
            connection.write(stream, i, 1);
        }

        assertConversation(connection.readAll(), "byte by byte");
        assertThat(connection.channel.isActive()).isFalse();
        connection.finish();
    }

    private static void assertConversation(List<byte[]> frames, String description) {
        assertThat(frames).as(description).hasSize(3);
        assertThat(frames.get(0)).as(description).isEqualTo(ACK);
        assertOpenResponse(frames.get(1));
        assertGetEndpointsResponse(frames.get(2));
    }

    /** The OPN response: Part 6, 6.7.2 headers and 6.7.4 body (Table 63). */
    private static void assertOpenResponse(byte[] frame) {
        ServerFrames.Chunk chunk = ServerFrames.chunk(frame);
        assertThat(chunk.type()).isEqualTo(MessageType.OPN);
        assertThat(chunk.chunkType()).isEqualTo(ChunkType.FINAL);
        assertThat(chunk.secureChannelId()).isEqualTo(CHANNEL_ID);
        assertThat(chunk.securityHeader()).isEqualTo(AsymmetricSecurityHeader.NONE);
        assertThat(chunk.sequenceNumber()).isEqualTo(1);
        assertThat(chunk.requestId()).isEqualTo(1);
        OpenSecureChannelResponse response = chunk.body(OpenSecureChannelResponse.class);
        assertThat(response.responseHeader().requestHandle()).isEqualTo(1);
        assertThat(response.responseHeader().serviceResult()).isEqualTo(StatusCode.GOOD);
        assertThat(response.serverProtocolVersion()).isZero();
        assertThat(response.securityToken().channelId()).isEqualTo(CHANNEL_ID);
        assertThat(response.securityToken().tokenId()).isEqualTo(1);
        assertThat(response.securityToken().revisedLifetime()).isEqualTo(60_000);
        assertThat(response.securityToken().createdAt().toInstant())
                .isBetween(Instant.now().minus(Duration.ofMinutes(1)), Instant.now().plusSeconds(1));
        assertThat(response.serverNonce().length()).isLessThanOrEqualTo(0);
    }

    /** The GetEndpoints response: symmetric headers (Part 6, Table 58) and the endpoints (Part 4, 5.4.4). */
    private static void assertGetEndpointsResponse(byte[] frame) {
        ServerFrames.Chunk chunk = ServerFrames.chunk(frame);
        assertThat(chunk.type()).isEqualTo(MessageType.MSG);
        assertThat(chunk.chunkType()).isEqualTo(ChunkType.FINAL);
        assertThat(chunk.secureChannelId()).isEqualTo(CHANNEL_ID);
        assertThat(chunk.tokenId()).isEqualTo(1);
        assertThat(chunk.sequenceNumber()).isEqualTo(2);
        assertThat(chunk.requestId()).isEqualTo(2);
        GetEndpointsResponse response = chunk.body(GetEndpointsResponse.class);
        assertThat(response.responseHeader().requestHandle()).isEqualTo(2);
        assertThat(response.endpoints()).singleElement().satisfies((EndpointDescription e) -> {
            assertThat(e.endpointUrl()).isEqualTo("opc.tcp://plant-gw:4840/");
            assertThat(e.securityPolicyUri()).isEqualTo(SecurityPolicy.None.uri());
            assertThat(e.securityMode()).isEqualTo(MessageSecurityMode.None);
            assertThat(e.server().applicationUri()).isEqualTo("urn:test:server");
        });
    }
}
