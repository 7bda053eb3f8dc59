package dev.opcua.spring.boot.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.spring.boot.autoconfigure.client.OpcUaClientAutoConfiguration;
import dev.opcua.spring.boot.autoconfigure.observation.OpcUaClientObservationAutoConfiguration;
import dev.opcua.spring.boot.autoconfigure.observation.OpcUaObservationAutoConfiguration;
import dev.opcua.spring.boot.autoconfigure.pubsub.OpcUaPubSubAutoConfiguration;
import dev.opcua.spring.boot.autoconfigure.pubsub.TestMqttBroker;
import dev.opcua.spring.boot.autoconfigure.server.OpcUaServerAutoConfiguration;
import dev.opcua.spring.boot.client.OpcUaClients;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.subscriptions.ClientSubscription;
import dev.opcua.stack.client.subscriptions.DataItemRequest;
import dev.opcua.stack.client.subscriptions.SubscriptionParameters;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.NodeId;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Every meter of the starter follows Micrometer's and Prometheus's naming conventions and is in the table of
 * docs/OPERATIONS.md ("Meters") with its type, unit and tags: a server, a client connection to it (with a
 * redundant set and a reverse-connect listener besides, for their meters) and PubSub through a broker in this
 * JVM, all auto-configured with a {@link PrometheusMeterRegistry}, after a Read and a subscription.
 */
class OpcUaMeterNamesIT {

    /** Tags every meter of its kind carries, named once above the table rather than in every row. */
    private static final Map<String, String> COMMON_TAGS = Map.of(
            "opcua.server.", "application.uri",
            "opcua.client.", "connection");

    private static TestMqttBroker broker;

