package dev.opcua.sample.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.sample.server.SampleServerApplication;
import dev.opcua.sample.server.plant.FillingLine;
import dev.opcua.sample.server.plant.MachineState;
import dev.opcua.stack.client.ClientState;
import dev.opcua.stack.client.OpcUaClient;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.HttpStatusCode;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.RestClient;

/**
 * The sample client as a user runs it beside the sample plant (both on free ports, in one JVM): the
 * annotated listeners receive the line's values, the supervisory rule calls Start and raises the set
 * point; the plant is stopped and started again and the client, without a restart, sees its health go
 * DOWN and UP, counts a reconnect, and its listeners receive values again.
 */
@SpringBootTest(classes = SampleClientApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"sample.rule.period=200ms", "sample.rule.step=30",
            "opcua.client.connections.plant.keep-alive.interval=500ms",
            "opcua.client.connections.plant.reconnect.initial-delay=100ms",
            "opcua.client.connections.plant.reconnect.max-delay=500ms",
            "opcua.client.connections.plant.subscriptions.publishing-interval=100ms"})
class SampleClientApplicationIT {

    private static final int PLANT_PORT = freePort();
    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    static Path plantPki;

    private static ConfigurableApplicationContext plant;

    @Autowired
    OpcUaClient client;

    @Autowired
    LineValues values;

    @Autowired
    SupervisoryRule rule;

    @Autowired
    MeterRegistry meters;

    @LocalServerPort
    int httpPort;

    @DynamicPropertySource
    static void plantEndpoint(DynamicPropertyRegistry registry) {
        registry.add("opcua.client.connections.plant.endpoint-url", () -> "opc.tcp://localhost:" + PLANT_PORT + "/");
    }

    /** Before the client's context: the test context is loaded after the BeforeAll methods. */
    @BeforeAll
    static void startPlantFirst() {
        plant = startPlant();
    }

    /**
     * The sample plant on {@link #PLANT_PORT}. This module's application.yml shadows the plant's on the
     * class path, so the plant gets the settings it needs here.
     */
    private static ConfigurableApplicationContext startPlant() {
        // arguments, not default properties: they must win over this module's application.yml
        return new SpringApplicationBuilder(SampleServerApplication.class).run(
                "--opcua.server.enabled=true", "--opcua.client.enabled=false", "--sample.rule.enabled=false",
                "--opcua.server.port=" + PLANT_PORT, "--opcua.server.hostnames=localhost",
                "--opcua.server.security.pki-dir=" + plantPki, "--opcua.server.security.policies=None",
                "--opcua.server.shutdown-delay=0s", "--plant.simulation.period-ms=100", "--server.port=0",
                // the filling line's Machinery identification needs the built-in models
                "--opcua.server.nodesets=model:di,model:machinery",
                "--spring.application.name=sample-plant-under-test");
    }

    @AfterAll
    static void stopPlant() {
        if (plant != null) {
            plant.close();
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A wait for {@code what}, polled at half the subscription's publishing interval. */
    private static ConditionFactory awaitClient(String what) {
        return await(what).atMost(WAIT).pollInterval(Duration.ofMillis(50));
    }

    private HttpStatusCode health() {
        return RestClient.create("http://localhost:" + httpPort).get().uri("/actuator/health/opcuaClients/plant")
                .exchange((request, response) -> response.getStatusCode());
    }

    private int probe(String group) {
        return RestClient.create("http://localhost:" + httpPort).get().uri("/actuator/health/" + group)
                .exchange((request, response) -> response.getStatusCode()).value();
    }

    private double reconnects() {
        return meters.get("opcua.client.reconnects").tag("connection", "plant").functionCounter().count();
    }

    @Test
    @SuppressWarnings("unchecked")
    void follows_the_line_starts_it_and_comes_back_after_the_plant_restarts() throws Exception {
        // the listeners receive the line's values, the rule starts the line and raises the set point
        awaitClient("connected to the plant").until(() -> client.state() == ClientState.CONNECTED);
        awaitClient("a motor temperature through its listener")
                .until(() -> !Double.isNaN(values.fillerMotorTemperature()));
        awaitClient("the rule called Start").until(() -> rule.starts() >= 1);
        FillingLine line = plant.getBean(FillingLine.class);
        awaitClient("the plant's line is running").until(() -> line.getState() == MachineState.RUNNING);
        awaitClient("State RUNNING through its listener").until(() -> "RUNNING".equals(values.state()));
        awaitClient("ActualSpeed through its listener").until(() -> values.actualSpeed() > 0);
        awaitClient("the rule raised the set point")
                .until(() -> rule.speedChanges() >= 1 && line.getConveyorSpeed() > 240);

        Map<String, Object> json = RestClient.create("http://localhost:" + httpPort).get().uri("/line").retrieve()
                .body(Map.class);
        assertThat(json).containsEntry("state", "RUNNING").containsKeys("actualSpeed", "fillerMotorTemperature");
        // push certificate management through the plant connection: only a SecurityAdmin over SignAndEncrypt
        // may read the trust list, so the default connection (None, anonymous) is refused by the plant
        Map.Entry<Integer, Map> trust = RestClient.create("http://localhost:" + httpPort).get().uri("/plant/trust")
                .exchange((request, response) -> Map.entry(response.getStatusCode().value(),
                        response.bodyTo(Map.class)));
        assertThat(trust.getKey()).isEqualTo(403);
        assertThat(trust.getValue()).containsEntry("status", "BadSecurityModeInsufficient");
        assertThat(health().value()).isEqualTo(200);
        Map<String, Object> opcua = RestClient.create("http://localhost:" + httpPort).get().uri("/actuator/opcua")
                .retrieve().body(Map.class);
        assertThat((Map<String, Object>) opcua.get("clients")).containsOnlyKeys("plant");
        assertThat((List<Map<String, Object>>) opcua.get("listeners")).hasSize(6)
                .allSatisfy(listener -> assertThat(listener).containsEntry("created", true)
                        .containsEntry("connection", "plant"))
                .anySatisfy(listener -> assertThat(listener).containsEntry("id", "lineWatcher.onTrip"));
        double reconnectsBefore = reconnects();

        // the plant goes away: the health goes DOWN, the client keeps trying
        plant.close();
        awaitClient("health DOWN while the plant is down").until(() -> health().value() == 503);
        // readiness does not follow the plant: /line keeps serving the last values (docs/KUBERNETES.md)
        assertThat(probe("readiness")).isEqualTo(200);
        assertThat(probe("liveness")).isEqualTo(200);

        // the plant is back on the same port: the client reconnects, the listeners receive values again
        plant = startPlant();
        Instant restarted = Instant.now();
        FillingLine newLine = plant.getBean(FillingLine.class);
        awaitClient("health UP after the plant restarted").until(() -> health().value() == 200);
        awaitClient("opcua.client.reconnects grew").until(() -> reconnects() > reconnectsBefore);
        awaitClient("the rule started the restarted line")
                .until(() -> rule.starts() >= 2 && newLine.getState() == MachineState.RUNNING);
        awaitClient("values through the listeners after the restart").until(() -> values.updated() != null
                && values.updated().isAfter(restarted) && values.actualSpeed() > 0);
    }
}
