package dev.opcua.stack.server.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.ubyte;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.ushort;

import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.structured.ModelChangeStructureDataType;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.subscriptions.events.EventNotifierRegistry;
import dev.opcua.stack.server.subscriptions.events.ModelChanges;
import dev.opcua.stack.server.subscriptions.events.UaEvent;
import dev.opcua.stack.server.testing.MiloClients;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaMonitoredItem;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaSubscription;
import org.eclipse.milo.opcua.stack.core.AttributeId;
import org.eclipse.milo.opcua.stack.core.Identifiers;
import org.eclipse.milo.opcua.stack.core.types.builtin.ByteString;
import org.eclipse.milo.opcua.stack.core.types.builtin.ExtensionObject;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.QualifiedName;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.enumerated.FilterOperator;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.ContentFilter;
import org.eclipse.milo.opcua.stack.core.types.structured.ContentFilterElement;
import org.eclipse.milo.opcua.stack.core.types.structured.EventFilter;
import org.eclipse.milo.opcua.stack.core.types.structured.LiteralOperand;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadValueId;
import org.eclipse.milo.opcua.stack.core.types.structured.SimpleAttributeOperand;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Eclipse Milo 1.1.2's client monitors events of the Server object of our {@link OpcUaServer} (Part 4,
 * 5.12.1 and 7.22.3): an event item with five select clauses and the where clause
 * {@code Severity >= 500} receives exactly the reported events that pass, in order, with their
 * fields; an
 * announced shutdown reaches it as a SystemStatusChangeEventType event (Part 5, 6.4.30).
 */
class MiloEventsOnOpcUaServerIT {

    /** How long an event may take to reach Milo's client, and how often the test looks. */
    private static final Duration WAIT = Duration.ofSeconds(5);
    private static final Duration POLL = Duration.ofMillis(10);

    private static final String PLANT = "urn:test:milo:events:plant";

    private static OpcUaServer server;
    private static OpcUaClient client;

    @BeforeAll
    static void start() throws Exception {
        server = newServer("urn:test:milo:events").start();
        client = connect(server);
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

    private static OpcUaServer newServer(String applicationUri) {
        return OpcUaServer.builder()
                .applicationUri(applicationUri)
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("localhost"))
                .requests(2, 8, 100)
                .nodeManager(InMemoryNodeManager.builder(PLANT).object("Tank", o -> o.eventNotifier()).build())
                .build();
    }

    private static OpcUaClient connect(OpcUaServer target) throws Exception {
        return MiloClients.anonymousOverNone(target.endpointUrl());
    }

    private static SimpleAttributeOperand field(org.eclipse.milo.opcua.stack.core.types.builtin.NodeId type,
            String name) {
        return new SimpleAttributeOperand(type, new QualifiedName[] {new QualifiedName(0, name)},
                AttributeId.Value.uid(), null);
    }

    private static SimpleAttributeOperand field(String name) {
        return field(Identifiers.BaseEventType, name);
    }

    /** A subscription at 50 ms with one event item on the Server object; its events go to {@code received}. */
    private static OpcUaSubscription subscribe(OpcUaClient milo, EventFilter filter, List<Variant[]> received)
            throws Exception {
        return subscribe(milo, Identifiers.Server, filter, received);
    }

    private static OpcUaSubscription subscribe(OpcUaClient milo,
            org.eclipse.milo.opcua.stack.core.types.builtin.NodeId notifier, EventFilter filter,
            List<Variant[]> received) throws Exception {
        OpcUaSubscription subscription = new OpcUaSubscription(milo, 50.0);
        subscription.create();
        OpcUaMonitoredItem item = OpcUaMonitoredItem.newEventItem(notifier, filter);
        item.setEventValueListener((monitoredItem, values) -> received.add(values));
        subscription.addMonitoredItem(item);
        subscription.synchronizeMonitoredItems();
        assertThat(item.getCreateResult()).hasValueSatisfying(status -> assertThat(status.isGood()).isTrue());
        assertThat(item.getRevisedSamplingInterval()).contains(0.0);
        // Milo asks for a queue of 1, revised to the server's minimum for events, so a burst is kept
        assertThat(item.getQueueSize()).isEqualTo(uint(1));
        assertThat(item.getRevisedQueueSize()).contains(uint(100));
        return subscription;
    }

    private static UaEvent event(int severity) {
        return UaEvent.builder(dev.opcua.stack.core.types.builtin.NodeId.ns0(
                        dev.opcua.stack.core.ids.NodeIds.BaseEventType))
                .sourceNode(EventNotifierRegistry.SERVER_OBJECT)
                .sourceName("Server")
                .message("event of severity " + severity)
                .severity(severity)
                .time(DateTime.ofInstant(Instant.parse("2024-05-01T12:00:00Z").plusSeconds(severity)))
                .build();
    }

