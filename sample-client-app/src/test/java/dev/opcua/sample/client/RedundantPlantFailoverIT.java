package dev.opcua.sample.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.sample.server.plant.FillingLine;
import dev.opcua.stack.client.ClientState;
import dev.opcua.stack.client.OpcUaClient;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.RestClient;

/**
 * The three-command demo of docs/OPERATIONS.md ("A redundant pair") in one JVM: the sample plant twice, in the
 * profiles {@code redundant-a} and {@code redundant-b} (a hot pair, each the other's partner), and the sample client
 * in the profile {@code redundant}, on free ports instead of 4841/4842 (the partner endpoint URLs and the client's
 * set follow them). {@code GET /line} shows values; the active plant's context is closed; the values keep coming,
 * now from the other plant, within {@link #FAILOVER_BOUND}, and the connection's health is UP with
 * {@code activeServer} the other plant and {@code opcua.client.failovers} 1.
 *
 * <p>Closing the context is the closest to {@code kill -9} inside one JVM, not the same: the plant stops its OPC UA
 * server (ServerState Shutdown, with {@code shutdown-delay} 0 s here, then its sockets close), where a killed process
 * only has its sockets closed by the OS. Either way the client sees the connection close at once; a plant that hangs
 * or a network that drops packets is seen later, by the keep-alive.
 */
@SpringBootTest(classes = SampleClientApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"sample.rule.enabled=false", // the test starts both lines, the rule would start only the active one
            "opcua.client.connections.plant.keep-alive.interval=500ms",
            "opcua.client.connections.plant.reconnect.initial-delay=100ms",
            "opcua.client.connections.plant.reconnect.max-delay=500ms",
            "opcua.client.connections.plant.subscriptions.publishing-interval=100ms"})
@ActiveProfiles("redundant")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class) // the failover closes a plant: last
class RedundantPlantFailoverIT {

    private static final int PORT_A = SamplePlants.freePort();
    private static final int PORT_B = SamplePlants.freePort();
    private static final String URL_A = "opc.tcp://localhost:" + PORT_A + "/";
    private static final String URL_B = "opc.tcp://localhost:" + PORT_B + "/";
    private static final Duration WAIT = Duration.ofSeconds(20);
    /** Values again, from the other plant, at most this long after the active plant went away. */
    private static final Duration FAILOVER_BOUND = Duration.ofSeconds(10);

    @TempDir
    static Path dirA;

    @TempDir
    static Path dirB;

    private static ConfigurableApplicationContext plantA;
    private static ConfigurableApplicationContext plantB;

    @Autowired
    OpcUaClient client;

    @Autowired
    LineValues values;

    @Autowired
    MeterRegistry meters;

    @LocalServerPort
    int httpPort;

    @DynamicPropertySource
    static void theRedundantSet(DynamicPropertyRegistry registry) {
        registry.add("opcua.client.connections.plant.endpoint-url", () -> URL_A);
        registry.add("opcua.client.connections.plant.redundancy.endpoints[0]", () -> URL_A);
        registry.add("opcua.client.connections.plant.redundancy.endpoints[1]", () -> URL_B);
    }

    /** Before the client's context: the test context is loaded after the BeforeAll methods. */
    @BeforeAll
    static void startBothPlants() {
        plantA = SamplePlants.startRedundant("redundant-a", PORT_A, PORT_B, dirA);
        plantB = SamplePlants.startRedundant("redundant-b", PORT_B, PORT_A, dirB);
        for (ConfigurableApplicationContext plant : new ConfigurableApplicationContext[] {plantA, plantB}) {
            FillingLine line = plant.getBean(FillingLine.class);
            line.setConveyorSpeed(300);
            line.start();
        }
    }

    @AfterAll
    static void stopPlants() {
        for (ConfigurableApplicationContext plant : new ConfigurableApplicationContext[] {plantA, plantB}) {
            if (plant != null && plant.isActive()) {
                plant.close();
            }
        }
    }

    private static ConditionFactory awaitClient(String what) {
        return await(what).atMost(WAIT).pollInterval(Duration.ofMillis(50));
    }

    private RestClient http() {
        return RestClient.create("http://localhost:" + httpPort);
    }

    private Map<String, Object> line() {
        return http().get().uri("/line").retrieve().body(new ParameterizedTypeReference<Map<String, Object>>() { });
    }

