package dev.opcua.stack.pubsub.message.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.DataSetFieldContentMask;
import dev.opcua.stack.pubsub.config.PublishedDataSet;
import dev.opcua.stack.pubsub.config.PublishedField;
import dev.opcua.stack.pubsub.message.DataSetField;
import dev.opcua.stack.pubsub.message.DataSetMessage;
import dev.opcua.stack.pubsub.message.DataSetMessageType;
import dev.opcua.stack.pubsub.message.MetaDataMessage;
import dev.opcua.stack.pubsub.message.NetworkMessage;
import dev.opcua.stack.pubsub.message.PublisherId;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Our JSON PubSub messages read by a plain JSON parser (Jackson), field by field, as a dashboard or a cloud
 * pipeline without OPC UA knowledge reads them (Part 14, 7.2.5.4.2: the verbose field encoding is for them).
 */
class JsonMessagePlainParserTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final PublishedDataSet LINE = new PublishedDataSet("Line", List.of(
            PublishedField.of("Speed", BuiltinType.Double),
            PublishedField.of("Count", BuiltinType.UInt32),
            PublishedField.of("State", BuiltinType.String),
            PublishedField.of("Total", BuiltinType.Int64)));
    private static final DateTime TIME = DateTime.ofInstant(Instant.parse("2026-12-05T08:00:01.5Z"));

    private static NetworkMessage message(DataSetMessageType type, List<DataSetField> fields) {
        DataSetMessage dataSet = new DataSetMessage(3, type, 41, LINE.version(), TIME, null, fields, "line");
        return new NetworkMessage("id-41", PublisherId.ofString("plant-7"), 7, 0, 0, null, List.of(dataSet),
                "plant");
    }

    private static DataSetField field(int index, Variant value) {
        return new DataSetField(index, LINE.fields().get(index).name(), DataValue.of(value));
    }

    private static JsonMessageEncoder encoder(long fieldMask) {
        return new JsonMessageEncoder(CodecRegistry.standard(), JsonLayout.DEFAULT, Map.of(3, LINE),
                Map.of(3, fieldMask));
    }

    @Test
    void a_key_frame_is_plain_json_with_bare_values() throws Exception {
        byte[] bytes = encoder(DataSetFieldContentMask.None).encode(message(DataSetMessageType.KEY_FRAME, List.of(
                field(0, Variant.ofDouble(412.5)), field(1, Variant.ofUInt32(17)), field(2, Variant.ofString("RUNNING")),
                field(3, Variant.ofInt64(9_007_199_254_740_993L)))));
        JsonNode root = JSON.readTree(bytes);
        assertThat(root.get("MessageId").asText()).isEqualTo("id-41");
        assertThat(root.get("MessageType").asText()).isEqualTo("ua-data");
        assertThat(root.get("PublisherId").asText()).isEqualTo("plant-7");
        assertThat(root.get("WriterGroupName").asText()).isEqualTo("plant");
        JsonNode dataSet = root.get("Messages").get(0);
        assertThat(dataSet.get("DataSetWriterId").asInt()).isEqualTo(3);
        assertThat(dataSet.get("DataSetWriterName").asText()).isEqualTo("line");
        assertThat(dataSet.get("SequenceNumber").asLong()).isEqualTo(41);
        assertThat(dataSet.get("MetaDataVersion").get("MajorVersion").asLong()).isEqualTo(LINE.version().majorVersion());
        assertThat(dataSet.get("Timestamp").asText()).isEqualTo("2026-12-05T08:00:01.5Z");
        assertThat(dataSet.get("MessageType").asText()).isEqualTo("ua-keyframe");
        JsonNode payload = dataSet.get("Payload");
        assertThat(payload.size()).isEqualTo(4);
        assertThat(payload.get("Speed").isDouble()).isTrue();
        assertThat(payload.get("Speed").asDouble()).isEqualTo(412.5);
        assertThat(payload.get("Count").asLong()).isEqualTo(17);
        assertThat(payload.get("State").asText()).isEqualTo("RUNNING");
        // Int64 is a JSON string (Part 6, 5.4.2.3): a JavaScript consumer would lose precision on a number
        assertThat(payload.get("Total").isTextual()).isTrue();
        assertThat(payload.get("Total").asText()).isEqualTo("9007199254740993");
    }

    @Test
    void fields_with_status_and_timestamps_are_objects_and_a_delta_frame_holds_the_changed_field_only()
            throws Exception {
        DataValue bad = DataValue.of(Variant.ofDouble(0.0), StatusCode.of(StatusCodes.BadSensorFailure), TIME, null);
        byte[] bytes = encoder(DataSetFieldContentMask.StatusCode | DataSetFieldContentMask.SourceTimestamp)
                .encode(message(DataSetMessageType.DELTA_FRAME, List.of(new DataSetField(0, "Speed", bad))));
        JsonNode dataSet = JSON.readTree(bytes).get("Messages").get(0);
        assertThat(dataSet.get("MessageType").asText()).isEqualTo("ua-deltaframe");
        JsonNode speed = dataSet.get("Payload").get("Speed");
        assertThat(dataSet.get("Payload").size()).isEqualTo(1);
        assertThat(speed.get("Value").asDouble()).isEqualTo(0.0);
        assertThat(speed.get("Status").get("Code").asLong()).isEqualTo(StatusCodes.BadSensorFailure & 0xFFFFFFFFL);
        assertThat(speed.get("SourceTimestamp").asText()).isEqualTo("2026-12-05T08:00:01.5Z");
    }

    @Test
    void the_metadata_message_names_every_field_and_its_type() throws Exception {
        byte[] bytes = encoder(0).encodeMetaData(new MetaDataMessage(PublisherId.ofString("plant-7"), 3,
                LINE.metaData(), "plant", "line"));
        JsonNode root = JSON.readTree(bytes);
        assertThat(root.get("MessageType").asText()).isEqualTo("ua-metadata");
        assertThat(root.get("DataSetWriterId").asInt()).isEqualTo(3);
        JsonNode fields = root.get("MetaData").get("Fields");
        assertThat(fields.size()).isEqualTo(4);
        assertThat(fields.get(0).get("Name").asText()).isEqualTo("Speed");
        assertThat(fields.get(0).get("BuiltInType").asInt()).isEqualTo(BuiltinType.Double.typeId());
        assertThat(fields.get(3).get("Name").asText()).isEqualTo("Total");
    }
}
