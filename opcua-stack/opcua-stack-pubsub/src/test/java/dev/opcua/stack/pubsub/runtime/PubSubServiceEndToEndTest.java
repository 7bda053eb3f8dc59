package dev.opcua.stack.pubsub.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.pubsub.config.DataSetReaderConfig;
import dev.opcua.stack.pubsub.config.DataSetWriterConfig;
import dev.opcua.stack.pubsub.config.MessageEncoding;
import dev.opcua.stack.pubsub.config.PubSubConnectionConfig;
import dev.opcua.stack.pubsub.config.PublishedDataSet;
import dev.opcua.stack.pubsub.config.PublishedField;
import dev.opcua.stack.pubsub.config.WriterGroupConfig;
import dev.opcua.stack.pubsub.message.DataSetMessageType;
import dev.opcua.stack.pubsub.message.PublisherId;
import dev.opcua.stack.pubsub.transport.QualityOfService;
import dev.opcua.stack.pubsub.transport.mqtt.EmbeddedMqttBroker;
import dev.opcua.stack.pubsub.transport.mqtt.MqttSettings;
import dev.opcua.stack.pubsub.transport.mqtt.MqttTransport;
import java.nio.charset.StandardCharsets;
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
 * A publishing PubSubService and a reading one, each with its own MQTT connection to a real broker (Moquette in
 * this JVM): values set on the publisher arrive at the reader's listener, in JSON and UADP, with delta frames;
 * malformed, foreign and mismatched messages on the reader's topic are counted and leave it reading.
 */
class PubSubServiceEndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(15);
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

    private static final PublishedDataSet LINE = new PublishedDataSet("Line", List.of(
            PublishedField.of("Speed", BuiltinType.Double),
            PublishedField.of("Count", BuiltinType.UInt32),
            PublishedField.of("State", BuiltinType.String)));

    private MqttTransport transport(String clientId) {
        MqttTransport transport = new MqttTransport(MqttSettings.builder(broker.url()).clientId(clientId)
                .connectTimeout(Duration.ofSeconds(3)).reconnectDelay(Duration.ofMillis(100), Duration.ofMillis(500))
                .build());
        return transport;
    }

    private PubSubService publisher(MessageEncoding encoding, InMemoryDataSetSource source, int keyFrameCount) {
        return publisher(encoding, source, keyFrameCount, false);
    }

    private PubSubService publisher(MessageEncoding encoding, InMemoryDataSetSource source, int keyFrameCount,
            boolean retain) {
        WriterGroupConfig group = new WriterGroupConfig("plant-" + encoding, 7, Duration.ofMillis(50), null, encoding,
                QualityOfService.AT_LEAST_ONCE, null, null,
                List.of(new DataSetWriterConfig("line", 3, "Line", keyFrameCount, 0)), retain);
        PubSubService service = PubSubService.builder()
                .mappings(new StandardMessageMappings(CodecRegistry.standard()))
                .dataSet(LINE)
                .source(source.add(LINE))
                .connection(new PubSubConnectionConfig("pub", PublisherId.ofUInt16(2234), List.of(group), List.of()),
                        transport("pub-" + encoding))
                .build();
        toClose.add(service);
        return service;
    }

    private PubSubService reader(MessageEncoding encoding, List<ReceivedDataSet> received) {
        return reader(encoding, received, encoding == MessageEncoding.UADP);
    }

    /** A reader; without metadata it takes the publisher's from the retained metadata topic. */
    private PubSubService reader(MessageEncoding encoding, List<ReceivedDataSet> received, boolean withMetaData) {
        DataSetReaderConfig reader = new DataSetReaderConfig("line", PublisherId.ofUInt16(2234), "plant-" + encoding,
                7, 3, encoding, QualityOfService.AT_LEAST_ONCE, null,
                withMetaData ? LINE.metaData() : null, List.of());
        PubSubService service = PubSubService.builder()
                .mappings(new StandardMessageMappings(CodecRegistry.standard()))
                .connection(new PubSubConnectionConfig("sub", PublisherId.ofString("reader"), List.of(),
                        List.of(reader)), transport("sub-" + encoding))
                .listener("line", received::add)
                .build();
        toClose.add(service);
        return service;
    }

    @ParameterizedTest
    @EnumSource(MessageEncoding.class)
    void values_set_on_the_publisher_reach_the_readers_listener(MessageEncoding encoding) throws Exception {
        List<ReceivedDataSet> received = new CopyOnWriteArrayList<>();
        PubSubService reader = reader(encoding, received);
        reader.start().get(5, TimeUnit.SECONDS);
        InMemoryDataSetSource source = new InMemoryDataSetSource();
        PubSubService publisher = publisher(encoding, source, 1);
        source.add(LINE);
        source.set("Line", "Speed", DataValue.of(Variant.ofDouble(412.5)));
        source.set("Line", "Count", DataValue.of(Variant.ofUInt32(17)));
        source.set("Line", "State", DataValue.of(Variant.ofString("RUNNING")));
        publisher.start().get(5, TimeUnit.SECONDS);

        await().atMost(WAIT).until(() -> received.stream().anyMatch(d -> d.fields().size() == 3));
        ReceivedDataSet first = received.stream().filter(d -> d.fields().size() == 3).findFirst().orElseThrow();
        assertThat(first.type()).isEqualTo(DataSetMessageType.KEY_FRAME);
        assertThat(first.dataSetWriterId()).isEqualTo(3);
        assertThat(first.fields().get("Speed").value()).isEqualTo(Variant.ofDouble(412.5));
        assertThat(first.fields().get("Count").value()).isEqualTo(Variant.ofUInt32(17));
        assertThat(first.fields().get("State").value()).isEqualTo(Variant.ofString("RUNNING"));

        source.set("Line", "Count", DataValue.of(Variant.ofUInt32(18)));
        await().atMost(WAIT).until(() -> received.stream()
                .anyMatch(d -> Variant.ofUInt32(18).equals(d.fields().get("Count").value())));
        assertThat(publisher.statistics().messagesSent()).isGreaterThan(1);
        assertThat(reader.statistics().dataSetsReceived()).isGreaterThan(1);
        assertThat(reader.statistics().decodeErrors()).isZero();
    }

    @Test
    void delta_frames_carry_only_the_changed_fields() throws Exception {
        List<ReceivedDataSet> received = new CopyOnWriteArrayList<>();
        reader(MessageEncoding.JSON, received).start().get(5, TimeUnit.SECONDS);
        InMemoryDataSetSource source = new InMemoryDataSetSource();
        PubSubService publisher = publisher(MessageEncoding.JSON, source, 1000);
        source.add(LINE);
        source.set("Line", "Speed", 1.0);
        source.set("Line", "Count", DataValue.of(Variant.ofUInt32(1)));
        source.set("Line", "State", "IDLE");
        publisher.start().get(5, TimeUnit.SECONDS);
        await().atMost(WAIT).until(() -> !received.isEmpty());
        source.set("Line", "Speed", 2.0);
        await().atMost(WAIT).until(() -> received.stream().anyMatch(d -> d.type() == DataSetMessageType.DELTA_FRAME));
        ReceivedDataSet delta = received.stream().filter(d -> d.type() == DataSetMessageType.DELTA_FRAME)
                .findFirst().orElseThrow();
        assertThat(delta.fields()).containsOnlyKeys("Speed");
        assertThat(delta.fields().get("Speed").value()).isEqualTo(Variant.ofDouble(2.0));
    }

    @Test
    void a_retained_group_gives_a_reader_that_comes_later_the_last_message() throws Exception {
        InMemoryDataSetSource source = new InMemoryDataSetSource();
        PubSubService publisher = publisher(MessageEncoding.JSON, source, 1, true);
        source.add(LINE);
        source.set("Line", "Speed", 77.0);
        source.set("Line", "Count", DataValue.of(Variant.ofUInt32(5)));
        source.set("Line", "State", "IDLE");
        publisher.start().get(5, TimeUnit.SECONDS);
        await().atMost(WAIT).until(() -> publisher.statistics().publishCount() > 2);
        publisher.close();

        try {
            List<ReceivedDataSet> received = new CopyOnWriteArrayList<>();
            reader(MessageEncoding.JSON, received).start().get(5, TimeUnit.SECONDS);
            await().atMost(WAIT).until(() -> !received.isEmpty());
            assertThat(received.get(0).fields().get("Speed").value()).isEqualTo(Variant.ofDouble(77.0));
        } finally {
            // an empty retained message removes the retained one (MQTT 3.1.1, 3.3.1.3): the other tests share the topic
            MqttTransport raw = transport("clear");
            toClose.add(raw);
            raw.start().get(5, TimeUnit.SECONDS);
            raw.publish("opcua/json/data/2234/plant-JSON", new byte[0], QualityOfService.AT_LEAST_ONCE, true);
            await().atMost(WAIT).until(() -> raw.statistics().messagesSent() == 1);
        }
    }

    @Test
    void malformed_foreign_and_mismatched_messages_are_counted_and_the_reader_keeps_reading() throws Exception {
        List<ReceivedDataSet> received = new CopyOnWriteArrayList<>();
        PubSubService reader = reader(MessageEncoding.JSON, received, true);
        reader.start().get(5, TimeUnit.SECONDS);
        MqttTransport raw = transport("raw");
        toClose.add(raw);
        raw.start().get(5, TimeUnit.SECONDS);
        String topic = "opcua/json/data/2234/plant-JSON";
        raw.publish(topic, "{\"MessageType\":\"ua-data\",\"Messages\":[{".getBytes(StandardCharsets.UTF_8),
                QualityOfService.AT_LEAST_ONCE, false);
        raw.publish(topic, ("{\"MessageId\":\"x\",\"MessageType\":\"ua-data\",\"PublisherId\":\"2234\",\"Messages\":"
                + "[{\"DataSetWriterId\":99,\"Payload\":{\"Speed\":1.5}}]}").getBytes(StandardCharsets.UTF_8),
                QualityOfService.AT_LEAST_ONCE, false);
        raw.publish(topic, ("{\"MessageId\":\"y\",\"MessageType\":\"ua-data\",\"PublisherId\":\"2234\",\"Messages\":"
                + "[{\"DataSetWriterId\":3,\"MetaDataVersion\":{\"MajorVersion\":1,\"MinorVersion\":1},"
                + "\"Payload\":{\"Speed\":1.5}}]}").getBytes(StandardCharsets.UTF_8), QualityOfService.AT_LEAST_ONCE,
                false);
        raw.publish(topic, ("{\"MessageId\":\"z\",\"MessageType\":\"ua-data\",\"PublisherId\":\"2234\",\"Messages\":"
                + "[{\"DataSetWriterId\":3,\"Payload\":{\"Speed\":{\"UaType\":11,\"Value\":3.25},\"State\":\"RUNNING\"}}]}")
                .getBytes(StandardCharsets.UTF_8), QualityOfService.AT_LEAST_ONCE, false);
        await().atMost(WAIT).until(() -> !received.isEmpty());
        assertThat(received.get(0).fields().get("Speed").value()).isEqualTo(Variant.ofDouble(3.25));
        assertThat(received.get(0).fields().get("State").value()).isEqualTo(Variant.ofString("RUNNING"));
        PubSubStatistics statistics = reader.statistics();
        assertThat(statistics.decodeErrors()).isEqualTo(1);
        assertThat(statistics.unknownPublishers()).isEqualTo(1);
        assertThat(statistics.versionMismatches()).isEqualTo(1);
        // the four, and the retained metadata an earlier test's publisher left on the broker
        assertThat(statistics.messagesReceived()).isGreaterThanOrEqualTo(4);
        assertThat(received).hasSize(1);
    }
}
