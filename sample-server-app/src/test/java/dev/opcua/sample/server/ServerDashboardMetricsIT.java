package dev.opcua.sample.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.sample.server.dashboards.Dashboard;
import dev.opcua.sample.server.dashboards.PrometheusScrape;
import dev.opcua.sample.server.plant.FillingLine;
import dev.opcua.stack.server.OpcUaServer;
import java.nio.file.Path;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.identity.AnonymousProvider;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.RestClient;

/**
 * Every metric name of {@code docs/dashboards/opcua-server.json} is in a real {@code /actuator/prometheus}
 * scrape of the sample plant, configured by its own application.yml (common tag {@code application},
 * histogram buckets of the request timer), after a little OPC UA traffic. The proof that each query
 * returns series runs in the {@code prometheus} profile (sample-client-app).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"opcua.server.port=0", "opcua.server.shutdown-delay=0s"})
class ServerDashboardMetricsIT {

    @TempDir
    static Path pki;

    @DynamicPropertySource
    static void pkiDirectory(DynamicPropertyRegistry registry) {
        registry.add("opcua.server.security.pki-dir", () -> pki.toString());
    }

    @Autowired
    OpcUaServer server;

    @LocalServerPort
    int httpPort;

    @Test
    void every_metric_name_of_the_server_dashboard_is_in_the_prometheus_scrape() throws Exception {
        // a session and Reads: the request timer registers its series at its first request
        OpcUaClient client = MiloTestClients.overNone(server.endpointUrl(), new AnonymousProvider(), 5_000);
        try {
            int ns = client.getNamespaceTable().getIndex(FillingLine.NAMESPACE).intValue();
            client.readValue(0, TimestampsToReturn.Both, new NodeId(ns, "FillingLine.ActualSpeed"));
            client.readValue(0, TimestampsToReturn.Both, new NodeId(ns, "FillingLine.State"));
        } finally {
            client.disconnect();
        }
        String exposition = RestClient.create("http://localhost:" + httpPort).get().uri("/actuator/prometheus")
                .retrieve().body(String.class);
        PrometheusScrape scrape = new PrometheusScrape(exposition);
        Dashboard dashboard = Dashboard.load("opcua-server.json");

        assertThat(dashboard.panels()).hasSizeGreaterThanOrEqualTo(15);
        assertThat(dashboard.absentFrom(scrape)).as("metric names of the dashboard absent from the scrape")
                .isEmpty();
        assertThat(exposition).as("the common tag the dashboard's $application selects")
                .contains("opcua_server_sessions{application=\"sample-plant\"");
    }
}