    @BeforeAll
    static void startBroker() {
        broker = TestMqttBroker.start();
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static ApplicationContextRunner application(int port) {
        String endpointUrl = "opc.tcp://127.0.0.1:" + port;
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class,
                        MetricsAutoConfiguration.class, OpcUaServerAutoConfiguration.class,
                        OpcUaObservationAutoConfiguration.class, OpcUaServerMetricsAutoConfiguration.class,
                        OpcUaClientAutoConfiguration.class, OpcUaClientObservationAutoConfiguration.class,
                        OpcUaClientMetricsAutoConfiguration.class, OpcUaPubSubAutoConfiguration.class,
                        OpcUaPubSubActuatorAutoConfiguration.class))
                .withBean(PrometheusMeterRegistry.class, () -> new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))
                .withPropertyValues("opcua.server.port=" + port, "opcua.server.bind-address=127.0.0.1",
                        "opcua.server.hostnames=127.0.0.1", "opcua.server.application-uri=urn:test:meters",
                        "management.metrics.distribution.percentiles-histogram.opcua.client.publish.latency=true",
                        "opcua.client.connections.plant.endpoint-url=" + endpointUrl,
                        "opcua.client.connections.plant.redundancy.mode=cold",
                        "opcua.client.connections.plant.redundancy.endpoints=opc.tcp://127.0.0.1:" + (port + 1),
                        "opcua.client.connections.reverse.endpoint-url=" + endpointUrl,
                        "opcua.client.connections.reverse.reverse-connect.listen-port=0",
                        "opcua.client.connections.reverse.reverse-connect.listen-address=127.0.0.1",
                        "opcua.client.connections.reverse.reverse-connect.server-uri=urn:test:meters",
                        "opcua.pubsub.enabled=true", "opcua.pubsub.publisher-id=meters",
                        "opcua.pubsub.mqtt.broker-url=" + broker.url(),
                        "opcua.pubsub.data-sets.Line.fields.Speed.type=Double",
                        "opcua.pubsub.writer-groups.line.publishing-interval=50ms",
                        "opcua.pubsub.writer-groups.line.writers.w.data-set=Line",
                        "opcua.pubsub.readers.back.publisher-id=meters",
                        "opcua.pubsub.readers.back.writer-group=line",
                        "opcua.pubsub.readers.back.data-set-writer-id=1");
    }

    @Test
    void every_meter_has_a_conventional_prometheus_name_and_is_documented_with_its_type_unit_and_tags()
            throws Exception {
        DocumentedMeters documented = DocumentedMeters.load();
        application(freePort()).run(context -> {
            assertThat(context).hasNotFailed();
            PrometheusMeterRegistry registry = context.getBean(PrometheusMeterRegistry.class);
            OpcUaClient client = context.getBean(OpcUaClients.class).asMap().get("plant");
            NodeId currentTime = NodeId.ns0(NodeIds.Server_ServerStatus_CurrentTime);
            await().atMost(Duration.ofSeconds(20)).until(() -> client.session() != null);
            client.readValue(currentTime).get(10, TimeUnit.SECONDS);
            ClientSubscription subscription = client.createSubscription(SubscriptionParameters.ofInterval(50))
                    .get(10, TimeUnit.SECONDS);
            subscription.createDataItem(DataItemRequest.of(currentTime, 20, (item, value) -> { }))
                    .get(10, TimeUnit.SECONDS);
            await().atMost(Duration.ofSeconds(10)).until(() -> count(registry, "opcua.client.notifications.received") > 1
                    && count(registry, "opcua.pubsub.messages.received") > 0);

            String scrape = registry.scrape();
            List<String> problems = new ArrayList<>();
            problems.addAll(prometheusNameProblems(scrape));
            problems.addAll(documentationProblems(registry, documented, scrape));
            assertThat(problems).as("meters against the conventions and docs/OPERATIONS.md ('## Meters')")
                    .isEmpty();
        });
    }

    @Test
    void a_name_that_repeats_a_word_or_its_total_or_a_gauge_with_total_is_reported() {
        String scrape = """
                # TYPE opcua_client_notifications_received_notifications_total counter
                opcua_client_notifications_received_notifications_total{connection="plant"} 3.0
                # TYPE opcua_server_sessions_total_total counter
                opcua_server_sessions_total_total 1.0
                # TYPE opcua_server_queued_total gauge
                opcua_server_queued_total 1.0
                # TYPE opcua_server_sessions gauge
                opcua_server_sessions 1.0
                """;
        assertThat(prometheusNameProblems(scrape)).hasSize(3)
                .anySatisfy(p -> assertThat(p).contains("opcua_client_notifications_received_notifications_total")
                        .contains("'notifications'"))
                .anySatisfy(p -> assertThat(p).contains("opcua_server_sessions_total_total"))
                .anySatisfy(p -> assertThat(p).contains("opcua_server_queued_total").contains("gauge"));
    }

    private static double count(MeterRegistry registry, String name) {
        return registry.find(name).functionCounters().stream().mapToDouble(c -> c.count()).sum();
    }

    /**
     * The Prometheus rules (https://prometheus.io/docs/practices/naming/) for every {@code opcua_} family of a
     * scrape: no word twice (the unit repeating the name), {@code _total} once and on counters only.
     */
    static List<String> prometheusNameProblems(String scrape) {
        Map<String, String> families = new TreeMap<>();
        for (String line : scrape.split("\n")) {
            if (line.startsWith("# TYPE opcua_")) {
                String[] parts = line.split(" ");
                families.put(parts[2], parts[3]);
            }
        }
        assertThat(families).as("opcua_ families in the scrape").isNotEmpty();
        List<String> problems = new ArrayList<>();
        families.forEach((family, type) -> {
            Set<String> words = new HashSet<>();
            for (String word : family.split("_")) {
                if (!words.add(word)) {
                    problems.add(family + " repeats the word '" + word + "'");
                }
            }
            boolean total = family.endsWith("_total");
            if (type.equals("counter") && !total) {
                problems.add(family + " is a counter without _total");
            }
            if (!type.equals("counter") && family.contains("_total")) {
                problems.add(family + " is a " + type + " with _total");
            }
        });
        return problems;
    }

    /** Each meter of the registry against its row: present, same Prometheus name, type, unit and tags. */
    private static List<String> documentationProblems(PrometheusMeterRegistry registry, DocumentedMeters documented,
            String scrape) {
        List<String> problems = new ArrayList<>();
        Map<String, Meter> meters = new TreeMap<>();
        for (Meter meter : registry.getMeters()) {
            if (meter.getId().getName().startsWith("opcua.")) {
                meters.putIfAbsent(meter.getId().getName(), meter);
            }
        }
        assertThat(meters.keySet()).as("meters of the server, the client and PubSub")
                .anyMatch(n -> n.startsWith("opcua.server.")).anyMatch(n -> n.startsWith("opcua.client."))
                .anyMatch(n -> n.startsWith("opcua.pubsub."));
        Set<String> sampleNames = sampleNames(scrape);
        meters.forEach((name, meter) -> {
            DocumentedMeters.Row row = documented.meters().get(name);
            if (row == null) {
                problems.add(name + " is missing from the table");
                return;
            }
            String type = type(meter.getId().getType());
            if (!row.type().equals(type)) {
                problems.add(name + " is a " + type + ", documented as a " + row.type());
            }
            String unit = meter.getId().getBaseUnit() == null ? DocumentedMeters.NO_UNIT : meter.getId().getBaseUnit();
            if (!row.unit().equals(unit)) {
                problems.add(name + " has the unit " + unit + ", documented as " + row.unit());
            }
            String series = type.contains("timer") ? row.prometheus() + "_count" : row.prometheus();
            if (!sampleNames.contains(series)) {
                problems.add(name + " is documented as " + row.prometheus() + ", not in the scrape (" + series
                        + ")");
            }
            Set<String> tags = new TreeSet<>();
            registry.find(name).meters().forEach(m -> m.getId().getTags().forEach(t -> tags.add(t.getKey())));
            COMMON_TAGS.forEach((prefix, common) -> {
                if (name.startsWith(prefix)) {
                    tags.remove(common);
                }
            });
            if (!row.tags().equals(tags)) {
                problems.add(name + " has the tags " + tags + ", documented as " + row.tags());
            }
        });
        return problems;
    }

    private static String type(Meter.Type type) {
        return type.name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    private static Set<String> sampleNames(String scrape) {
        Set<String> names = new HashSet<>();
        for (String line : scrape.split("\n")) {
            if (!line.isBlank() && !line.startsWith("#")) {
                int end = line.indexOf('{');
                names.add(end < 0 ? line.substring(0, line.indexOf(' ')) : line.substring(0, end));
            }
        }
        return names;
    }
}
