package dev.opcua.stack.pubsub.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.FilterOperator;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ContentFilter;
import dev.opcua.stack.core.types.structured.ContentFilterElement;
import dev.opcua.stack.core.types.structured.LiteralOperand;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.SimpleAttributeOperand;
import dev.opcua.stack.pubsub.config.DataSetReaderConfig;
import dev.opcua.stack.pubsub.config.DataSetWriterConfig;
import dev.opcua.stack.pubsub.config.MessageEncoding;
import dev.opcua.stack.pubsub.config.PubSubConnectionConfig;
import dev.opcua.stack.pubsub.config.PublishedDataSet;
import dev.opcua.stack.pubsub.config.PublishedEventField;
import dev.opcua.stack.pubsub.config.WriterGroupConfig;
import dev.opcua.stack.pubsub.message.DataSetMessageType;
import dev.opcua.stack.pubsub.message.PublisherId;
import dev.opcua.stack.pubsub.runtime.PubSubService;
import dev.opcua.stack.pubsub.runtime.ReceivedDataSet;
import dev.opcua.stack.pubsub.runtime.StandardMessageMappings;
import dev.opcua.stack.pubsub.transport.QualityOfService;
import dev.opcua.stack.pubsub.transport.mqtt.EmbeddedMqttBroker;
import dev.opcua.stack.pubsub.transport.mqtt.MqttSettings;
import dev.opcua.stack.pubsub.transport.mqtt.MqttTransport;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.nodes.OperationContext;
import dev.opcua.stack.server.subscriptions.events.UaEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/**
 * Events of a real server published as an events data set (Part 14, 6.2.3.3): an event reported on the Server
 * object through {@link OpcUaServer#events()} reaches a reader through a real broker with its selected fields, and
 * a where clause keeps the events it refuses out.
 */
class PubSubServerEventsTest {

    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final NodeId SERVER = NodeId.ns0(NodeIds.Server);
    private static final NodeId BASE_EVENT_TYPE = NodeId.ns0(NodeIds.BaseEventType);
    private static final List<PublishedEventField> FIELDS = List.of(PublishedEventField.base("EventType"),
            PublishedEventField.base("Message"), PublishedEventField.base("Severity"),
            PublishedEventField.base("SourceName"), PublishedEventField.base("Time"));

