package dev.opcua.sample.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.sample.server.plant.FillingLine;
import dev.opcua.sample.server.quality.QualityStationNodes;
import dev.opcua.stack.server.OpcUaServer;
import java.nio.file.Path;
import java.security.Security;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.core.ConditionFactory;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.identity.AnonymousProvider;
import org.eclipse.milo.opcua.sdk.client.identity.UsernameProvider;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.CallMethodRequest;
import org.eclipse.milo.opcua.stack.core.types.structured.CallMethodResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.RestClient;

/**
 * The sample plant as a user runs it, on free ports: Eclipse Milo 1.1.2's client reads the line's
 * values, calls Start and sees production begin; Actuator reports health, the {@code opcua}
 * endpoint and Prometheus meters.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"opcua.server.port=0", "opcua.server.shutdown-delay=0s", "plant.simulation.period-ms=100"})
class SamplePlantApplicationIT {

    static {
        // Milo's client encrypts passwords with RSA-OAEP-SHA256 through a JCA provider; the JDK has none.
        Security.addProvider(new BouncyCastleProvider());
    }

    @TempDir
    static Path pki;

    @TempDir
    static Path history;

    @DynamicPropertySource
    static void pkiDirectory(DynamicPropertyRegistry registry) {
        registry.add("opcua.server.security.pki-dir", () -> pki.toString());
        // the embedded store of application.yml, in a directory of its own, sampled faster than in production
        registry.add("opcua.server.history.store", () -> "embedded");
        registry.add("opcua.server.history.directory", () -> history.toString());
        registry.add("opcua.server.history.sampling-interval", () -> "100ms");
    }

    @Autowired
    OpcUaServer server;

    @LocalServerPort
    int httpPort;

    private OpcUaClient client;

    private OpcUaClient connect(boolean asOperator) throws Exception {
        client = MiloTestClients.overNone(server.endpointUrl(),
                asOperator ? new UsernameProvider("operator", "line1-operator") : new AnonymousProvider(), 5_000);
        return client;
    }

    @AfterEach
    void disconnect() throws Exception {
        if (client != null) {
            client.disconnect();
        }
    }

    private NodeId line(String path) {
        int ns = client.getNamespaceTable().getIndex(FillingLine.NAMESPACE).intValue();
        return new NodeId(ns, path.isEmpty() ? "FillingLine" : "FillingLine." + path);
    }

    private Object read(NodeId node) throws Exception {
        DataValue value = client.readValue(0, TimestampsToReturn.Both, node);
        assertThat(value.getStatusCode().isGood()).as("read %s: %s", node, value.getStatusCode()).isTrue();
        return value.getValue().getValue();
    }

    /** A wait on the running plant, polled at a fraction of its simulation period (100 ms). */
    private static ConditionFactory awaitPlant(String what) {
        return await(what).atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50));
    }

    @Test
    void milo_reads_the_plant_starts_the_line_and_sees_bottles_produced() throws Exception {
        connect(false);
        assertThat(read(line("State"))).isEqualTo("STOPPED");
        assertThat((Double) read(line("ConveyorSpeed"))).isEqualTo(240.0);
        assertThat((Double) read(line("FillerMotor.Temperature"))).isBetween(15.0, 40.0);
        // the motor temperature is an ExclusiveLimitAlarm (Part 9): cold, so inactive, with its limits
        int alarms = client.getNamespaceTable().getIndex(FillingLine.NAMESPACE + "/alarms").intValue();
        assertThat(read(new NodeId(alarms, "FillingLine.FillerMotor.TemperatureAlarm.ActiveState.Id"))).isEqualTo(false);
        assertThat(read(new NodeId(alarms, "FillingLine.FillerMotor.TemperatureAlarm.HighHighLimit"))).isEqualTo(80.0);
        assertThat(read(new NodeId(alarms, "FillingLine.FillerMotor.TemperatureAlarm.EnabledState.Id"))).isEqualTo(true);

        CallMethodResult started = client.call(List.of(new CallMethodRequest(line(""), line("Start"),
                new Variant[0]))).getResults()[0];
        assertThat(started.getStatusCode().isGood()).as("Start: %s", started.getStatusCode()).isTrue();
        assertThat(read(line("State"))).isEqualTo("RUNNING");

        awaitPlant("bottles produced after Start")
                .until(() -> ((Number) read(line("BottlesProduced"))).longValue() > 0);
        int quality = client.getNamespaceTable().getIndex(QualityStationNodes.NAMESPACE).intValue();
        assertThat(read(new NodeId(quality, "QualityStation.Inspected"))).isNotNull();
    }

    @Test
    void milo_browses_the_lines_machinery_identification_and_reads_its_manufacturer() throws Exception {
        connect(false);
        String machinery = "http://opcfoundation.org/UA/Machinery/";
        assertThat(client.getNamespaceTable().getIndex(machinery)).as("Machinery in the NamespaceArray").isNotNull();
        org.eclipse.milo.opcua.stack.core.types.structured.ReferenceDescription[] children = client.browse(
                new org.eclipse.milo.opcua.stack.core.types.structured.BrowseDescription(line("Identification"),
                        org.eclipse.milo.opcua.stack.core.types.enumerated.BrowseDirection.Forward,
                        org.eclipse.milo.opcua.stack.core.Identifiers.HierarchicalReferences, true,
                        org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint(0),
                        org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint(63)))
                .getReferences();
        assertThat(children).extracting(r -> r.getBrowseName().getName())
                .contains("Manufacturer", "SerialNumber", "ProductInstanceUri", "YearOfConstruction");
        org.eclipse.milo.opcua.stack.core.types.structured.ReferenceDescription[] type = client.browse(
                new org.eclipse.milo.opcua.stack.core.types.structured.BrowseDescription(line("Identification"),
                        org.eclipse.milo.opcua.stack.core.types.enumerated.BrowseDirection.Forward,
                        org.eclipse.milo.opcua.stack.core.Identifiers.HasTypeDefinition, false,
                        org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint(0),
                        org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint(63)))
                .getReferences();
        assertThat(type).hasSize(1);
        assertThat(type[0].getNodeId().getIdentifier())
                .isEqualTo(org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint(1012));
        assertThat(type[0].getNodeId().getNamespaceIndex())
                .isEqualTo(client.getNamespaceTable().getIndex(machinery));
        NodeId manufacturer = children[java.util.Arrays.stream(children).map(r -> r.getBrowseName().getName()).toList()
                .indexOf("Manufacturer")].getNodeId().toNodeId(client.getNamespaceTable()).orElseThrow();
        assertThat(((org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText) read(manufacturer)).getText())
                .isEqualTo("dev.opcua Bottling Machines");
        assertThat(read(line("Identification.YearOfConstruction"))).hasToString("2024");
    }

    @Test
    void a_client_reads_the_last_hour_of_speed_and_motor_temperature_at_once() throws Exception {
        connect(false);
        CallMethodResult started = client.call(List.of(new CallMethodRequest(line(""), line("Start"),
                new Variant[0]))).getResults()[0];
        assertThat(started.getStatusCode().isGood()).isTrue();
        List<NodeId> nodes = List.of(line("ActualSpeed"), line("FillerMotor.Temperature"));
        List<List<Double>> lastHour = awaitPlant("the running line's speed and a changing temperature in history")
                .until(() -> lastHour(nodes), history -> history.get(0).stream().anyMatch(speed -> speed > 0)
                        && history.get(1).size() > 1);
        assertThat(lastHour.get(0).get(0)).isEqualTo(0.0); // recorded from the start: the line stood still
    }

    /** One HistoryRead of the last hour of every node, raw, all values (Part 11, 6.5.3). */
    private List<List<Double>> lastHour(List<NodeId> nodes) throws Exception {
        java.time.Instant now = java.time.Instant.now();
        org.eclipse.milo.opcua.stack.core.types.structured.ReadRawModifiedDetails details =
                new org.eclipse.milo.opcua.stack.core.types.structured.ReadRawModifiedDetails(false,
                        new org.eclipse.milo.opcua.stack.core.types.builtin.DateTime(now.minusSeconds(3600)),
                        new org.eclipse.milo.opcua.stack.core.types.builtin.DateTime(now.plusSeconds(1)),
                        org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint(0), false);
        List<org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadValueId> reads = nodes.stream()
                .map(node -> new org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadValueId(node, null,
                        org.eclipse.milo.opcua.stack.core.types.builtin.QualifiedName.NULL_VALUE, null))
                .toList();
        org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadResult[] results = client.historyRead(details,
                TimestampsToReturn.Both, false, reads).getResults();
        List<List<Double>> values = new java.util.ArrayList<>();
        for (org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadResult result : results) {
            assertThat(result.getStatusCode().isGood()).as("HistoryRead: %s", result.getStatusCode()).isTrue();
            org.eclipse.milo.opcua.stack.core.types.structured.HistoryData data =
                    (org.eclipse.milo.opcua.stack.core.types.structured.HistoryData) result.getHistoryData()
                            .decode(client.getStaticEncodingContext());
            values.add(data.getDataValues() == null ? List.of() : java.util.Arrays.stream(data.getDataValues())
                    .map(v -> ((Number) v.getValue().getValue()).doubleValue()).toList());
        }
        return values;
    }

    @Test
    void a_write_out_of_range_is_refused_with_bad_out_of_range() throws Exception {
        connect(true);
        StatusCode refused = client.writeValues(List.of(line("ConveyorSpeed")), List.of(new DataValue(new Variant(9000.0)))).get(0);
        assertThat(refused.getValue()).isEqualTo(org.eclipse.milo.opcua.stack.core.StatusCodes.Bad_OutOfRange);
        StatusCode written = client.writeValues(List.of(line("ConveyorSpeed")), List.of(new DataValue(new Variant(300.0)))).get(0);
        assertThat(written.isGood()).isTrue();
        assertThat((Double) read(line("ConveyorSpeed"))).isEqualTo(300.0);
    }

    @Test
    @SuppressWarnings("unchecked")
    void actuator_shows_health_the_opcua_endpoint_and_prometheus_meters() throws Exception {
        connect(false);
        RestClient http = RestClient.create("http://localhost:" + httpPort);
        Map<String, Object> health = http.get().uri("/actuator/health").retrieve().body(Map.class);
        assertThat(health).containsEntry("status", "UP");
        Map<String, Object> components = (Map<String, Object>) health.get("components");
        assertThat((Map<String, Object>) components.get("opcua")).containsEntry("status", "UP");

        Map<String, Object> opcua = http.get().uri("/actuator/opcua").retrieve().body(Map.class);
        assertThat(opcua.toString()).contains(server.endpointUrl());
        assertThat((List<Map<String, Object>>) opcua.get("sessions"))
                .anySatisfy(session -> assertThat(session).containsEntry("activated", true));

        String prometheus = http.get().uri("/actuator/prometheus").retrieve().body(String.class);
        assertThat(prometheus).contains("opcua_server_sessions", "opcua_server_requests_seconds_count",
                "opcua_server_transport_received_bytes_total");
    }
}
