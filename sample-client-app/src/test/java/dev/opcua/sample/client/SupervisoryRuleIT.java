package dev.opcua.sample.client;

import static dev.opcua.spring.boot.test.assertj.OpcUaAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.spring.boot.test.client.OpcUaTestClient;
import dev.opcua.stack.server.OpcUaServer;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The sample client's supervisory rule, judged by what the plant shows (docs/TESTING.md): the plant runs on a free
 * port found through {@code local.opcua.server.endpoint-url}, and a test client of the test support, connected to
 * the plant's server on its own session, reads the line the rule starts and speeds up.
 */
@SpringBootTest(classes = SampleClientApplication.class, properties = {"sample.rule.period=200ms",
    "sample.rule.step=30", "opcua.client.connections.plant.subscriptions.publishing-interval=100ms"})
class SupervisoryRuleIT {

    @TempDir
    static Path plantPki;

    private static ConfigurableApplicationContext plant;
    private static OpcUaTestClient plantView;

    @DynamicPropertySource
    static void plantEndpoint(DynamicPropertyRegistry registry) {
        registry.add("opcua.client.connections.plant.endpoint-url", () -> SamplePlants.opcUaEndpointUrl(plant));
    }

    /** Before the client's context: the test context is loaded after the BeforeAll methods. */
    @BeforeAll
    static void startPlant() {
        plant = SamplePlants.start(0, plantPki);
        plantView = OpcUaTestClient.builder(plant.getBean(OpcUaServer.class)).connect();
    }

    @AfterAll
    static void stopPlant() {
        if (plantView != null) {
            plantView.close();
        }
        if (plant != null) {
            plant.close();
        }
    }

    @Test
    void the_rule_starts_the_line_and_raises_its_set_point_as_the_plant_sees_it() {
        await("the plant's line running").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                .untilAsserted(() -> assertThat(plantView.readValue(PlantNodes.STATE)).isGood().hasValue("RUNNING"));
        await("the plant's set point raised").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                .untilAsserted(() -> assertThat(plantView.readValue(PlantNodes.CONVEYOR_SPEED)).isGood()
                        .hasValueSatisfying(speed -> assertThat((Double) speed).isGreaterThan(240.0)));
    }
}
