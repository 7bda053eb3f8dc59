package dev.opcua.stack.server.transport.uasc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.channel.messages.AcknowledgeMessage;
import dev.opcua.stack.core.channel.messages.HelloMessage;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.ids.StatusCodes;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The server's side of the buffer negotiation (Part 6, 7.1.2.4): the Acknowledge it answers a Hello with. */
class BufferNegotiationTest {

    private static HelloMessage hello(long receiveBufferSize, long sendBufferSize) {
        return new HelloMessage(0, receiveBufferSize, sendBufferSize, 0, 0, "opc.tcp://localhost:4840");
    }

    @ParameterizedTest(name = "ReceiveBufferSize {0}")
    @MethodSource("tooSmall")
    void receive_buffer_below_8192_is_refused(long size) {
        UaException e = catchUa(() -> BufferNegotiation.negotiate(hello(size, 65_535), TransportQuotas.DEFAULT));
        assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadCommunicationError);
        assertThat(e).hasMessageEndingWith(
                ": ReceiveBufferSize " + size + " is below the minimum 8192 (Part 6, 7.1.2.3)");
    }

    @ParameterizedTest(name = "SendBufferSize {0}")
    @MethodSource("tooSmall")
    void send_buffer_below_8192_is_refused(long size) {
        UaException e = catchUa(() -> BufferNegotiation.negotiate(hello(65_535, size), TransportQuotas.DEFAULT));
        assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadCommunicationError);
        assertThat(e).hasMessageEndingWith(": SendBufferSize " + size + " is below the minimum 8192 (Part 6, 7.1.2.3)");
    }

    static Stream<Long> tooSmall() {
        return Stream.of(0L, 1024L, 8191L);
    }

    @Test
    void minimum_is_accepted() {
        AcknowledgeMessage ack = BufferNegotiation.negotiate(hello(8192, 8192), TransportQuotas.DEFAULT);
        assertThat(ack).isEqualTo(new AcknowledgeMessage(0, 8192, 8192, 2_097_152, 34));
    }

    @Test
    void client_smaller_than_server_crosses_the_directions() {
        // the server receives what the client sends and sends what the client receives
        AcknowledgeMessage ack = BufferNegotiation.negotiate(hello(16_384, 32_768), TransportQuotas.DEFAULT);
        assertThat(ack.receiveBufferSize()).isEqualTo(32_768);
        assertThat(ack.sendBufferSize()).isEqualTo(16_384);
    }

    @Test
    void client_larger_than_server_gets_the_server_limit() {
        AcknowledgeMessage ack = BufferNegotiation.negotiate(hello(1 << 20, 70_000), TransportQuotas.DEFAULT);
        assertThat(ack.receiveBufferSize()).isEqualTo(65_535);
        assertThat(ack.sendBufferSize()).isEqualTo(65_535);
    }

    @Test
    void uint32_sizes_above_2_to_31_are_clamped() {
        TransportQuotas huge = TransportQuotas.builder()
                .maxBufferSize(Integer.MAX_VALUE).maxMessageSize(Integer.MAX_VALUE).build();
        AcknowledgeMessage ack = BufferNegotiation.negotiate(hello(1L << 31, 0xFFFF_FFFFL), huge);
        assertThat(ack.receiveBufferSize()).isEqualTo(Integer.MAX_VALUE);
        assertThat(ack.sendBufferSize()).isEqualTo(Integer.MAX_VALUE);
        assertThat(BufferNegotiation.negotiate(hello(0xFFFF_FFFFL, 1L << 31), TransportQuotas.DEFAULT))
                .isEqualTo(new AcknowledgeMessage(0, 65_535, 65_535, 2_097_152, 34));
    }

    @Test
    void any_protocol_version_is_answered_with_zero_and_the_server_limits() {
        HelloMessage newer = new HelloMessage(7, 65_535, 65_535, 1000, 2, null);
        TransportQuotas quotas = TransportQuotas.builder().maxMessageSize(100_000).maxChunkCount(9).build();
        assertThat(BufferNegotiation.negotiate(newer, quotas))
                .isEqualTo(new AcknowledgeMessage(0, 65_535, 65_535, 100_000, 9));
    }

    private static UaException catchUa(Runnable action) {
        Throwable thrown = catchThrowable(action::run);
        assertThat(thrown).isInstanceOf(UaException.class);
        return (UaException) thrown;
    }
}