    private static OpcUaServer server;
    private static EmbeddedMqttBroker broker;
    private final List<AutoCloseable> toClose = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        broker = EmbeddedMqttBroker.anonymous();
        server = OpcUaServer.builder()
                .applicationUri("urn:test:pubsub-events")
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("127.0.0.1"))
                .build()
                .start();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    private MqttTransport transport(String clientId) {
        return new MqttTransport(MqttSettings.builder(broker.url()).clientId(clientId)
                .connectTimeout(Duration.ofSeconds(3)).reconnectDelay(Duration.ofMillis(100), Duration.ofMillis(500))
                .build());
    }

    /** A publisher of the server's events and a reader of them; returns what the reader receives. */
    private List<ReceivedDataSet> publishAndRead(String group, MessageEncoding encoding, PublishedDataSet dataSet)
            throws Exception {
        List<ReceivedDataSet> received = new CopyOnWriteArrayList<>();
        DataSetReaderConfig readerConfig = new DataSetReaderConfig("events", PublisherId.ofUInt16(4001), group, 2,
                8, encoding, QualityOfService.AT_LEAST_ONCE, null, dataSet.metaData(), List.of());
        PubSubService reader = PubSubService.builder()
                .mappings(new StandardMessageMappings(CodecRegistry.standard()))
                .connection(new PubSubConnectionConfig("sub", PublisherId.ofString("reader"), List.of(),
                        List.of(readerConfig)), transport("sub-" + group))
                .listener("events", received::add)
                .build();
        toClose.add(reader);
        reader.start().get(5, TimeUnit.SECONDS);

        WriterGroupConfig groupConfig = new WriterGroupConfig(group, 2, Duration.ofMillis(50), null, encoding,
                QualityOfService.AT_LEAST_ONCE, null, null,
                List.of(DataSetWriterConfig.of("server-events", 8, dataSet.name())));
        PubSubService publisher = PubSubService.builder()
                .mappings(new StandardMessageMappings(CodecRegistry.standard()))
                .dataSet(dataSet)
                .source(new AddressSpaceDataSets(server))
                .connection(new PubSubConnectionConfig("pub", PublisherId.ofUInt16(4001), List.of(groupConfig),
                        List.of()), transport("pub-" + group))
                .build();
        toClose.add(publisher);
        publisher.start().get(5, TimeUnit.SECONDS);
        return received;
    }

    private static void raise(String message, int severity) {
        server.events().report(SERVER, UaEvent.builder(BASE_EVENT_TYPE).sourceNode(SERVER).sourceName("Server")
                .message(message).severity(severity).build());
    }

    private static List<ReceivedDataSet> events(List<ReceivedDataSet> received) {
        return received.stream().filter(d -> d.type() == DataSetMessageType.EVENT).toList();
    }

    @ParameterizedTest
    @EnumSource(MessageEncoding.class)
    void an_event_raised_on_the_server_object_reaches_the_reader(MessageEncoding encoding) throws Exception {
        PublishedDataSet dataSet = PublishedDataSet.events("ServerEvents", SERVER, FIELDS);
        List<ReceivedDataSet> received = publishAndRead("server-" + encoding, encoding, dataSet);

        raise("Boiler overheats", 800);

        await().atMost(WAIT).until(() -> !events(received).isEmpty());
        ReceivedDataSet event = events(received).get(0);
        assertThat(event.dataSetWriterId()).isEqualTo(8);
        assertThat(event.fields().get("Message").value()).isEqualTo(Variant.of(LocalizedText.of("Boiler overheats")));
        assertThat(event.fields().get("Severity").value()).isEqualTo(Variant.ofUInt16(800));
        assertThat(event.fields().get("SourceName").value()).isEqualTo(Variant.ofString("Server"));
        assertThat(event.fields().get("EventType").value()).isEqualTo(Variant.of(BASE_EVENT_TYPE));
        assertThat(event.fields().get("Time").value().type()).isEqualTo(BuiltinType.DateTime);
    }

    @Test
    void the_where_clause_keeps_the_events_it_refuses_out() throws Exception {
        SimpleAttributeOperand severity = new SimpleAttributeOperand(BASE_EVENT_TYPE,
                new QualifiedName[] {QualifiedName.of(0, "Severity")}, AttributeIds.Value, null);
        ContentFilter atLeast500 = new ContentFilter(new ContentFilterElement[] {new ContentFilterElement(
                FilterOperator.GreaterThanOrEqual, new ExtensionObject[] {ExtensionObject.of(severity),
                    ExtensionObject.of(new LiteralOperand(Variant.ofUInt16(500)))})});
        PublishedDataSet dataSet = PublishedDataSet.events("SevereEvents", SERVER, FIELDS, atLeast500);
        List<ReceivedDataSet> received = publishAndRead("severe", MessageEncoding.JSON, dataSet);

        raise("minor", 100);
        raise("major", 900);

        await().atMost(WAIT).until(() -> !events(received).isEmpty());
        Thread.sleep(300); // a few more intervals: the minor event would have come with or before the major one
        assertThat(events(received)).extracting(d -> d.fields().get("Message").value())
                .containsExactly(Variant.of(LocalizedText.of("major")));
    }

    @Test
    void the_information_model_shows_an_events_data_set_as_PublishedEventsType() throws Exception {
        PublishedDataSet dataSet = PublishedDataSet.events("ModelEvents", SERVER, FIELDS);
        PubSubService service = TestPubSubServices.builder().dataSet(dataSet)
                .connection(new PubSubConnectionConfig("Broker", PublisherId.ofUInt16(5), List.of(), List.of()),
                        new TestPubSubServices.FakeTransport())
                .build();
        toClose.add(service);
        PubSubInformationModel model = PubSubInformationModel.register(server, service);
        NodeId node = model.publishedDataSet("ModelEvents");
        ReadValueId[] reads = {
            new ReadValueId(childOf(node, "EventNotifier"), AttributeIds.Value, null, QualifiedName.NULL),
            new ReadValueId(childOf(node, "SelectedFields"), AttributeIds.Value, null, QualifiedName.NULL),
            new ReadValueId(childOf(node, "Filter"), AttributeIds.Value, null, QualifiedName.NULL)};
        DataValue[] values = server.nodeManagers().read(OperationContext.INTERNAL, reads, 0,
                TimestampsToReturn.Neither).get(5, TimeUnit.SECONDS);
        assertThat(values[0].value()).isEqualTo(Variant.of(SERVER));
        ExtensionObject[] selected = (ExtensionObject[]) values[1].value().value();
        assertThat(selected).hasSize(5);
        assertThat(selected[1].decoded()).isEqualTo(FIELDS.get(1).select());
        assertThat(values[2].statusCode().isGood()).isTrue();
    }

    private static NodeId childOf(NodeId parent, String browseName) {
        return NodeId.string(parent.namespaceIndex(), parent.stringId() + "." + browseName);
    }

    @Test
    void a_field_the_event_types_do_not_declare_is_refused_when_the_writer_starts() {
        PublishedDataSet dataSet = PublishedDataSet.events("Bad", SERVER, List.of(PublishedEventField.of("Nope",
                NodeId.ns0(NodeIds.AuditEventType), BuiltinType.String, "NoSuchField")));
        AddressSpaceDataSets source = new AddressSpaceDataSets(server);
        assertThatThrownBy(() -> source.subscribe(dataSet, values -> { }))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("NoSuchField");
    }
}
