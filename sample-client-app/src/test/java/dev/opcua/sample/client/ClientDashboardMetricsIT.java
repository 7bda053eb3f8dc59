package dev.opcua.sample.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.sample.server.dashboards.Dashboard;
import dev.opcua.sample.server.dashboards.PrometheusScrape;
import dev.opcua.stack.client.ClientState;
import dev.opcua.stack.client.OpcUaClient;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.RestClient;

/**
 * Every metric name of {@code docs/dashboards/opcua-client.json} is in a real {@code /actuator/prometheus}
 * scrape of the sample client, configured by its own application.yml, once it is connected to the sample
 * plant and its listeners and rule have made requests and Publish calls. The proof that each query
 * returns series is {@link DashboardsPrometheusIT} (profile {@code prometheus}).
 */
@SpringBootTest(classes = SampleClientApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"sample.rule.period=200ms",
            "opcua.client.connections.plant.subscriptions.publishing-interval=100ms"})
class ClientDashboardMetricsIT {


    @TempDir
    static Path plantPki;

    private static ConfigurableApplicationContext plant;

    @Autowired
    OpcUaClient client;

    @Autowired
    MeterRegistry meters;

    @LocalServerPort
    int httpPort;

    @DynamicPropertySource
    static void plantEndpoint(DynamicPropertyRegistry registry) {
        registry.add("opcua.client.connections.plant.endpoint-url", () -> SamplePlants.opcUaEndpointUrl(plant));
    }

    @BeforeAll
    static void startPlant() {
        plant = SamplePlants.start(0, plantPki);
    }

    @AfterAll
    static void stopPlant() {
        if (plant != null) {
            plant.close();
        }
    }

    private static ConditionFactory awaitClient(String what) {
        return await(what).atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50));
    }

    @Test
    void every_metric_name_of_the_client_dashboard_is_in_the_prometheus_scrape() throws Exception {
        awaitClient("connected to the plant").until(() -> client.state() == ClientState.CONNECTED);
        awaitClient("a Publish answered").until(() -> meters.find("opcua.client.publish.latency").timer() != null
                && meters.get("opcua.client.publish.latency").timer().count() > 0);
        awaitClient("a Read timed")
                .until(() -> meters.find("opcua.client.requests").tag("service", "Read").timer() != null);

        String exposition = RestClient.create("http://localhost:" + httpPort).get().uri("/actuator/prometheus")
                .retrieve().body(String.class);
        PrometheusScrape scrape = new PrometheusScrape(exposition);
        Dashboard dashboard = Dashboard.load("opcua-client.json");

        assertThat(dashboard.panels()).hasSizeGreaterThanOrEqualTo(10);
        assertThat(dashboard.absentFrom(scrape)).as("metric names of the dashboard absent from the scrape")
                .isEmpty();
        assertThat(exposition).as("the common tag the dashboard's $application selects")
                .contains("opcua_client_session_state{application=\"sample-client\",connection=\"plant\"");
    }
}
