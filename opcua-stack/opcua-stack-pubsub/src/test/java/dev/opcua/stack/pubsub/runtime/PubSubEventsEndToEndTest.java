package dev.opcua.stack.pubsub.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.pubsub.config.DataSetReaderConfig;
import dev.opcua.stack.pubsub.config.DataSetWriterConfig;
import dev.opcua.stack.pubsub.config.MessageEncoding;
import dev.opcua.stack.pubsub.config.PubSubConnectionConfig;
import dev.opcua.stack.pubsub.config.PublishedDataSet;
import dev.opcua.stack.pubsub.config.PublishedEventField;
import dev.opcua.stack.pubsub.config.WriterGroupConfig;
import dev.opcua.stack.pubsub.message.DataSetMessageType;
import dev.opcua.stack.pubsub.message.PublisherId;
import dev.opcua.stack.pubsub.transport.QualityOfService;
import dev.opcua.stack.pubsub.transport.mqtt.EmbeddedMqttBroker;
import dev.opcua.stack.pubsub.transport.mqtt.MqttSettings;
import dev.opcua.stack.pubsub.transport.mqtt.MqttTransport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Events data sets (Part 14, 6.2.3.3) from the application's event source through a real broker (Moquette in this
 * JVM) to a reader's listener: one EVENT data set message per event, in JSON and UADP; a full queue discards the
 * oldest events and counts them.
 */
class PubSubEventsEndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final NodeId SERVER = NodeId.ns0(NodeIds.Server);
    private static final NodeId BASE_EVENT_TYPE = NodeId.ns0(NodeIds.BaseEventType);
    private static final PublishedDataSet ALARMS = PublishedDataSet.events("Alarms", SERVER, List.of(
            PublishedEventField.base("EventType"), PublishedEventField.base("Message"),
            PublishedEventField.base("Severity"), PublishedEventField.base("SourceName"),
            PublishedEventField.base("Time")));

    private static EmbeddedMqttBroker broker;
    private final List<AutoCloseable> toClose = new ArrayList<>();

    @BeforeAll
    static void startBroker() {
        broker = EmbeddedMqttBroker.anonymous();
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
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

    private PubSubService publisher(String group, MessageEncoding encoding, InMemoryDataSetSource source,
            Duration interval, int queue) {
        WriterGroupConfig config = new WriterGroupConfig(group, 9, interval, null, encoding,
                QualityOfService.AT_LEAST_ONCE, null, null, List.of(DataSetWriterConfig.of("alarms", 5, "Alarms")));
        PubSubService service = PubSubService.builder()
                .mappings(new StandardMessageMappings(CodecRegistry.standard()))
                .dataSet(ALARMS)
                .source(source.add(ALARMS))
                .eventQueueCapacity(queue)
                .connection(new PubSubConnectionConfig("pub", PublisherId.ofUInt16(3001), List.of(config), List.of()),
                        transport("pub-" + group))
                .build();
        toClose.add(service);
        return service;
    }

    private PubSubService reader(String group, MessageEncoding encoding, List<ReceivedDataSet> received) {
        DataSetReaderConfig reader = new DataSetReaderConfig("alarms", PublisherId.ofUInt16(3001), group, 9, 5,
                encoding, QualityOfService.AT_LEAST_ONCE, null, ALARMS.metaData(), List.of());
        PubSubService service = PubSubService.builder()
                .mappings(new StandardMessageMappings(CodecRegistry.standard()))
                .connection(new PubSubConnectionConfig("sub", PublisherId.ofString("reader"), List.of(),
                        List.of(reader)), transport("sub-" + group))
                .listener("alarms", received::add)
                .build();
        toClose.add(service);
        return service;
    }

    private static List<ReceivedDataSet> events(List<ReceivedDataSet> received) {
        return received.stream().filter(d -> d.type() == DataSetMessageType.EVENT).toList();
    }

    @ParameterizedTest
    @EnumSource(MessageEncoding.class)
    void each_event_reaches_the_readers_listener_with_its_fields(MessageEncoding encoding) throws Exception {
        String group = "events-" + encoding;
        List<ReceivedDataSet> received = new CopyOnWriteArrayList<>();
        PubSubService reader = reader(group, encoding, received);
        reader.start().get(5, TimeUnit.SECONDS);
        InMemoryDataSetSource source = new InMemoryDataSetSource();
        PubSubService publisher = publisher(group, encoding, source, Duration.ofMillis(50), 100);
        publisher.start().get(5, TimeUnit.SECONDS);

        DateTime time = DateTime.now();
        assertThat(source.emitEvent("Alarms", BASE_EVENT_TYPE, LocalizedText.of("en", "Boiler overheats"),
                Variant.ofUInt16(800), "Boiler", time)).isEqualTo(1);
        source.emitEvent("Alarms", BASE_EVENT_TYPE, LocalizedText.of("en", "Boiler cooled down"),
                Variant.ofUInt16(200), "Boiler", time);

        await().atMost(WAIT).until(() -> events(received).size() == 2);
        ReceivedDataSet first = events(received).get(0);
        assertThat(first.dataSetWriterId()).isEqualTo(5);
        assertThat(first.fields()).containsOnlyKeys("EventType", "Message", "Severity", "SourceName", "Time");
        assertThat(first.fields().get("EventType").value()).isEqualTo(Variant.of(BASE_EVENT_TYPE));
        assertThat(first.fields().get("Message").value()).isEqualTo(Variant.of(LocalizedText.of("en",
                "Boiler overheats")));
        assertThat(first.fields().get("Severity").value()).isEqualTo(Variant.ofUInt16(800));
        assertThat(first.fields().get("SourceName").value()).isEqualTo(Variant.ofString("Boiler"));
        assertThat(first.fields().get("Time").value()).isEqualTo(Variant.of(time));
        ReceivedDataSet second = events(received).get(1);
        assertThat(second.fields().get("Severity").value()).isEqualTo(Variant.ofUInt16(200));
        // one sequence number per message; a keep-alive between the two events takes one too
        assertThat(second.sequenceNumber()).isGreaterThan(first.sequenceNumber());
        assertThat(reader.statistics().decodeErrors()).isZero();
        assertThat(publisher.statistics().messagesDropped()).isZero();
    }

    @Test
    void a_full_queue_discards_the_oldest_events_and_counts_them() throws Exception {
        String group = "overflow";
        List<ReceivedDataSet> received = new CopyOnWriteArrayList<>();
        reader(group, MessageEncoding.JSON, received).start().get(5, TimeUnit.SECONDS);
        InMemoryDataSetSource source = new InMemoryDataSetSource();
        PubSubService publisher = publisher(group, MessageEncoding.JSON, source, Duration.ofSeconds(1), 3);
        publisher.start().get(5, TimeUnit.SECONDS);

        for (int i = 1; i <= 10; i++) {
            source.emitEvent("Alarms", BASE_EVENT_TYPE, LocalizedText.of("event " + i), Variant.ofUInt16(i), "Line");
        }
        assertThat(publisher.statistics().messagesDropped()).isEqualTo(7);
        await().atMost(WAIT).until(() -> events(received).size() == 3);
        assertThat(events(received)).extracting(d -> d.fields().get("Severity").value())
                .containsExactly(Variant.ofUInt16(8), Variant.ofUInt16(9), Variant.ofUInt16(10));
        // the field not given is published as null
        assertThat(events(received).get(0).fields().get("Time").value().isNull()).isTrue();
    }

    @Test
    void events_need_an_event_source_and_an_events_data_set() {
        WriterGroupConfig config = new WriterGroupConfig("g", 1, Duration.ofSeconds(1), null, MessageEncoding.JSON,
                QualityOfService.AT_LEAST_ONCE, null, null, List.of(DataSetWriterConfig.of("alarms", 5, "Alarms")));
        assertThatThrownBy(() -> PubSubService.builder()
                .mappings(new StandardMessageMappings(CodecRegistry.standard()))
                .dataSet(ALARMS)
                .source(dataSet -> null)
                .connection(new PubSubConnectionConfig("pub", PublisherId.ofUInt16(1), List.of(config), List.of()),
                        transport("unused"))
                .build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no EventSource");
        InMemoryDataSetSource source = new InMemoryDataSetSource();
        PublishedDataSet line = new PublishedDataSet("Line", List.of(
                dev.opcua.stack.pubsub.config.PublishedField.of("Speed",
                        dev.opcua.stack.core.types.builtin.BuiltinType.Double)));
        source.add(line);
        assertThatThrownBy(() -> source.emitEvent("Line", 1.0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not an events data set");
        assertThatThrownBy(() -> PublishedEventField.base("Nope")).isInstanceOf(IllegalArgumentException.class);
    }
}