    @Test
    void an_object_of_a_node_manager_declared_an_event_notifier_delivers_the_events_reported_on_it() throws Exception {
        int ns = server.namespaces().indexOf(PLANT);
        org.eclipse.milo.opcua.stack.core.types.builtin.NodeId tank =
                new org.eclipse.milo.opcua.stack.core.types.builtin.NodeId(ns, "Tank");
        List<Variant[]> received = new CopyOnWriteArrayList<>();
        // A client of its own: the shared one may be backing off after an earlier test deleted its last
        // subscription (BadNoSubscription), long enough for this subscription's lifetime to run out.
        OpcUaClient milo = connect(server);
        OpcUaSubscription subscription = subscribe(milo, tank,
                new EventFilter(new SimpleAttributeOperand[] {field("Severity"), field("Message")},
                        new ContentFilter(new ContentFilterElement[0])), received);
        try {
            server.events().report(dev.opcua.stack.core.types.builtin.NodeId.string(ns, "Tank"),
                    UaEvent.builder(dev.opcua.stack.core.types.builtin.NodeId.ns0(
                                    dev.opcua.stack.core.ids.NodeIds.BaseEventType))
                            .sourceNode(dev.opcua.stack.core.types.builtin.NodeId.string(ns, "Tank"))
                            .sourceName("Tank")
                            .message("level high")
                            .severity(700)
                            .build());

            await("the tank's event arrives").atMost(WAIT).pollInterval(POLL).until(() -> received.size() >= 1);
            assertThat(received).hasSize(1);
            assertThat(received.get(0)[0].getValue()).isEqualTo(ushort(700));
            assertThat(((LocalizedText) received.get(0)[1].getValue()).getText()).isEqualTo("level high");
        } finally {
            milo.disconnect();
        }
    }

    @Test
    void the_server_object_is_an_event_notifier() throws Exception {
        Variant notifier = client.read(0, TimestampsToReturn.Neither, List.of(new ReadValueId(Identifiers.Server,
                AttributeId.EventNotifier.uid(), null, QualifiedName.NULL_VALUE))).getResults()[0].getValue();
        assertThat(((Number) notifier.getValue()).intValue() & 1).as("SubscribeToEvents").isEqualTo(1);
    }

    @Test
    void milo_receives_exactly_the_events_that_pass_its_where_clause_with_the_selected_fields() throws Exception {
        ContentFilter severityAtLeast500 = new ContentFilter(new ContentFilterElement[] {new ContentFilterElement(
                FilterOperator.GreaterThanOrEqual, new ExtensionObject[] {
                    ExtensionObject.encode(client.getStaticEncodingContext(), field("Severity")),
                    ExtensionObject.encode(client.getStaticEncodingContext(),
                            new LiteralOperand(new Variant(ushort(500))))})});
        EventFilter filter = new EventFilter(new SimpleAttributeOperand[] {field("EventId"), field("EventType"),
            field("Severity"), field("Message"), field("Time")}, severityAtLeast500);
        List<Variant[]> received = new CopyOnWriteArrayList<>();
        OpcUaSubscription subscription = subscribe(client, filter, received);
        try {
            UaEvent low = event(100);
            UaEvent medium = event(600);
            UaEvent high = event(900);
            UaEvent sentinel = event(1000); // published in order: once it is in, the 100 would be too
            for (UaEvent e : List.of(low, medium, high, sentinel)) {
                server.events().report(EventNotifierRegistry.SERVER_OBJECT, e);
            }

            await("the events arrive").atMost(WAIT).pollInterval(POLL).until(() -> received.size() >= 3);
            assertThat(received).hasSize(3);
            for (int i = 0; i < 2; i++) {
                UaEvent sent = i == 0 ? medium : high;
                Variant[] fields = received.get(i);
                assertThat(fields).hasSize(5);
                assertThat(((ByteString) fields[0].getValue()).bytes()).isEqualTo(sent.eventId().bytes());
                assertThat(fields[1].getValue()).isEqualTo(Identifiers.BaseEventType);
                assertThat(fields[2].getValue()).isEqualTo(ushort(sent.severity()));
                assertThat(((LocalizedText) fields[3].getValue()).getText()).isEqualTo(sent.message().text());
                assertThat(((org.eclipse.milo.opcua.stack.core.types.builtin.DateTime) fields[4].getValue())
                        .getJavaInstant()).isEqualTo(sent.time().toInstant());
            }
            assertThat(received.get(2)[2].getValue()).isEqualTo(ushort(1000));
        } finally {
            subscription.delete();
        }
    }