    /** {@code /actuator/health/opcuaClients/plant}: its status code and body. */
    private Map.Entry<Integer, Map<String, Object>> health() {
        return http().get().uri("/actuator/health/opcuaClients/plant").exchange((request, response) -> Map.entry(
                response.getStatusCode().value(),
                response.bodyTo(new ParameterizedTypeReference<Map<String, Object>>() { })));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> details(Map.Entry<Integer, Map<String, Object>> health) {
        return (Map<String, Object>) health.getValue().get("details");
    }

    private double failovers() {
        return meters.get("opcua.client.failovers").tag("connection", "plant").functionCounter().count();
    }

    @Test
    @Order(1)
    @SuppressWarnings("unchecked")
    void the_plants_are_a_hot_pair_each_naming_the_other() {
        for (ConfigurableApplicationContext plant : new ConfigurableApplicationContext[] {plantA, plantB}) {
            boolean a = plant == plantA;
            Map<String, Object> opcua = RestClient.create("http://localhost:" + SamplePlants.httpPort(plant)).get()
                    .uri("/actuator/health/opcua").retrieve()
                    .body(new ParameterizedTypeReference<Map<String, Object>>() { });
            Map<String, Object> details = (Map<String, Object>) opcua.get("details");
            assertThat(details).containsEntry("applicationUri", "urn:dev.opcua:sample:plant:" + (a ? "a" : "b"));
            assertThat((Map<String, Object>) details.get("serviceLevel")).containsEntry("level", 255);
            Map<String, Object> redundancy = (Map<String, Object>) details.get("redundancy");
            assertThat(redundancy).containsEntry("mode", "Hot"); // the server's RedundancyMode; the client's says HOT
            assertThat((java.util.List<Map<String, Object>>) redundancy.get("partners")).containsExactly(Map.of(
                    "serverUri", "urn:dev.opcua:sample:plant:" + (a ? "b" : "a"), "endpointUrl", a ? URL_B : URL_A));
        }
    }

    @Test
    @Order(2)
    @SuppressWarnings("unchecked")
    void the_line_keeps_coming_from_the_other_plant_when_the_active_one_goes_away() {
        // both plants serve the same line; the client is on one of them and follows it
        awaitClient("connected to the set").until(() -> client.state() == ClientState.CONNECTED
                && client.activeServer() != null);
        awaitClient("the line's values through the listeners").until(() -> "RUNNING".equals(values.state())
                && values.actualSpeed() > 0 && !Double.isNaN(values.fillerMotorTemperature()));
        assertThat(line()).containsEntry("state", "RUNNING").containsKeys("actualSpeed", "fillerMotorTemperature");

        Map.Entry<Integer, Map<String, Object>> before = health();
        assertThat(before.getKey()).isEqualTo(200);
        String active = (String) details(before).get("activeServer");
        assertThat(active).isIn(URL_A, URL_B);
        Map<String, Object> redundancy = (Map<String, Object>) details(before).get("redundancy");
        assertThat(redundancy).containsEntry("mode", "HOT").containsEntry("failovers", 0);
        assertThat(failovers()).isZero();
        assertThat(meters.get("opcua.client.active.server").tag("connection", "plant").gauges()).hasSize(2);

        // the active plant goes away (its context closed: see the class comment for how that differs from kill -9)
        String other = active.equals(URL_A) ? URL_B : URL_A;
        ConfigurableApplicationContext activePlant = active.equals(URL_A) ? plantA : plantB;
        activePlant.close();
        Instant gone = Instant.now();

        // the values keep coming, from the other plant, within the bound
        await("values from the other plant").atMost(FAILOVER_BOUND).pollInterval(Duration.ofMillis(50))
                .until(() -> other.equals(client.activeServer()) && values.updated() != null
                        && values.updated().isAfter(gone));
        Duration failover = Duration.between(gone, Instant.now());
        System.out.printf("RedundantPlantFailoverIT: values from %s %d ms after %s went away%n", other,
                failover.toMillis(), active);
        Map<String, Object> json = line();
        assertThat(json).containsEntry("state", "RUNNING");
        assertThat(Instant.parse((String) json.get("updated"))).isAfter(gone);

        // the connection's health: UP, on the other plant, one failover; the meters say the same
        awaitClient("health UP on the other plant").until(() -> {
            Map.Entry<Integer, Map<String, Object>> h = health();
            return h.getKey() == 200 && other.equals(details(h).get("activeServer"));
        });
        Map<String, Object> after = details(health());
        assertThat((Map<String, Object>) after.get("redundancy")).containsEntry("failovers", 1);
        assertThat(failovers()).isEqualTo(1);
        assertThat(meters.get("opcua.client.active.server").tag("connection", "plant").tag("endpoint", other)
                .gauge().value()).isEqualTo(1);
        assertThat(meters.get("opcua.client.active.server").tag("connection", "plant").tag("endpoint", active)
                .gauge().value()).isZero();
    }
}
