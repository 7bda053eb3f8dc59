package dev.opcua.sample.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.sample.server.dashboards.Dashboard;
import dev.opcua.sample.server.dashboards.PrometheusScrape;
import dev.opcua.sample.server.plant.FillingLine;
import dev.opcua.spring.boot.pubsub.OpcUaPubSubLifecycle;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.RestClient;

/**
 * The two-command demo of docs/OPERATIONS.md in one JVM: the sample plant publishes the filling line to an MQTT
 * broker (Moquette here, Mosquitto there) with its own application.yml and PubSub switched on, and the sample
 * client in the profile {@code pubsub} follows the line through the broker: {@code GET /line} shows the values
 * the plant published, the session-based {@link LineWatcher} is not there. Both applications' scrapes carry
 * every metric name of {@code docs/dashboards/opcua-pubsub.json}.
 */
@SpringBootTest(classes = SampleClientApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "sample.rule.enabled=false") // the test sets the line's speed, not the rule
@ActiveProfiles("pubsub")
class LinePubSubIT {

    private static final Duration WAIT = Duration.ofSeconds(20);
    /** A set point the line reaches exactly: it ramps 12 bottles/min a tick and stops at the set point. */
    private static final double SPEED = 90.0;

    @TempDir
    static Path plantPki;

    private static MqttBroker broker;
    private static ConfigurableApplicationContext plant;

    @Autowired
    ApplicationContext context;

    @Autowired
    MeterRegistry meters;

    @LocalServerPort
    int httpPort;

    @DynamicPropertySource
    static void plantAndBroker(DynamicPropertyRegistry registry) {
        registry.add("opcua.client.connections.plant.endpoint-url", () -> SamplePlants.opcUaEndpointUrl(plant));
        registry.add("opcua.pubsub.mqtt.broker-url", () -> broker.url());
    }

    @BeforeAll
    static void startBrokerAndPlant() {
        broker = MqttBroker.start();
        plant = SamplePlants.startPublishing(0, plantPki, broker.url());
    }

    @AfterAll
    static void stopPlantAndBroker() {
        if (plant != null) {
            plant.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void the_line_page_shows_what_the_plant_published_through_the_broker() {
        assertThat(context.getBeansOfType(LinePubSubWatcher.class)).hasSize(1);
        assertThat(context.getBeansOfType(LineWatcher.class)).as("no monitored items in the profile pubsub").isEmpty();

        FillingLine line = plant.getBean(FillingLine.class);
        line.setConveyorSpeed(SPEED);
        line.start();

        RestClient http = RestClient.create("http://localhost:" + httpPort);
        await("the line's values through PubSub").atMost(WAIT).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
            Map<String, Object> values = http.get().uri("/line").retrieve()
                    .body(new ParameterizedTypeReference<Map<String, Object>>() { });
            assertThat(values).containsEntry("state", "RUNNING")
                    .containsEntry("actualSpeed", SPEED)
                    .containsEntry("conveyorSpeed", SPEED);
            assertThat((Double) values.get("conveyorMotorTemperature")).isFinite();
            assertThat((Double) values.get("fillerMotorTemperature")).isFinite();
        });
        assertThat(meters.get("opcua.pubsub.datasets.received").functionCounter().count()).isPositive();
        assertThat(meters.get("opcua.pubsub.broker.connected").gauge().value()).isEqualTo(1);
    }

    @Test
    void every_metric_name_of_the_pubsub_dashboard_is_in_both_applications_scrapes() {
        OpcUaPubSubLifecycle publisher = plant.getBean(OpcUaPubSubLifecycle.class);
        await("a message published and one read").atMost(WAIT).until(() -> publisher.getService() != null
                && publisher.getService().statistics().publishCount() > 0
                && meters.get("opcua.pubsub.messages.received").functionCounter().count() > 0);
        Dashboard dashboard = Dashboard.load("opcua-pubsub.json");
        assertThat(dashboard.panels()).hasSizeGreaterThanOrEqualTo(12);
        for (int port : new int[] {SamplePlants.httpPort(plant), httpPort}) {
            String exposition = RestClient.create("http://localhost:" + port).get().uri("/actuator/prometheus")
                    .retrieve().body(String.class);
            assertThat(dashboard.absentFrom(new PrometheusScrape(exposition)))
                    .as("metric names of the dashboard absent from the scrape of port %d", port).isEmpty();
        }
    }
}
