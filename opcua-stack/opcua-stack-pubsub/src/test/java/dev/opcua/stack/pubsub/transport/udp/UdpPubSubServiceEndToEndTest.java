package dev.opcua.stack.pubsub.transport.udp;

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
import dev.opcua.stack.pubsub.runtime.InMemoryDataSetSource;
import dev.opcua.stack.pubsub.runtime.PubSubService;
import dev.opcua.stack.pubsub.runtime.ReceivedDataSet;
import dev.opcua.stack.pubsub.runtime.StandardMessageMappings;
import dev.opcua.stack.pubsub.transport.QualityOfService;
import java.net.NetworkInterface;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The wiring of PubSubServiceEndToEndTest with UdpTransport instead of MqttTransport: a publishing PubSubService
 * and a reading one, UADP over OPC UA UDP (Part 14, 7.3.2), the writer group's and reader's queueName being the
 * address URL. Unicast with the reader's metadata configured; multicast on the loopback interface with the metadata
 * learned from the publisher's discovery announcement sent to the group.
 */
class UdpPubSubServiceEndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(15);
    private final List<AutoCloseable> toClose = new ArrayList<>();

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

    private static UdpTransport transport(String url, String networkInterface) {
        return new UdpTransport(UdpSettings.builder(url).networkInterface(networkInterface)
                .maxDatagramSize(UdpSettings.MTU_PAYLOAD_IPV4).build());
    }

    private PubSubService publisher(UdpTransport transport, String queueName, String metaDataQueueName,
            InMemoryDataSetSource source) {
        WriterGroupConfig group = new WriterGroupConfig("plant-UADP", 7, Duration.ofMillis(50), null,
                MessageEncoding.UADP, QualityOfService.AT_MOST_ONCE, queueName, metaDataQueueName,
                List.of(new DataSetWriterConfig("line", 3, "Line", 1, 0)));
        PubSubService service = PubSubService.builder()
                .mappings(new StandardMessageMappings(CodecRegistry.standard()))
                .dataSet(LINE)
                .source(source.add(LINE))
                .connection(new PubSubConnectionConfig("pub", PublisherId.ofUInt16(2234), List.of(group), List.of()),
                        transport)
                .build();
        toClose.add(service);
        return service;
    }

    /** A reader of the address; the writer group name stays set, its MQTT metadata topic simply gets nothing. */
    private PubSubService reader(UdpTransport transport, String queueName, boolean withMetaData,
            List<ReceivedDataSet> received) {
        DataSetReaderConfig reader = new DataSetReaderConfig("line", PublisherId.ofUInt16(2234), "plant-UADP", 7, 3,
                MessageEncoding.UADP, QualityOfService.AT_MOST_ONCE, queueName,
                withMetaData ? LINE.metaData() : null, List.of());
        PubSubService service = PubSubService.builder()
                .mappings(new StandardMessageMappings(CodecRegistry.standard()))
                .connection(new PubSubConnectionConfig("sub", PublisherId.ofString("reader"), List.of(),
                        List.of(reader)), transport)
                .listener("line", received::add)
                .build();
        toClose.add(service);
        return service;
    }

    private static void values(InMemoryDataSetSource source) {
        source.set("Line", "Speed", DataValue.of(Variant.ofDouble(412.5)));
        source.set("Line", "Count", DataValue.of(Variant.ofUInt32(17)));
        source.set("Line", "State", DataValue.of(Variant.ofString("RUNNING")));
    }

    private static void assertKeyFrameThenChange(List<ReceivedDataSet> received, InMemoryDataSetSource source) {
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
    }

    @Test
    void unicast_values_set_on_the_publisher_reach_the_readers_listener() throws Exception {
        String readerUrl = "opc.udp://127.0.0.1:" + UdpTransportTest.freePort();
        List<ReceivedDataSet> received = new CopyOnWriteArrayList<>();
        UdpTransport readerTransport = transport(readerUrl, null);
        PubSubService reader = reader(readerTransport, readerUrl, true, received);
        reader.start().get(5, TimeUnit.SECONDS);
        await().atMost(WAIT).until(() -> readerTransport.receiveAddress() != null);

        InMemoryDataSetSource source = new InMemoryDataSetSource();
        // unicast (7.3.2.3): the connection's own address is where it would receive; the destination is the
        // writer group's queueName
        UdpTransport publisherTransport = transport("opc.udp://localhost:" + UdpTransportTest.freePort(), null);
        PubSubService publisher = publisher(publisherTransport, readerUrl, null, source);
        source.add(LINE);
        values(source);
        publisher.start().get(5, TimeUnit.SECONDS);

        assertKeyFrameThenChange(received, source);
        assertThat(publisher.statistics().messagesSent()).isGreaterThan(1);
        assertThat(reader.statistics().dataSetsReceived()).isGreaterThan(1);
        assertThat(reader.statistics().decodeErrors()).isZero();
        assertThat(reader.statistics().unknownPublishers()).isZero();
        // the Online status and the metadata go to MQTT topic tree topics: not sent over UDP
        assertThat(publisherTransport.unaddressedMessages()).isEqualTo(2);
        assertThat(publisherTransport.statistics().messagesDropped()).isZero();
        assertThat(publisherTransport.statistics().messagesSent()).isGreaterThan(1);
        assertThat(readerTransport.statistics().messagesReceived()).isGreaterThan(1);
        assertThat(publisherTransport.receiveAddress()).isNull(); // nothing subscribed, no port bound
    }

    @Test
    void multicast_with_the_metadata_announced_to_the_group() throws Exception {
        NetworkInterface lo = NetworkInterface.getByName("lo");
        Assumptions.assumeTrue(lo != null && lo.isUp(), "no loopback interface named lo (Linux)");
        String group = "opc.udp://239.255." + ThreadLocalRandom.current().nextInt(1, 255) + ".43:"
                + UdpTransportTest.freePort();
        List<ReceivedDataSet> received = new CopyOnWriteArrayList<>();
        UdpTransport readerTransport = transport(group, "lo");
        PubSubService reader = reader(readerTransport, group, false, received);
        reader.start().get(5, TimeUnit.SECONDS);
        await().atMost(WAIT).until(() -> readerTransport.receiveAddress() != null
                || readerTransport.statistics().lastError() != null);
        Assumptions.assumeTrue(readerTransport.receiveAddress() != null,
                () -> "cannot join a multicast group on lo here: " + readerTransport.statistics().lastError());

        InMemoryDataSetSource source = new InMemoryDataSetSource();
        UdpTransport publisherTransport = transport(group, "lo");
        PubSubService publisher = publisher(publisherTransport, group, group, source);
        source.add(LINE);
        values(source);
        publisher.start().get(5, TimeUnit.SECONDS);

        assertKeyFrameThenChange(received, source);
        assertThat(reader.statistics().decodeErrors()).isZero();
        assertThat(publisherTransport.unaddressedMessages()).isEqualTo(1); // the status message only
    }
}
