package dev.opcua.spring.boot.autoconfigure.server.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;

import dev.opcua.spring.boot.autoconfigure.server.OpcUaServerAutoConfiguration;
import dev.opcua.spring.boot.autoconfigure.server.annotation.OpcUaAnnotationAutoConfiguration;
import dev.opcua.spring.boot.server.annotation.OpcUaNamespace;
import dev.opcua.spring.boot.server.annotation.UaValueChangedEvent;
import dev.opcua.spring.boot.server.annotation.UaVariable;
import dev.opcua.spring.boot.testing.MiloClients;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.subscriptions.events.EventNotifierRegistry;
import dev.opcua.stack.server.subscriptions.events.UaEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.stack.core.AttributeId;
import org.eclipse.milo.opcua.stack.core.Identifiers;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.eclipse.milo.opcua.stack.core.types.builtin.ByteString;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.QualifiedName;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.enumerated.PerformUpdateType;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.ContentFilter;
import org.eclipse.milo.opcua.stack.core.types.structured.ContentFilterElement;
import org.eclipse.milo.opcua.stack.core.types.structured.DeleteEventDetails;
import org.eclipse.milo.opcua.stack.core.types.structured.EventFilter;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryData;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryEvent;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryEventFieldList;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadResult;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadValueId;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryUpdateResult;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadEventDetails;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadRawModifiedDetails;
import org.eclipse.milo.opcua.stack.core.types.structured.SimpleAttributeOperand;
import org.eclipse.milo.opcua.stack.core.types.structured.UpdateDataDetails;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@code opcua.server.history.*} end to end with Eclipse Milo 1.1.2's client: an annotated
 * {@code historizing} variable and a listed node are recorded and read back with HistoryRead, the listed
 * node accepts HistoryUpdate, and the events of a listed notifier are read and deleted.
 */
class OpcUaHistoryMiloEndToEndIT {

