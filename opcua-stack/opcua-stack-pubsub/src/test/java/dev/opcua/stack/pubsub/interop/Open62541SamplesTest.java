package dev.opcua.stack.pubsub.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.pubsub.config.MessageEncoding;
import dev.opcua.stack.pubsub.message.DataSetField;
import dev.opcua.stack.pubsub.message.DataSetMessage;
import dev.opcua.stack.pubsub.message.DataSetMessageType;
import dev.opcua.stack.pubsub.message.MessageDecoder;
import dev.opcua.stack.pubsub.message.MetaDataLookup;
import dev.opcua.stack.pubsub.message.NetworkMessage;
import dev.opcua.stack.pubsub.message.PubSubMessage;
import dev.opcua.stack.pubsub.message.PublisherId;
import dev.opcua.stack.pubsub.runtime.StandardMessageMappings;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Messages captured from open62541 1.5.7's {@code pubsub_mqtt_publisher} (opcua-benchmarks/peers/open62541-1.5/
 * samples/open62541-json-data.txt and open62541-uadp-data.hex, copied here because the samples folder is not on the
 * test classpath) decode with our JSON and UADP decoders: message n carries Counter (UInt32) n, Temperature (Double)
 * 20 + n/10, Running (Boolean) n odd, Label "line-n", from DataSetWriterId 62541 of PublisherId 2234.
 */
class Open62541SamplesTest {

    private static final List<String> JSON = List.of(
            "{\"MessageId\":null,\"MessageType\":\"ua-data\",\"PublisherId\":\"2234\",\"Messages\":[{\"DataSetWriterId\":62541,\"SequenceNumber\":0,\"MetaDataVersion\":{\"MajorVersion\":2690984255,\"MinorVersion\":2690983738},\"Timestamp\":\"2026-12-05T06:27:59.9552078Z\",\"Status\":0,\"MessageType\":\"ua-keyframe\",\"Payload\":{\"Counter\":{\"UaType\":7,\"Value\":1},\"Temperature\":{\"UaType\":11,\"Value\":20.1},\"Running\":{\"UaType\":1,\"Value\":true},\"Label\":{\"UaType\":12,\"Value\":\"line-1\"}}}]}",
            "{\"MessageId\":null,\"MessageType\":\"ua-data\",\"PublisherId\":\"2234\",\"Messages\":[{\"DataSetWriterId\":62541,\"SequenceNumber\":1,\"MetaDataVersion\":{\"MajorVersion\":2690984255,\"MinorVersion\":2690983738},\"Timestamp\":\"2026-12-05T06:28:00.1554134Z\",\"Status\":0,\"MessageType\":\"ua-keyframe\",\"Payload\":{\"Counter\":{\"UaType\":7,\"Value\":2},\"Temperature\":{\"UaType\":11,\"Value\":20.2},\"Running\":{\"UaType\":1,\"Value\":false},\"Label\":{\"UaType\":12,\"Value\":\"line-2\"}}}]}",
            "{\"MessageId\":null,\"MessageType\":\"ua-data\",\"PublisherId\":\"2234\",\"Messages\":[{\"DataSetWriterId\":62541,\"SequenceNumber\":2,\"MetaDataVersion\":{\"MajorVersion\":2690984255,\"MinorVersion\":2690983738},\"Timestamp\":\"2026-12-05T06:28:00.3548644Z\",\"Status\":0,\"MessageType\":\"ua-keyframe\",\"Payload\":{\"Counter\":{\"UaType\":7,\"Value\":3},\"Temperature\":{\"UaType\":11,\"Value\":20.3},\"Running\":{\"UaType\":1,\"Value\":true},\"Label\":{\"UaType\":12,\"Value\":\"line-3\"}}}]}");

    private static final List<String> UADP = List.of(
            "f101ba080964000000014df489100000806df6dd8184dd01040007010000000b9a9999999919344001010c060000006c696e652d31",
            "f101ba080964000100014df48910010063df14de8184dd01040007020000000b333333333333344001000c060000006c696e652d32",
            "f101ba080964000200014df4891002005e7833de8184dd01040007030000000bcdcccccccc4c344001010c060000006c696e652d33");

    private static final List<String> NAMES = List.of("Counter", "Temperature", "Running", "Label");

    private static MessageDecoder decoder(MessageEncoding encoding) {
        return new StandardMessageMappings(CodecRegistry.standard()).decoder(encoding, MetaDataLookup.NONE);
    }

    private static DataSetMessage single(PubSubMessage decoded) {
        assertThat(decoded).isInstanceOf(NetworkMessage.class);
        NetworkMessage network = (NetworkMessage) decoded;
        assertThat(network.messages()).hasSize(1);
        return network.messages().get(0);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void json_data_messages_of_open62541_decode_field_by_field(int n) {
        PubSubMessage decoded = decoder(MessageEncoding.JSON).decode(JSON.get(n - 1).getBytes(StandardCharsets.UTF_8));
        NetworkMessage network = (NetworkMessage) decoded;
        assertThat(network.messageId()).isNull();
        assertThat(network.publisherId()).hasToString("2234");
        DataSetMessage message = single(decoded);
        assertThat(message.dataSetWriterId()).isEqualTo(62541);
        assertThat(message.sequenceNumber()).isEqualTo(n - 1);
        assertThat(message.type()).isEqualTo(DataSetMessageType.KEY_FRAME);
        assertThat(message.configurationVersion().majorVersion()).isEqualTo(2690984255L);
        assertThat(message.configurationVersion().minorVersion()).isEqualTo(2690983738L);
        assertThat(message.timestamp()).isNotNull();
        assertThat(message.status() == null || message.status().isGood()).isTrue();
        assertFields(message.fields(), n, true);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void uadp_data_messages_of_open62541_decode_field_by_field_without_metadata(int n) {
        PubSubMessage decoded = decoder(MessageEncoding.UADP).decode(HexFormat.of().parseHex(UADP.get(n - 1)));
        NetworkMessage network = (NetworkMessage) decoded;
        assertThat(network.publisherId()).isEqualTo(PublisherId.ofUInt16(2234));
        assertThat(network.publisherId()).hasToString("2234");
        assertThat(network.writerGroupId()).isEqualTo(100);
        assertThat(network.sequenceNumber()).isEqualTo(n - 1);
        DataSetMessage message = single(decoded);
        assertThat(message.dataSetWriterId()).isEqualTo(62541);
        assertThat(message.sequenceNumber()).isEqualTo(n - 1);
        assertThat(message.type()).isEqualTo(DataSetMessageType.KEY_FRAME);
        assertThat(message.timestamp()).isNotNull();
        assertFields(message.fields(), n, false);
    }

    /** The four fields in order; JSON names them, UADP (without metadata) only numbers them. */
    private static void assertFields(List<DataSetField> fields, int n, boolean named) {
        assertThat(fields).hasSize(4);
        for (int i = 0; i < 4; i++) {
            assertThat(fields.get(i).index()).isEqualTo(i);
            if (named) {
                assertThat(fields.get(i).name()).isEqualTo(NAMES.get(i));
            }
        }
        assertThat(fields.get(0).value().value()).isEqualTo(Variant.ofUInt32(n));
        assertThat(fields.get(1).value().value()).isEqualTo(Variant.ofDouble(20.0 + n / 10.0));
        assertThat(fields.get(2).value().value()).isEqualTo(Variant.ofBoolean(n % 2 == 1));
        assertThat(fields.get(3).value().value()).isEqualTo(Variant.ofString("line-" + n));
    }
}
