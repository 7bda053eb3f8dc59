package dev.opcua.spring.boot.actuate.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.actuate.testing.TestServers;
import dev.opcua.stack.client.ClientState;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.server.OpcUaServer;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/** Health of a client connection to a real server: connected, never connected, and lost. */
class OpcUaClientHealthIndicatorTest {

    private OpcUaServer server;
    private OpcUaClient client;

    @AfterEach
    void close() {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private OpcUaClient client(String endpointUrl) {
        client = OpcUaClient.create(OpcUaClientConfig.builder(endpointUrl)
                .reconnectDelays(Duration.ofMillis(100), Duration.ofMillis(500))
                .build());
        return client;
    }

    @Test
    void a_connected_client_is_UP_with_its_endpoint_security_and_session() throws Exception {
        server = TestServers.started(TestServers.plant(), b -> { });
        client(server.endpointUrl()).connect().get(10, TimeUnit.SECONDS);

        Health health = new OpcUaClientHealthIndicator(client).health();

        assertThat(health.getStatus()).isEqualTo(Status.UP);
        assertThat(health.getDetails())
                .containsEntry("state", "CONNECTED")
                .containsEntry("endpointUrl", server.endpointUrl())
                .containsEntry("securityPolicy", "None")
                .containsEntry("securityMode", "None")
                .containsEntry("sessionId", client.session().sessionId().toString())
                .containsEntry("reconnects", 0L)
                .doesNotContainKey("lastError");
    }

    @Test
    void a_client_that_never_connected_is_DOWN_and_DISCONNECTED() {
        Health health = new OpcUaClientHealthIndicator(client("opc.tcp://127.0.0.1:4840/")).health();

        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat(health.getDetails()).containsEntry("state", "DISCONNECTED")
                .containsEntry("endpointUrl", "opc.tcp://127.0.0.1:4840/")
                .doesNotContainKeys("sessionId", "lastError");
    }

    @Test
    void a_client_that_lost_its_server_is_DOWN_with_its_state_and_the_error() throws Exception {
        server = TestServers.started(TestServers.plant(), b -> { });
        client(server.endpointUrl()).connect().get(10, TimeUnit.SECONDS);

        server.close();
        TestServers.waitUntil(() -> client.state() == ClientState.RECONNECTING);
        Health health = new OpcUaClientHealthIndicator(client).health();

        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat(health.getDetails()).containsEntry("state", "RECONNECTING")
                .containsKey("lastError")
                .doesNotContainKey("sessionId");
        assertThat((String) health.getDetails().get("lastError")).isNotBlank();
        assertThat(Instant.parse((String) health.getDetails().get("lastErrorAt"))).as("when it happened")
                .isBetween(Instant.now().minusSeconds(30), Instant.now());
    }
}
