package dev.opcua.sample.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.sample.server.dashboards.Dashboard;
import dev.opcua.sample.server.dashboards.PromQl;
import dev.opcua.stack.client.ClientState;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.core.types.builtin.NodeId;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The dashboards proven against a real Prometheus (Maven profile {@code prometheus}, tag
 * {@code prometheus}; disabled, with the reason, when no binary is found: {@link PrometheusServer#binary()}): the sample
 * plant and the sample client run with their own configuration, four threads read and browse the line
 * through the client's connection besides its listeners and rule, the plant publishes the line through an MQTT
 * broker (Moquette) that a PubSub reader of the client reads, Prometheus scrapes both every second,
 * and every query of every panel and variable of the three dashboards, with the template variables set to
 * these applications, must evaluate through {@code /api/v1/query} to at least one series with a value.
 */
@Tag("prometheus")
@EnabledIf(value = "prometheusInstalled", disabledReason = "No Prometheus binary: install it (apt-get install -y "
        + "prometheus) or name it with -Dprometheus.binary=PATH or the environment variable PROMETHEUS_BINARY")
@SpringBootTest(classes = SampleClientApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"sample.rule.period=200ms",
            "opcua.client.connections.plant.subscriptions.publishing-interval=100ms",
            // the PubSub meters on the client's side too: the profile pubsub's reader, beside the session
            "opcua.pubsub.enabled=true", "opcua.pubsub.readers.line.publisher-id=sample-plant",
            "opcua.pubsub.readers.line.writer-group=line", "opcua.pubsub.readers.line.data-set-writer-id=1"})
class DashboardsPrometheusIT {

    private static final int LOAD_THREADS = 4;
    /** Scrapes to wait for: rate() needs two samples, $__rate_interval is a minute. */
    private static final int SCRAPES = 10;

    @TempDir
    static Path plantPki;

    @TempDir
    Path prometheusDirectory;

    private static ConfigurableApplicationContext plant;
    private static MqttBroker broker;
    private static Path binary;

    @Autowired
    OpcUaClient client;

    @LocalServerPort
    int httpPort;

    @DynamicPropertySource
    static void plantEndpoint(DynamicPropertyRegistry registry) {
        registry.add("opcua.client.connections.plant.endpoint-url", () -> SamplePlants.opcUaEndpointUrl(plant));
        registry.add("opcua.pubsub.mqtt.broker-url", () -> broker.url());
    }

    /** Evaluated before anything starts: without a binary neither the plant nor the client runs. */
    static boolean prometheusInstalled() {
        return PrometheusServer.binary().isPresent();
    }

    @BeforeAll
    static void startPlant() {
        binary = PrometheusServer.binary().orElseThrow();
        broker = MqttBroker.start();
        plant = SamplePlants.startPublishing(0, plantPki, broker.url());
    }

    @AfterAll
    static void stopPlant() {
        if (plant != null) {
            plant.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void every_panel_query_of_the_dashboards_returns_series_from_a_prometheus_scraping_the_apps_under_load()
            throws Exception {
        await("connected to the plant").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> client.state() == ClientState.CONNECTED);
        AtomicBoolean loading = new AtomicBoolean(true);
        AtomicLong requests = new AtomicLong();
        ExecutorService load = Executors.newFixedThreadPool(LOAD_THREADS);
        for (int i = 0; i < LOAD_THREADS; i++) {
            load.execute(() -> generateLoad(loading, requests));
        }
        String plantTarget = "localhost:" + SamplePlants.httpPort(plant);
        String clientTarget = "localhost:" + httpPort;
        try (PrometheusServer prometheus = PrometheusServer.start(binary, prometheusDirectory,
                Map.of("sample-plant", plantTarget, "sample-client", clientTarget))) {
            try {
                // Prometheus scrapes every second: SCRAPES of them take as many seconds
                await(SCRAPES + " successful scrapes of both applications").atMost(Duration.ofSeconds(90))
                        .pollInterval(Duration.ofMillis(200)).until(() -> scraped(prometheus));
            } catch (ConditionTimeoutException e) {
                throw new AssertionError(e.getMessage() + "; Prometheus logged:\n" + prometheus.log(), e);
            }

            List<String> problems = new ArrayList<>();
            int queries = evaluate(prometheus, Dashboard.load("opcua-server.json"),
                    Map.of("application", "sample-plant", "instance", plantTarget), problems);
            queries += evaluate(prometheus, Dashboard.load("opcua-client.json"),
                    Map.of("application", "sample-client", "instance", clientTarget, "connection", "plant"), problems);
            // the publisher and the reader together: a panel has series when either has them
            queries += evaluate(prometheus, Dashboard.load("opcua-pubsub.json"),
                    Map.of("application", "sample-plant|sample-client", "instance", plantTarget + "|" + clientTarget),
                    problems);
            System.out.printf("Evaluated %d dashboard queries against Prometheus after %d load requests%n",
                    queries, requests.get());

            assertThat(problems).as("queries that failed or returned no series").isEmpty();
            assertThat(requests.get()).as("load requests sent").isPositive();
        } finally {
            loading.set(false);
            load.shutdown();
            load.awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    /** Reads the line's values in a loop and browses it every tenth time, through the app's connection. */
    private void generateLoad(AtomicBoolean loading, AtomicLong requests) {
        List<NodeId> values = List.of(client.nodeId(PlantNodes.ACTUAL_SPEED), client.nodeId(PlantNodes.CONVEYOR_SPEED),
                client.nodeId(PlantNodes.STATE), client.nodeId(PlantNodes.FILLER_MOTOR_TEMPERATURE));
        NodeId line = client.nodeId(PlantNodes.LINE);
        while (loading.get()) {
            try {
                client.readValues(values).get(5, TimeUnit.SECONDS);
                if (requests.incrementAndGet() % 10 == 0) {
                    client.browse(line).get(5, TimeUnit.SECONDS);
                }
                Thread.sleep(5); // the load's pace: a steady stream of requests, not a flood
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Exception e) {
                // a failed request is counted by the meters like any other; keep loading
            }
        }
    }

    private static boolean scraped(PrometheusServer prometheus) {
        try {
            List<JsonNode> series = prometheus.series("sum by (job) (count_over_time(up[1m])) >= " + SCRAPES
                    + " and on (job) min by (job) (up) == 1");
            return series.size() == 2;
        } catch (Exception e) {
            return false;
        }
    }

    /** Evaluates every panel and variable query of {@code dashboard}; returns how many. */
    private static int evaluate(PrometheusServer prometheus, Dashboard dashboard, Map<String, String> variables,
            List<String> problems) throws Exception {
        Map<String, String> values = new HashMap<>(variables);
        values.put("__rate_interval", "1m");
        values.put("__range", "5m");
        values.put("__interval", "15s");
        int queries = 0;
        for (Dashboard.Panel panel : dashboard.panels()) {
            for (String expression : panel.expressions()) {
                queries++;
                check(prometheus, dashboard.title() + ", panel '" + panel.title() + "'",
                        PromQl.substitute(expression, values), null, problems);
            }
        }
        for (Dashboard.Variable variable : dashboard.variables()) {
            queries++;
            Map.Entry<String, String> labelValues = PromQl.labelValues(variable.query());
            check(prometheus, dashboard.title() + ", variable $" + variable.name(),
                    PromQl.substitute(labelValues.getKey(), values), labelValues.getValue(), problems);
        }
        return queries;
    }

    private static void check(PrometheusServer prometheus, String where, String query, String label,
            List<String> problems) throws Exception {
        JsonNode response = prometheus.query(query);
        if (!"success".equals(response.path("status").asString())) {
            problems.add(where + ": " + query + " -> " + response.path("errorType").asString() + ": "
                    + response.path("error").asString());
            return;
        }
        List<JsonNode> series = new ArrayList<>();
        response.path("data").path("result").forEach(series::add);
        if (series.isEmpty()) {
            problems.add(where + ": " + query + " -> no series");
        } else if (series.stream().allMatch(s -> "NaN".equals(s.path("value").path(1).asString()))) {
            problems.add(where + ": " + query + " -> only NaN (no sample in the window)");
        } else if (label != null && series.stream().noneMatch(s -> s.path("metric").hasNonNull(label))) {
            problems.add(where + ": " + query + " -> no series with the label " + label);
        }
    }
}
