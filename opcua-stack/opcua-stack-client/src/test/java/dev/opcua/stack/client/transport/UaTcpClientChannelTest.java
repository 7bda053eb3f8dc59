package dev.opcua.stack.client.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.client.transport.ScriptedUaServer.Mode;
import dev.opcua.stack.core.Failures;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.structured.GetEndpointsRequest;
import dev.opcua.stack.core.types.structured.GetEndpointsResponse;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link UaTcpClientChannel} over real sockets against a {@link ScriptedUaServer}: connection errors,
 * timeouts on the timer wheel, the thread futures complete on, and closing.
 */
class UaTcpClientChannelTest {

    private static final TransportQuotas QUOTAS = TransportQuotas.builder()
            .operationTimeout(Duration.ofSeconds(5)).build();

    private static ClientResources resources;

    @BeforeAll
    static void createResources() {
        resources = ClientResources.builder().ioThreads(1).callbackThreads(2).build();
    }

    @AfterAll
    static void closeResources() {
        resources.close();
    }

    @Test
    void exchanges_requests_and_completes_futures_on_the_io_thread_that_read_the_response() throws Exception {
        try (ScriptedUaServer server = new ScriptedUaServer(Mode.SLOW_ANSWER)) {
            UaTcpClientChannel channel = connect(server.endpointUrl(), QUOTAS);
            assertThat(channel.secureChannelId()).isEqualTo(ScriptedUaServer.CHANNEL_ID);
            assertThat(channel.tokenId()).isEqualTo(ScriptedUaServer.TOKEN_ID);

            CompletableFuture<String> thread = channel.request(getEndpoints(server, 0), GetEndpointsResponse.class)
                    .thenApply(r -> Thread.currentThread().getName());
            assertThat(thread.get(5, TimeUnit.SECONDS)).startsWith("opcua-client-io-");

            channel.close().get(5, TimeUnit.SECONDS);
            server.awaitReceived("CLO");
            assertThat(server.received()).containsExactly("HEL", "OPN", "MSG", "CLO");
        }
    }

    @Test
    void a_request_completing_on_the_io_thread_does_so_and_its_failure_completes_on_the_callback_executor() throws Exception {
        try (ScriptedUaServer server = new ScriptedUaServer(Mode.SLOW_ANSWER)) {
            UaTcpClientChannel channel = connect(server.endpointUrl(), QUOTAS);
            CompletableFuture<String> thread = channel.requestCompletingOnIoThread(getEndpoints(server, 0),
                    GetEndpointsResponse.class).thenApply(r -> Thread.currentThread().getName());
            assertThat(thread.get(5, TimeUnit.SECONDS)).startsWith("opcua-client-io-");
            channel.close().get(5, TimeUnit.SECONDS);
        }
        try (ScriptedUaServer server = new ScriptedUaServer(Mode.SILENT)) {
            UaTcpClientChannel channel = connect(server.endpointUrl(), QUOTAS);
            CompletableFuture<String> thread = channel.requestCompletingOnIoThread(getEndpoints(server, 100),
                    GetEndpointsResponse.class).handle((r, failure) -> Failures.status(failure) == StatusCodes.BadTimeout
                            ? Thread.currentThread().getName() : "not BadTimeout: " + failure);
            assertThat(thread.get(5, TimeUnit.SECONDS)).startsWith("opcua-client-callback-");
            channel.close().get(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void a_request_without_response_fails_with_bad_timeout_after_its_timeout_hint() throws Exception {
        try (ScriptedUaServer server = new ScriptedUaServer(Mode.SILENT)) {
            UaTcpClientChannel channel = connect(server.endpointUrl(), QUOTAS);
            long start = System.nanoTime();
            CompletableFuture<GetEndpointsResponse> response =
                    channel.request(getEndpoints(server, 100), GetEndpointsResponse.class);
            assertStatus(response, StatusCodes.BadTimeout);
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isBetween(90L, 2000L);
            assertThat(channel.isOpen()).isTrue();
            channel.close().get(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void a_request_without_timeout_hint_uses_the_operation_timeout() throws Exception {
        try (ScriptedUaServer server = new ScriptedUaServer(Mode.SILENT)) {
            TransportQuotas quick = QUOTAS.toBuilder().operationTimeout(Duration.ofMillis(150)).build();
            UaTcpClientChannel channel = connect(server.endpointUrl(), quick);
            assertStatus(channel.request(getEndpoints(server, 0), GetEndpointsResponse.class), StatusCodes.BadTimeout);
            channel.close().get(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void the_handshake_fails_with_bad_timeout_when_the_server_never_acknowledges() throws Exception {
        try (ScriptedUaServer server = new ScriptedUaServer(Mode.NO_ACK)) {
            TransportQuotas quick = QUOTAS.toBuilder().operationTimeout(Duration.ofMillis(200)).build();
            assertStatus(UaTcpClientChannel.connect(server.endpointUrl(), quick, resources), StatusCodes.BadTimeout);
        }
    }

    @Test
    void the_server_hanging_up_fails_pending_requests_with_bad_connection_closed() throws Exception {
        try (ScriptedUaServer server = new ScriptedUaServer(Mode.HANG_UP)) {
            UaTcpClientChannel channel = connect(server.endpointUrl(), QUOTAS);
            assertStatus(channel.request(getEndpoints(server, 0), GetEndpointsResponse.class),
                    StatusCodes.BadConnectionClosed);
            channel.close().get(5, TimeUnit.SECONDS);
            assertThat(channel.isOpen()).isFalse();
        }
    }

    @Test
    void a_refused_connection_fails_with_bad_connection_rejected() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        assertStatus(UaTcpClientChannel.connect("opc.tcp://127.0.0.1:" + port, QUOTAS, resources),
                StatusCodes.BadConnectionRejected);
    }

    @Test
    void an_endpoint_url_of_another_scheme_fails_with_bad_tcp_endpoint_url_invalid() {
        assertStatus(UaTcpClientChannel.connect("http://127.0.0.1:4840", QUOTAS, resources),
                StatusCodes.BadTcpEndpointUrlInvalid);
    }

    @Test
    void close_is_idempotent_and_later_requests_fail_with_bad_secure_channel_closed() throws Exception {
        try (ScriptedUaServer server = new ScriptedUaServer(Mode.ANSWER)) {
            UaTcpClientChannel channel = connect(server.endpointUrl(), QUOTAS);
            CompletableFuture<Void> closed = channel.close();
            assertThat(channel.close()).isSameAs(closed);
            closed.get(5, TimeUnit.SECONDS);
            assertThat(channel.nettyChannel().isOpen()).isFalse();
            assertStatus(channel.request(getEndpoints(server, 0), GetEndpointsResponse.class),
                    StatusCodes.BadSecureChannelClosed);
        }
    }

    private static UaTcpClientChannel connect(String url, TransportQuotas quotas) throws Exception {
        return UaTcpClientChannel.connect(url, quotas, resources).get(5, TimeUnit.SECONDS);
    }

    private static GetEndpointsRequest getEndpoints(ScriptedUaServer server, long timeoutHint) {
        return new GetEndpointsRequest(RequestHeaders.create(timeoutHint), server.endpointUrl(), null, null);
    }

    private static void assertStatus(CompletableFuture<?> future, int status) {
        assertThatThrownBy(() -> future.get(5, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(UaException.class)
                .satisfies(e -> assertThat(((UaException) e).statusCode().value()).isEqualTo(status));
    }
}
