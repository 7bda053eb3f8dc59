package dev.opcua.stack.server.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.ubyte;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;

import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.history.HistorySample;
import dev.opcua.stack.server.history.InMemoryHistoryStore;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.services.history.HistorySettings;
import dev.opcua.stack.server.testing.MiloClients;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.stack.core.AttributeId;
import org.eclipse.milo.opcua.stack.core.Identifiers;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.QualifiedName;
import org.eclipse.milo.opcua.stack.core.types.enumerated.BrowseDirection;
import org.eclipse.milo.opcua.stack.core.types.enumerated.BrowseResultMask;
import org.eclipse.milo.opcua.stack.core.types.enumerated.NodeClass;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.AggregateConfiguration;
import org.eclipse.milo.opcua.stack.core.types.structured.BrowseDescription;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryData;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadDetails;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadResult;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadValueId;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadAtTimeDetails;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadProcessedDetails;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadValueId;
import org.eclipse.milo.opcua.stack.core.types.structured.ReferenceDescription;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Stepped history (Part 11, 5.2.2): a variable recorded as stepped exposes a HistoricalDataConfiguration
 * "HA Configuration" with Stepped true, and at-time and processed reads hold its value between samples,
 * while a sloped variable's are interpolated; read with Eclipse Milo 1.1.2's client.
 */
class MiloSteppedHistoryInteropIT {

    private static final String NS = "urn:test:milo:stepped";
    private static final Instant BASE = Instant.parse("2026-01-01T00:00:00Z");

    private static OpcUaServer server;
    private static OpcUaClient client;
    private static InMemoryNodeManager line;

    @BeforeAll
    static void start() throws Exception {
        line = InMemoryNodeManager.builder(NS)
                .variable("Setpoint", BuiltinType.Double, v -> v.value(
                        dev.opcua.stack.core.types.builtin.Variant.ofDouble(0)).stepped())
                .variable("Speed", BuiltinType.Double, v -> v.value(
                        dev.opcua.stack.core.types.builtin.Variant.ofDouble(0)).historizing())
                .build();
        InMemoryHistoryStore store = new InMemoryHistoryStore();
        server = OpcUaServer.builder()
                .applicationUri("urn:test:milo:stepped:server")
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("localhost"))
                .requests(2, 8, 100)
                .nodeManager(line)
                .history(store, HistorySettings.DEFAULT)
                .build()
                .start();
        List<HistorySample> samples = new ArrayList<>();
        for (String path : List.of("Setpoint", "Speed")) {
            samples.add(sample(line.nodeId(path), 0, 10));
            samples.add(sample(line.nodeId(path), 10, 20));
        }
        store.append(samples).join();
        client = MiloClients.anonymousOverNone(server.endpointUrl());
    }

    @AfterAll
    static void stop() throws Exception {
        if (client != null) {
            client.disconnect();
        }
        if (server != null) {
            server.close();
        }
    }

    private static HistorySample sample(dev.opcua.stack.core.types.builtin.NodeId node, int second, double value) {
        dev.opcua.stack.core.types.builtin.DateTime time =
                dev.opcua.stack.core.types.builtin.DateTime.ofInstant(BASE.plusSeconds(second));
        return new HistorySample(node, dev.opcua.stack.core.types.builtin.DataValue.of(
                dev.opcua.stack.core.types.builtin.Variant.ofDouble(value),
                dev.opcua.stack.core.types.builtin.StatusCode.GOOD, time, time));
    }

    private static NodeId node(String path) {
        return new NodeId(line.namespaceIndex(), line.nodeId(path).stringId());
    }

    private static DateTime at(int second) {
        return new DateTime(BASE.plusSeconds(second));
    }

    private static double readOne(HistoryReadDetails details, String path) throws Exception {
        HistoryReadResult result = client.historyRead(details, TimestampsToReturn.Source, false,
                List.of(new HistoryReadValueId(node(path), null, QualifiedName.NULL_VALUE, null))).getResults()[0];
        assertThat(result.getStatusCode().isGood()).as("%s: %s", path, result.getStatusCode()).isTrue();
        DataValue[] values = ((HistoryData) result.getHistoryData().decode(client.getStaticEncodingContext()))
                .getDataValues();
        assertThat(values).as(path).hasSize(1);
        return ((Number) values[0].getValue().getValue()).doubleValue();
    }

    @Test
    void at_time_and_processed_reads_hold_a_stepped_value_and_interpolate_a_sloped_one() throws Exception {
        ReadAtTimeDetails atFive = new ReadAtTimeDetails(new DateTime[] {at(5)}, false);
        assertThat(readOne(atFive, "Setpoint")).isEqualTo(10.0);
        assertThat(readOne(atFive, "Speed")).isEqualTo(15.0);

        // Interpolative at 5 s (Part 13, 5.4.3.4): the bounding value, stepped or sloped
        ReadProcessedDetails interpolative = new ReadProcessedDetails(at(5), at(6), 0.0,
                new NodeId[] {Identifiers.AggregateFunction_Interpolative},
                new AggregateConfiguration(true, false, ubyte(100), ubyte(100), false));
        assertThat(readOne(interpolative, "Setpoint")).isEqualTo(10.0);
        assertThat(readOne(interpolative, "Speed")).isEqualTo(15.0);
    }

    @Test
    void the_ha_configuration_says_which_history_is_stepped() throws Exception {
        assertThat(stepped("Setpoint")).isTrue();
        assertThat(stepped("Speed")).isFalse();
    }

    /** Follows HasHistoricalConfiguration to "HA Configuration" and reads its Stepped property. */
    private static boolean stepped(String path) throws Exception {
        List<ReferenceDescription> configurations = List.of(client.browse(new BrowseDescription(node(path),
                BrowseDirection.Forward, Identifiers.HasHistoricalConfiguration, false, uint(NodeClass.Object.getValue()),
                uint(BrowseResultMask.All.getValue()))).getReferences());
        assertThat(configurations).singleElement().satisfies(r -> {
            assertThat(r.getBrowseName()).isEqualTo(new QualifiedName(0, "HA Configuration"));
            assertThat(r.getTypeDefinition().getIdentifier()).isEqualTo(
                    Identifiers.HistoricalDataConfigurationType.getIdentifier());
        });
        NodeId configuration = configurations.get(0).getNodeId().toNodeId(client.getNamespaceTable()).orElseThrow();
        ReferenceDescription steppedProperty = List.of(client.browse(new BrowseDescription(configuration,
                BrowseDirection.Forward, Identifiers.HasProperty, false, uint(0), uint(BrowseResultMask.All.getValue())))
                .getReferences()).stream().filter(r -> r.getBrowseName().getName().equals("Stepped"))
                .findFirst().orElseThrow();
        DataValue value = client.read(0, TimestampsToReturn.Neither, List.of(new ReadValueId(
                steppedProperty.getNodeId().toNodeId(client.getNamespaceTable()).orElseThrow(),
                AttributeId.Value.uid(), null, QualifiedName.NULL_VALUE))).getResults()[0];
        return (Boolean) value.getValue().getValue();
    }
}