    @Test
    void an_announced_shutdown_is_reported_as_a_system_status_change_event() throws Exception {
        OpcUaServer closing = newServer("urn:test:milo:events:closing").start();
        OpcUaClient milo = connect(closing);
        Thread closer = new Thread(() -> closing.close(Duration.ofSeconds(1), "maintenance"), "test-closer");
        try {
            EventFilter filter = new EventFilter(new SimpleAttributeOperand[] {field("EventType"),
                field(Identifiers.SystemStatusChangeEventType, "SystemState"), field("SourceNode"),
                field("Message")}, new ContentFilter(new ContentFilterElement[0])); // Milo needs a where clause
            List<Variant[]> received = new CopyOnWriteArrayList<>();
            subscribe(milo, filter, received);

            closer.start();

            await("the shutdown event arrives").atMost(WAIT).pollInterval(POLL).until(() -> !received.isEmpty());
            milo.disconnect(); // during the countdown: a polite, quick goodbye
            Variant[] fields = received.get(0);
            assertThat(fields[0].getValue()).isEqualTo(Identifiers.SystemStatusChangeEventType);
            assertThat(fields[1].getValue()).isEqualTo(
                    org.eclipse.milo.opcua.stack.core.types.enumerated.ServerState.Shutdown.getValue());
            assertThat(fields[2].getValue()).isEqualTo(Identifiers.Server);
            assertThat(((LocalizedText) fields[3].getValue()).getText()).contains("maintenance");
        } finally {
            closer.join(TimeUnit.SECONDS.toMillis(10));
            closing.close();
        }
    }

    @Test
    void milo_receives_a_general_model_change_event_with_its_changes() throws Exception {
        ContentFilter onlyModelChanges = new ContentFilter(new ContentFilterElement[] {new ContentFilterElement(
                FilterOperator.OfType, new ExtensionObject[] {ExtensionObject.encode(client.getStaticEncodingContext(),
                        new LiteralOperand(new Variant(Identifiers.GeneralModelChangeEventType)))})});
        EventFilter filter = new EventFilter(new SimpleAttributeOperand[] {field("EventType"),
            field(Identifiers.GeneralModelChangeEventType, "Changes")}, onlyModelChanges);
        List<Variant[]> received = new CopyOnWriteArrayList<>();
        OpcUaClient milo = connect(server);
        subscribe(milo, filter, received);
        try {
            int ns = server.namespaces().indexOf(PLANT);
            dev.opcua.stack.core.types.builtin.NodeId pump = dev.opcua.stack.core.types.builtin.NodeId.string(ns, "Pump");
            server.events().report(EventNotifierRegistry.SERVER_OBJECT, event(999)); // not a model change
            server.modelChanges().report(List.of(new ModelChangeStructureDataType(pump,
                    dev.opcua.stack.core.types.builtin.NodeId.ns0(dev.opcua.stack.core.ids.NodeIds.BaseObjectType),
                    (short) (ModelChanges.NODE_ADDED | ModelChanges.REFERENCE_ADDED))));

            await("the model change event arrives").atMost(WAIT).pollInterval(POLL).until(() -> !received.isEmpty());
            assertThat(received).hasSize(1);
            assertThat(received.get(0)[0].getValue()).isEqualTo(Identifiers.GeneralModelChangeEventType);
            ExtensionObject[] changes = (ExtensionObject[]) received.get(0)[1].getValue();
            assertThat(changes).hasSize(1);
            org.eclipse.milo.opcua.stack.core.types.structured.ModelChangeStructureDataType change =
                    (org.eclipse.milo.opcua.stack.core.types.structured.ModelChangeStructureDataType)
                            changes[0].decode(milo.getStaticEncodingContext());
            assertThat(change.getAffected()).isEqualTo(
                    new org.eclipse.milo.opcua.stack.core.types.builtin.NodeId(ns, "Pump"));
            assertThat(change.getAffectedType()).isEqualTo(Identifiers.BaseObjectType);
            assertThat(change.getVerb()).isEqualTo(ubyte(ModelChanges.NODE_ADDED | ModelChanges.REFERENCE_ADDED));
        } finally {
            milo.disconnect();
        }
    }

    @Test
    void a_model_change_without_changes_or_with_reserved_verb_bits_is_refused() {
        assertThatThrownBy(() -> server.modelChanges().report(List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one change");
        assertThatThrownBy(() -> server.modelChanges().report(List.of(new ModelChangeStructureDataType(
                EventNotifierRegistry.SERVER_OBJECT, dev.opcua.stack.core.types.builtin.NodeId.NULL, (short) 0x20))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bits 0..4");
    }
}
