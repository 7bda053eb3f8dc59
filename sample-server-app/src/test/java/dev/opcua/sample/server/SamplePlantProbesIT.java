package dev.opcua.sample.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.ServerState;
import dev.opcua.stack.server.OpcUaServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The sample plant's Kubernetes probes over HTTP, through a whole life: readiness 503 while it starts
 * (Spring Boot accepts traffic once the application is ready), 200 with the OPC UA server's health once
 * ready, 503 from the first moment of a drain (SIGTERM closes the context) while liveness stays 200 and
 * a client reads ServerState Shutdown during the countdown.
 */
class SamplePlantProbesIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    Path pki;

    @Test
    void readiness_is_down_while_starting_up_when_ready_and_from_the_first_moment_of_the_drain_liveness_stays_up() throws Exception {
        Map<String, Integer> whileStarting = new ConcurrentHashMap<>();
        ApplicationListener<ApplicationEvent> starting = event -> {
            if (event instanceof ApplicationStartedEvent started) {
                int port = ((WebServerApplicationContext) started.getApplicationContext()).getWebServer().getPort();
                whileStarting.put("readiness", status(port, "readiness"));
            }
        };
        ConfigurableApplicationContext context = new SpringApplicationBuilder(SampleServerApplication.class)
                .listeners(starting)
                .run("--server.port=0", "--opcua.server.port=0", "--opcua.server.shutdown-delay=3s",
                        "--opcua.server.security.pki-dir=" + pki, "--plant.simulation.period-ms=100");
        try {
            int port = ((WebServerApplicationContext) context).getWebServer().getPort();
            assertThat(whileStarting).containsEntry("readiness", 503);
            assertThat(status(port, "readiness")).isEqualTo(200);
            assertThat(body(port, "readiness")).contains("\"opcua\"", "\"readinessState\"");
            assertThat(status(port, "liveness")).isEqualTo(200);

            OpcUaServer server = context.getBean(OpcUaServer.class);
            try (OpcUaClient client = OpcUaClient.create(server.endpointUrl())) {
                client.connect().get(10, TimeUnit.SECONDS);
                CompletableFuture<Void> closing = CompletableFuture.runAsync(context::close);
                // within the 3 s countdown (shutdown-delay), which the assertions below need still running
                await("readiness DOWN once the drain begins").atMost(Duration.ofSeconds(2))
                        .pollInterval(Duration.ofMillis(20)).until(() -> status(port, "readiness") == 503);
                assertThat(status(port, "liveness")).isEqualTo(200);
                assertThat(state(client)).isEqualTo(ServerState.Shutdown.value());
                assertThat(server.isRunning()).as("still counting down").isTrue();
                closing.get(15, TimeUnit.SECONDS);
                assertThat(server.isRunning()).isFalse();
            }
        } finally {
            context.close();
        }
    }

    private static int status(int port, String probe) {
        return get(port, probe).statusCode();
    }

    private static String body(int port, String probe) {
        return get(port, probe).body();
    }

    private static HttpResponse<String> get(int port, String probe) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/health/" + probe))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException("GET /actuator/health/" + probe + " failed", e);
        }
    }

    private static int state(OpcUaClient client) throws Exception {
        Object value = client.readValue(NodeId.ns0(NodeIds.Server_ServerStatus_State)).get(5, TimeUnit.SECONDS)
                .value().value();
        return ((Number) value).intValue();
    }
}