    private static final String NS = "urn:test:history:oven";

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaServerAutoConfiguration.class,
                    OpcUaAnnotationAutoConfiguration.class, OpcUaHistoryAutoConfiguration.class))
            .withPropertyValues("opcua.server.port=0", "opcua.server.bind-address=127.0.0.1",
                    "opcua.server.application-uri=urn:test:history");

    @OpcUaNamespace(NS)
    static class Oven {
        @UaVariable(historizing = true)
        volatile double temperature = 20;

        @UaVariable
        volatile double door = 0;
    }

    @Configuration(proxyBeanMethods = false)
    static class OvenConfiguration {
        @Bean
        Oven oven() {
            return new Oven();
        }
    }

    @OpcUaNamespace(NS + ":kiln")
    static class Kiln {
        @UaVariable(historizing = true, signalsChanges = true)
        volatile double heat = 100;
    }

    @Configuration(proxyBeanMethods = false)
    static class KilnConfiguration {
        @Bean
        Kiln kiln() {
            return new Kiln();
        }
    }

    @Test
    void milo_reads_and_deletes_the_recorded_events_of_the_listed_notifier() {
        contextRunner.withPropertyValues("opcua.server.history.enabled=true", "opcua.server.history.store=memory",
                        "opcua.server.history.event-notifiers[0]=i=2253",
                        "opcua.server.history.event-notifiers-writable=true")
                .run(context -> {
                    OpcUaServer server = context.getBean(OpcUaServer.class);
                    UaEvent trip = UaEvent.builder(dev.opcua.stack.core.types.builtin.NodeId.ns0(
                                    dev.opcua.stack.core.ids.NodeIds.BaseEventType))
                            .sourceNode(EventNotifierRegistry.SERVER_OBJECT).sourceName("Server")
                            .message("line tripped").severity(800).build();
                    server.eventNotifiers().report(EventNotifierRegistry.SERVER_OBJECT, trip);
                    OpcUaClient client = MiloClients.anonymousOverNone(server.endpointUrl());
                    try {
                        EventFilter filter = new EventFilter(new SimpleAttributeOperand[] {
                            new SimpleAttributeOperand(Identifiers.BaseEventType,
                                    new QualifiedName[] {new QualifiedName(0, "EventId")}, AttributeId.Value.uid(),
                                    null),
                            new SimpleAttributeOperand(Identifiers.BaseEventType,
                                    new QualifiedName[] {new QualifiedName(0, "Message")}, AttributeId.Value.uid(),
                                    null)}, new ContentFilter(new ContentFilterElement[0]));
                        ReadEventDetails lastHour = new ReadEventDetails(uint(0),
                                new DateTime(Instant.now().minus(Duration.ofHours(1))),
                                new DateTime(Instant.now().plusSeconds(60)), filter);
                        List<HistoryEventFieldList> events = await("the event recorded").atMost(Duration.ofSeconds(30))
                                .pollInterval(Duration.ofMillis(50))
                                .until(() -> events(client, lastHour), recorded -> !recorded.isEmpty());
                        assertThat(events).hasSize(1);
                        assertThat(((LocalizedText) events.get(0).getEventFields()[1].getValue()).text())
                                .isEqualTo("line tripped");
                        ByteString id = (ByteString) events.get(0).getEventFields()[0].getValue();
                        HistoryUpdateResult deleted = client.historyUpdate(List.of(
                                new DeleteEventDetails(Identifiers.Server, new ByteString[] {id}))).getResults()[0];
                        assertThat(deleted.getStatusCode().isGood()).isTrue();
                        assertThat(events(client, lastHour)).isEmpty();
                    } finally {
                        client.disconnect();
                    }
                });
    }

    private static List<HistoryEventFieldList> events(OpcUaClient client, ReadEventDetails details) throws Exception {
        HistoryReadResult result = client.historyRead(details, TimestampsToReturn.Neither, false,
                List.of(new HistoryReadValueId(Identifiers.Server, null, QualifiedName.NULL_VALUE, null)))
                .getResults()[0];
        assertThat(result.getStatusCode().isGood()).isTrue();
        HistoryEvent data = (HistoryEvent) result.getHistoryData().decode(client.getStaticEncodingContext());
        return data.getEvents() == null ? List.of() : Arrays.asList(data.getEvents());
    }

    @Test
    void milo_reads_the_recorded_history_of_annotated_and_listed_variables() {
        contextRunner.withUserConfiguration(OvenConfiguration.class)
                .withPropertyValues("opcua.server.history.enabled=true", "opcua.server.history.store=memory",
                        "opcua.server.history.sampling-interval=50ms",
                        "opcua.server.history.nodes[0]=nsu=" + NS + ";s=Oven.Door",
                        "opcua.server.history.nodes-writable=true")
                .run(context -> {
                    OpcUaServer server = context.getBean(OpcUaServer.class);
                    int ns = server.namespaces().indexOf(NS);
                    NodeId temperature = new NodeId(ns, "Oven.Temperature");
                    NodeId door = new NodeId(ns, "Oven.Door");
                    OpcUaClient client = MiloClients.anonymousOverNone(server.endpointUrl());
                    try {
                        context.getBean(Oven.class).temperature = 180;
                        List<Double> history = awaitHistory(client, temperature, 180.0);
                        assertThat(history).startsWith(20.0).contains(180.0);

                        DateTime when = new DateTime(Instant.now().minus(Duration.ofMinutes(30)));
                        HistoryUpdateResult inserted = client.historyUpdate(List.of(new UpdateDataDetails(door,
                                PerformUpdateType.Insert, new DataValue[] {new DataValue(new Variant(1.0),
                                        StatusCode.GOOD, when, null)}))).getResults()[0];
                        assertThat(inserted.getOperationResults()[0].getValue())
                                .isEqualTo(StatusCodes.Good_EntryInserted);
                        assertThat(awaitHistory(client, door, 1.0)).startsWith(1.0, 0.0);
                        // the annotated variable without HistoryWrite refuses updates
                        HistoryUpdateResult refused = client.historyUpdate(List.of(new UpdateDataDetails(temperature,
                                PerformUpdateType.Insert, new DataValue[] {new DataValue(new Variant(1.0),
                                        StatusCode.GOOD, when, null)}))).getResults()[0];
                        assertThat(refused.getStatusCode().getValue()).isEqualTo(StatusCodes.Bad_NotWritable);
                    } finally {
                        client.disconnect();
                    }
                });
    }

    @Test
    void a_signalled_change_of_a_historizing_variable_is_recorded_at_once() {
        // sampled once at start and then only after an hour: the new value can only come from the signal
        contextRunner.withUserConfiguration(KilnConfiguration.class)
                .withPropertyValues("opcua.server.history.enabled=true", "opcua.server.history.store=memory",
                        "opcua.server.history.sampling-interval=1h")
                .run(context -> {
                    OpcUaServer server = context.getBean(OpcUaServer.class);
                    NodeId heat = new NodeId(server.namespaces().indexOf(NS + ":kiln"), "Kiln.Heat");
                    OpcUaClient client = MiloClients.anonymousOverNone(server.endpointUrl());
                    try {
                        awaitHistory(client, heat, 100.0);
                        Kiln kiln = context.getBean(Kiln.class);
                        kiln.heat = 300;
                        context.publishEvent(new UaValueChangedEvent(kiln, "heat"));
                        assertThat(awaitHistory(client, heat, 300.0)).containsExactly(100.0, 300.0);
                    } finally {
                        client.disconnect();
                    }
                });
    }

    /** The last hour of a node's history once it holds {@code expected}; awaited, the recorder samples. */
    private static List<Double> awaitHistory(OpcUaClient client, NodeId node, double expected) {
        return await("the value " + expected + " recorded").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> lastHour(client, node), values -> values.contains(expected));
    }

    /** The values of a node's history in the last hour, oldest first. */
    private static List<Double> lastHour(OpcUaClient client, NodeId node) throws Exception {
        ReadRawModifiedDetails lastHour = new ReadRawModifiedDetails(false,
                new DateTime(Instant.now().minus(Duration.ofHours(1))), new DateTime(Instant.now().plusSeconds(60)),
                uint(0), false);
        HistoryReadResult result = client.historyRead(lastHour, TimestampsToReturn.Both, false,
                List.of(new HistoryReadValueId(node, null, QualifiedName.NULL_VALUE, null))).getResults()[0];
        assertThat(result.getStatusCode().isGood()).isTrue();
        HistoryData data = (HistoryData) result.getHistoryData().decode(client.getStaticEncodingContext());
        return data.getDataValues() == null ? List.of()
                : Arrays.stream(data.getDataValues()).map(v -> ((Number) v.getValue().getValue()).doubleValue())
                        .toList();
    }
}
