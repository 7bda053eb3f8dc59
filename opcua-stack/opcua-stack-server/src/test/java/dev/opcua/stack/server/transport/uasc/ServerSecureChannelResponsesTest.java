package dev.opcua.stack.server.transport.uasc;

import static dev.opcua.stack.server.testing.GoldenFrames.CHANNEL_ID;
import static dev.opcua.stack.server.testing.GoldenFrames.ENDPOINT_URL;
import static dev.opcua.stack.server.testing.GoldenFrames.OPN_ISSUE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.channel.ChunkType;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.binary.UaDecoder;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.enumerated.ApplicationType;
import dev.opcua.stack.core.types.structured.ApplicationDescription;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import dev.opcua.stack.core.types.structured.GetEndpointsRequest;
import dev.opcua.stack.core.types.structured.GetEndpointsResponse;
import dev.opcua.stack.core.types.structured.ServiceFault;
import dev.opcua.stack.server.discovery.DiscoveryServices;
import dev.opcua.stack.server.testing.EmbeddedConnection;
import dev.opcua.stack.server.testing.LeakWatch;
import dev.opcua.stack.server.testing.ServerFrames;
import dev.opcua.stack.server.testing.SyncTestListener;
import dev.opcua.stack.server.testing.TestChunks;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Responses sent through {@code ServerSecureChannel}: chunked to the client's receive buffer, and
 * replaced by a ServiceFault BadResponseTooLarge when over the client's MaxMessageSize or MaxChunkCount
 * (Part 6, 7.1.2.3 and 6.7.3).
 */
class ServerSecureChannelResponsesTest {

    private final ServerChannelSettings settings = EmbeddedConnection.settings(TransportQuotas.DEFAULT);
    private final SyncTestListener listener = new SyncTestListener(
            request -> bigResponse(((GetEndpointsRequest) request).requestHeader().requestHandle(), 100));
    private final EmbeddedConnection connection = new EmbeddedConnection(settings, listener);

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
        connection.finish();
        assertThat(settings.counters().secureChannels()).isZero();
    }

    @Test
    void a_response_larger_than_a_chunk_is_sent_in_chunks_of_the_clients_receive_buffer_size() {
        open(8192, 0, 0);

        connection.write(TestChunks.getEndpoints(CHANNEL_ID, 1, 2, 7, ENDPOINT_URL));

        List<byte[]> frames = ServerFrames.split(connection.readAll());
        assertThat(frames.size()).isGreaterThan(1);
        ByteBuf body = Unpooled.buffer();
        for (int i = 0; i < frames.size(); i++) {
            byte[] frame = frames.get(i);
            assertThat(frame.length).isLessThanOrEqualTo(8192);
            ByteBuf buf = Unpooled.wrappedBuffer(frame);
            assertThat(buf.getByte(3)).isEqualTo(i == frames.size() - 1 ? (byte) 'F' : (byte) 'C');
            assertThat(buf.getUnsignedIntLE(16)).as("sequence number").isEqualTo(2 + i);
            assertThat(buf.getUnsignedIntLE(20)).as("request id").isEqualTo(7);
            body.writeBytes(buf, 24, frame.length - 24);
        }
        GetEndpointsResponse response = (GetEndpointsResponse) new UaDecoder(CodecRegistry.standard(),
                EncodingLimits.DEFAULT, body).readMessage();
        assertThat(response.endpoints()).hasSize(100);
        assertThat(response.responseHeader().requestHandle()).isEqualTo(7);
        body.release();
    }

    @Test
    void a_response_over_the_clients_max_message_size_is_replaced_by_a_service_fault() {
        open(65_536, 8192, 0);

        connection.write(TestChunks.getEndpoints(CHANNEL_ID, 1, 2, 7, ENDPOINT_URL));

        assertResponseTooLarge();
    }

    @Test
    void a_response_over_the_clients_max_chunk_count_is_replaced_by_a_service_fault() {
        open(8192, 0, 2);

        connection.write(TestChunks.getEndpoints(CHANNEL_ID, 1, 2, 7, ENDPOINT_URL));

        assertResponseTooLarge();
    }

    @Test
    void a_response_that_cannot_be_encoded_is_replaced_by_a_service_fault_with_the_encoders_status() {
        open(65_536, 0, 0);
        ApplicationDescription noType = new ApplicationDescription("urn:x", null, null, null, null, null, null);

        listener.opened.get(0).sendResponse(9, new GetEndpointsResponse(ResponseHeaders.good(9),
                new EndpointDescription[] {DiscoveryServices.noneEndpoint(ENDPOINT_URL, noType, List.of())}));

        ServiceFault fault = ServerFrames.chunk(connection.read()).body(ServiceFault.class);
        assertThat(fault.responseHeader().serviceResult()).isEqualTo(StatusCode.of(StatusCodes.BadEncodingError));
        assertThat(fault.responseHeader().requestHandle()).isEqualTo(9);
    }

    @Test
    void a_response_to_a_closed_channel_is_dropped() {
        open(65_536, 0, 0);
        connection.channel.close();

        listener.opened.get(0).sendResponse(9, bigResponse(9, 1));
        listener.opened.get(0).sendServiceFault(9, 9, StatusCodes.BadTimeout);

        assertThat(connection.readAll()).isEmpty();
    }

    private void assertResponseTooLarge() {
        ServerFrames.Chunk answer = ServerFrames.chunk(connection.read());
        assertThat(answer.chunkType()).isEqualTo(ChunkType.FINAL);
        assertThat(answer.requestId()).isEqualTo(7);
        ServiceFault fault = answer.body(ServiceFault.class);
        assertThat(fault.responseHeader().serviceResult()).isEqualTo(StatusCode.of(StatusCodes.BadResponseTooLarge));
        assertThat(fault.responseHeader().requestHandle()).isEqualTo(7);
        assertThat(connection.read()).isNull();
        assertThat(connection.channel.isActive()).isTrue();
    }

    private void open(long receiveBufferSize, long maxMessageSize, long maxChunkCount) {
        connection.write(TestChunks.hello(ENDPOINT_URL, receiveBufferSize, 65_536, maxMessageSize, maxChunkCount))
                .write(OPN_ISSUE);
        assertThat(connection.readAll()).hasSize(2);
    }

    /** A GetEndpoints response of about 300 bytes per endpoint. */
    private static GetEndpointsResponse bigResponse(long requestHandle, int endpoints) {
        ApplicationDescription app = new ApplicationDescription("urn:test:server", "urn:test:product",
                LocalizedText.of("Test"), ApplicationType.Server, null, null, null);
        List<EndpointDescription> list = new ArrayList<>(Collections.nCopies(endpoints, DiscoveryServices
                .noneEndpoint("opc.tcp://" + "h".repeat(200) + ":4840/", app, List.of(DiscoveryServices.ANONYMOUS))));
        return new GetEndpointsResponse(ResponseHeaders.good(requestHandle), list.toArray(EndpointDescription[]::new));
    }
}
