package dev.opcua.sample.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;

import dev.opcua.sample.server.plant.FillingLine;
import dev.opcua.sample.server.plant.MachineState;
import dev.opcua.sample.server.plant.PlantSimulation;
import dev.opcua.stack.server.OpcUaServer;
import java.nio.file.Path;
import java.security.Security;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.identity.UsernameProvider;
import org.eclipse.milo.opcua.stack.core.AttributeId;
import org.eclipse.milo.opcua.stack.core.Identifiers;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.QualifiedName;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.CallMethodRequest;
import org.eclipse.milo.opcua.stack.core.types.structured.ContentFilter;
import org.eclipse.milo.opcua.stack.core.types.structured.ContentFilterElement;
import org.eclipse.milo.opcua.stack.core.types.structured.EventFilter;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryEvent;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryEventFieldList;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadResult;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadValueId;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadEventDetails;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadValueId;
import org.eclipse.milo.opcua.stack.core.types.structured.SimpleAttributeOperand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The sample records its trip events (Part 11 event history of the Server object, {@code
 * opcua.server.history.event-notifiers: [i=2253]} in application.yml) into the embedded store: the line is driven
 * into an over-temperature trip and Eclipse Milo 1.1.2's client reads the trip back with ReadEventDetails.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"opcua.server.port=0", "opcua.server.shutdown-delay=0s", "plant.simulation.period-ms=100000"})
class SampleTripHistoryIT {

    static {
        Security.addProvider(new BouncyCastleProvider()); // Milo encrypts the operator's password with RSA-OAEP
    }

    @TempDir
    static Path pki;

    @TempDir
    static Path history;

    @DynamicPropertySource
    static void directories(DynamicPropertyRegistry registry) {
        registry.add("opcua.server.security.pki-dir", () -> pki.toString());
        registry.add("opcua.server.history.directory", () -> history.toString());
    }

    @Autowired
    OpcUaServer server;

    @Autowired
    FillingLine line;

    @Autowired
    PlantSimulation simulation;

    private static SimpleAttributeOperand field(String name) {
        return new SimpleAttributeOperand(Identifiers.BaseEventType, new QualifiedName[] {new QualifiedName(0, name)},
                AttributeId.Value.uid(), null);
    }

    /** The events of the filling line (SourceName, the first selected field) in the Server object's history. */
    private static List<HistoryEventFieldList> linesEvents(OpcUaClient client, ReadEventDetails details)
            throws Exception {
        HistoryReadResult result = client.historyRead(details, TimestampsToReturn.Neither, false, List.of(
                new HistoryReadValueId(Identifiers.Server, null, QualifiedName.NULL_VALUE, null))).getResults()[0];
        assertThat(result.getStatusCode().isGood()).as("HistoryRead: %s", result.getStatusCode()).isTrue();
        HistoryEvent events = (HistoryEvent) result.getHistoryData().decode(client.getStaticEncodingContext());
        List<HistoryEventFieldList> lines = new ArrayList<>();
        if (events.getEvents() != null) {
            for (HistoryEventFieldList event : events.getEvents()) {
                if ("FillingLine".equals(event.getEventFields()[0].getValue())) {
                    lines.add(event);
                }
            }
        }
        return lines;
    }

    @Test
    void a_trip_is_recorded_and_read_back_from_the_server_objects_event_history() throws Exception {
        OpcUaClient client = MiloTestClients.overNone(server.endpointUrl(),
                new UsernameProvider("operator", "line1-operator"), 5_000);
        try {
            int ns = client.getNamespaceTable().getIndex(FillingLine.NAMESPACE).intValue();
            NodeId lineNode = new NodeId(ns, "FillingLine");
            // full speed and the largest bottles overload the filler motor: it crosses its limit within seconds
            assertThat(client.writeValues(List.of(new NodeId(ns, "FillingLine.ConveyorSpeed"),
                    new NodeId(ns, "FillingLine.FillVolume")), List.of(new DataValue(new Variant(600.0)),
                    new DataValue(new Variant(2000.0))))).allSatisfy(status -> assertThat(status.isGood()).isTrue());
            assertThat(client.call(List.of(new CallMethodRequest(lineNode, new NodeId(ns, "FillingLine.Start"),
                    new Variant[0]))).getResults()[0].getStatusCode().isGood()).isTrue();
            for (int step = 0; step < 10_000 && line.getState() != MachineState.FAULT; step++) {
                simulation.tick(); // 100 s per tick (plant.simulation.period-ms): simulated time, not waited
            }
            assertThat(line.getState()).isEqualTo(MachineState.FAULT);

            DataValue notifier = client.read(0, TimestampsToReturn.Neither, List.of(new ReadValueId(
                    Identifiers.Server, AttributeId.EventNotifier.uid(), null, QualifiedName.NULL_VALUE)))
                    .getResults()[0];
            assertThat(((Number) notifier.getValue().getValue()).intValue() & 0x04).isEqualTo(0x04); // HistoryRead

            ReadEventDetails lastHour = new ReadEventDetails(uint(0),
                    new DateTime(Instant.now().minus(Duration.ofHours(1))), new DateTime(Instant.now().plusSeconds(60)),
                    new EventFilter(new SimpleAttributeOperand[] {field("SourceName"), field("Message"),
                        field("Severity")}, new ContentFilter(new ContentFilterElement[0])));
            // the event recorder appends its queue in batches on a thread of its own: read until the trip is there
            List<HistoryEventFieldList> trips = await("the trip in the Server object's event history")
                    .atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                    .until(() -> linesEvents(client, lastHour), events -> !events.isEmpty());
            assertThat(trips).hasSize(1);
            assertThat(((LocalizedText) trips.get(0).getEventFields()[1].getValue()).text())
                    .startsWith("Filling line tripped");
            assertThat(((Number) trips.get(0).getEventFields()[2].getValue()).intValue()).isEqualTo(800);
        } finally {
            client.disconnect();
        }
    }
}
