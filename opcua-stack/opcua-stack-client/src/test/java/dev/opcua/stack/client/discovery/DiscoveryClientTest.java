package dev.opcua.stack.client.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.client.transport.ScriptedUaServer;
import dev.opcua.stack.client.transport.ScriptedUaServer.Mode;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.ids.StatusCodes;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@link DiscoveryClient} closes its channel whatever the call's outcome. */
class DiscoveryClientTest {

    private static ClientResources resources;

    @BeforeAll
    static void createResources() {
        resources = ClientResources.builder().ioThreads(1).build();
    }

    @AfterAll
    static void closeResources() {
        resources.close();
    }

    @Test
    void get_endpoints_closes_the_channel_after_the_response() throws Exception {
        try (ScriptedUaServer server = new ScriptedUaServer(Mode.ANSWER)) {
            assertThat(DiscoveryClient.getEndpoints(server.endpointUrl(), TransportQuotas.DEFAULT, resources)
                    .get(5, TimeUnit.SECONDS)).isEmpty();
            server.awaitReceived("CLO");
            assertThat(server.received()).containsExactly("HEL", "OPN", "MSG", "CLO");
        }
    }

    @Test
    void get_endpoints_closes_the_channel_when_the_call_fails() throws Exception {
        try (ScriptedUaServer server = new ScriptedUaServer(Mode.SILENT)) {
            TransportQuotas quick = TransportQuotas.builder().operationTimeout(Duration.ofMillis(150)).build();
            assertStatus(DiscoveryClient.getEndpoints(server.endpointUrl(), quick, resources), StatusCodes.BadTimeout);
            server.awaitReceived("CLO");
            assertThat(server.received()).containsExactly("HEL", "OPN", "MSG", "CLO");
        }
    }

    @Test
    void find_servers_of_an_unreachable_endpoint_fails_with_bad_connection_rejected() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        assertStatus(DiscoveryClient.findServers("opc.tcp://127.0.0.1:" + port, TransportQuotas.DEFAULT, resources),
                StatusCodes.BadConnectionRejected);
    }

    private static void assertStatus(CompletableFuture<?> future, int status) {
        assertThatThrownBy(() -> future.get(5, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(UaException.class)
                .satisfies(e -> assertThat(((UaException) e).statusCode().value()).isEqualTo(status));
    }
}
