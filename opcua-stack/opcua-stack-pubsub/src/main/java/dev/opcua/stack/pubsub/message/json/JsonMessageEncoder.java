package dev.opcua.stack.pubsub.message.json;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.json.JsonEncoder;
import dev.opcua.stack.core.encoding.json.JsonEncoding;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.DataSetFieldContentMask;
import dev.opcua.stack.core.types.enumerated.JsonDataSetMessageContentMask;
import dev.opcua.stack.core.types.enumerated.JsonNetworkMessageContentMask;
import dev.opcua.stack.core.types.enumerated.PubSubState;
import dev.opcua.stack.core.types.structured.ConfigurationVersionDataType;
import dev.opcua.stack.core.types.structured.DataSetMetaDataType;
import dev.opcua.stack.pubsub.config.PublishedDataSet;
import dev.opcua.stack.pubsub.config.PublishedField;
import dev.opcua.stack.pubsub.message.DataSetField;
import dev.opcua.stack.pubsub.message.DataSetMessage;
import dev.opcua.stack.pubsub.message.DataSetMessageType;
import dev.opcua.stack.pubsub.message.MessageEncoder;
import dev.opcua.stack.pubsub.message.MetaDataMessage;
import dev.opcua.stack.pubsub.message.NetworkMessage;
import dev.opcua.stack.pubsub.message.PublisherId;
import java.util.Map;
import java.util.UUID;

/**
 * Writes the JSON messages of one writer group (Part 14, 7.2.5): a network message object with its header and
 * {@code "Messages"}, or, without the network message header, the data set messages alone (an array, or one
 * object with SingleDataSetMessage).
 *
 * <p>Fields (7.2.5.4.2): with a DataSetFieldContentMask of 0 or RawData a field is its value, collapsed to the
 * JSON of its DataType when that is the FieldMetaData's concrete built-in type, so that a consumer without OPC
 * UA knowledge reads {@code "Temperature": 21.5}; a value of another type than its metadata says keeps its
 * Variant form ({@code {"UaType":..,"Value":..}}) so that nothing is lost. With status or timestamp bits a
 * field is a DataValue object whose Value is collapsed the same way.
 *
 * <p>Not thread-safe: one per writer group, used on its publishing thread.
 */
public final class JsonMessageEncoder implements MessageEncoder {

    private final JsonLayout layout;
    private final Map<Integer, PublishedDataSet> dataSetsByWriter;
    private final Map<Integer, Long> fieldMasksByWriter;
    private final JsonEncoder json;

    /**
     * @param registry codecs of the structures fields may hold
     * @param layout the content masks
     * @param dataSetsByWriter the data set of each DataSetWriterId (its fields' types)
     * @param fieldMasksByWriter the DataSetFieldContentMask of each DataSetWriterId
     */
    public JsonMessageEncoder(CodecRegistry registry, JsonLayout layout, Map<Integer, PublishedDataSet> dataSetsByWriter,
            Map<Integer, Long> fieldMasksByWriter) {
        this.layout = layout;
        this.dataSetsByWriter = Map.copyOf(dataSetsByWriter);
        this.fieldMasksByWriter = Map.copyOf(fieldMasksByWriter);
        boolean compactFields = layout.dataSet(JsonDataSetMessageContentMask.ReversibleFieldEncoding);
        this.json = new JsonEncoder(registry, compactFields ? JsonEncoding.COMPACT : JsonEncoding.VERBOSE);
    }

    @Override
    public byte[] encode(NetworkMessage message) {
        json.reset();
        boolean header = layout.network(JsonNetworkMessageContentMask.NetworkMessageHeader);
        boolean single = layout.network(JsonNetworkMessageContentMask.SingleDataSetMessage)
                && message.messages().size() == 1;
        if (header) {
            json.beginObject();
            json.writeString("MessageId", message.messageId() != null ? message.messageId()
                    : UUID.randomUUID().toString());
            json.writeString("MessageType", JsonMessageTypes.DATA);
            if (layout.network(JsonNetworkMessageContentMask.PublisherId) && message.publisherId() != null) {
                json.writeString("PublisherId", message.publisherId().toString());
            }
            if (layout.network(JsonNetworkMessageContentMask.WriterGroupName) && message.writerGroupName() != null) {
                json.writeString("WriterGroupName", message.writerGroupName());
            }
            if (layout.network(JsonNetworkMessageContentMask.DataSetClassId) && message.dataSetClassId() != null) {
                json.writeString("DataSetClassId", message.dataSetClassId().toString());
            }
            if (single) {
                json.beginObject("Messages");
                dataSetMessageBody(message, message.messages().get(0));
                json.endObject();
            } else {
                json.beginArray("Messages");
                for (DataSetMessage dataSet : message.messages()) {
                    dataSetMessage(message, dataSet);
                }
                json.endArray();
            }
            json.endObject();
        } else if (single) {
            dataSetMessage(message, message.messages().get(0));
        } else {
            json.beginArray(null);
            for (DataSetMessage dataSet : message.messages()) {
                dataSetMessage(message, dataSet);
            }
            json.endArray();
        }
        return json.toBytes();
    }

    private void dataSetMessage(NetworkMessage network, DataSetMessage message) {
        json.beginObject();
        dataSetMessageBody(network, message);
        json.endObject();
    }

    /** Table 185 of Part 14, 7.2.5.4.1, in its order. */
    private void dataSetMessageBody(NetworkMessage network, DataSetMessage message) {
        if (layout.dataSet(JsonDataSetMessageContentMask.DataSetWriterId)) {
            json.writeUInt16("DataSetWriterId", message.dataSetWriterId());
        }
        if (layout.dataSet(JsonDataSetMessageContentMask.DataSetWriterName) && message.dataSetWriterName() != null) {
            json.writeString("DataSetWriterName", message.dataSetWriterName());
        }
        if (layout.dataSet(JsonDataSetMessageContentMask.PublisherId) && network.publisherId() != null) {
            json.writeString("PublisherId", network.publisherId().toString());
        }
        if (layout.dataSet(JsonDataSetMessageContentMask.WriterGroupName) && network.writerGroupName() != null) {
            json.writeString("WriterGroupName", network.writerGroupName());
        }
        if (layout.dataSet(JsonDataSetMessageContentMask.SequenceNumber)) {
            json.writeUInt32("SequenceNumber", message.sequenceNumber());
        }
        ConfigurationVersionDataType version = message.configurationVersion();
        if (layout.dataSet(JsonDataSetMessageContentMask.MetaDataVersion) && version != null) {
            json.writeStruct("MetaDataVersion", version, ConfigurationVersionDataType.CODEC);
        }
        if (layout.dataSet(JsonDataSetMessageContentMask.MinorVersion) && version != null) {
            json.writeUInt32("MinorVersion", version.minorVersion());
        }
        if (layout.dataSet(JsonDataSetMessageContentMask.Timestamp) && message.timestamp() != null) {
            json.writeDateTime("Timestamp", message.timestamp());
        }
        if (layout.dataSet(JsonDataSetMessageContentMask.Status) && message.status() != null
                && !message.status().isGood()) {
            json.writeStatusCode("Status", message.status());
        }
        if (layout.dataSet(JsonDataSetMessageContentMask.MessageType)) {
            json.writeString("MessageType", JsonMessageTypes.of(message.type()));
        }
        if (message.type() == DataSetMessageType.KEEP_ALIVE) {
            return; // a keep-alive has no Payload (7.2.5.4.1)
        }
        PublishedDataSet dataSet = dataSetsByWriter.get(message.dataSetWriterId());
        // an event's fields are Variants whatever the writer's mask (Part 14, 7.2.4.5.7), as in the UADP mapping
        long mask = message.type() == DataSetMessageType.EVENT ? DataSetFieldContentMask.None
                : fieldMasksByWriter.getOrDefault(message.dataSetWriterId(), DataSetFieldContentMask.None);
        boolean dataValues = mask != DataSetFieldContentMask.None && mask != DataSetFieldContentMask.RawData;
        json.beginObject("Payload");
        for (DataSetField field : message.fields()) {
            PublishedField declared = dataSet != null && field.index() < dataSet.fields().size()
                    ? dataSet.fields().get(field.index()) : null;
            String name = field.name() != null ? field.name() : declared != null ? declared.name() : "#" + field.index();
            if (dataValues) {
                writeDataValue(name, field.value(), declared, mask);
            } else {
                writeValue(name, field.value().value(), declared);
            }
        }
        json.endObject();
    }

    /** A value collapsed to its type's JSON when it has the declared type, else its Variant object. */
    private void writeValue(String name, Variant value, PublishedField declared) {
        if (value == null || value.isNull()) {
            json.writeVariant(name, Variant.NULL);
            return;
        }
        BuiltinType type = value.type();
        boolean array = value.isArray();
        if (!layout.variantFields() && declared != null && declared.builtInType() == type && array == (declared.valueRank() == 1)
                && !value.isMatrix() && type != BuiltinType.Variant && type != BuiltinType.ExtensionObject) {
            json.writeField(name, type, value.value(), array);
        } else {
            json.writeVariant(name, value);
        }
    }

    /** A DataValue object (Part 6, 5.4.2.18) with its Value collapsed like {@link #writeValue}. */
    private void writeDataValue(String name, DataValue value, PublishedField declared, long mask) {
        json.beginObject(name);
        if (value.value() != null && !value.value().isNull()) {
            writeValue("Value", value.value(), declared);
        }
        StatusCode status = value.statusCode();
        if ((mask & DataSetFieldContentMask.StatusCode) != 0 && status != null && !status.isGood()) {
            json.writeStatusCode("Status", status);
        }
        if ((mask & DataSetFieldContentMask.SourceTimestamp) != 0 && value.sourceTimestamp() != null) {
            json.writeDateTime("SourceTimestamp", value.sourceTimestamp());
            if ((mask & DataSetFieldContentMask.SourcePicoSeconds) != 0 && value.sourcePicoseconds() != 0) {
                json.writeUInt16("SourcePicoseconds", value.sourcePicoseconds());
            }
        }
        if ((mask & DataSetFieldContentMask.ServerTimestamp) != 0 && value.serverTimestamp() != null) {
            json.writeDateTime("ServerTimestamp", value.serverTimestamp());
            if ((mask & DataSetFieldContentMask.ServerPicoSeconds) != 0 && value.serverPicoseconds() != 0) {
                json.writeUInt16("ServerPicoseconds", value.serverPicoseconds());
            }
        }
        json.endObject();
    }

    /** Table 188 of Part 14, 7.2.5.5.2. */
    @Override
    public byte[] encodeMetaData(MetaDataMessage message) {
        json.reset();
        json.beginObject();
        json.writeString("MessageId", UUID.randomUUID().toString());
        json.writeString("MessageType", JsonMessageTypes.METADATA);
        json.writeString("PublisherId", message.publisherId().toString());
        json.writeUInt16("DataSetWriterId", message.dataSetWriterId());
        if (message.writerGroupName() != null) {
            json.writeString("WriterGroupName", message.writerGroupName());
        }
        if (message.dataSetWriterName() != null) {
            json.writeString("DataSetWriterName", message.dataSetWriterName());
        }
        json.writeDateTime("Timestamp", DateTime.now());
        json.writeStruct("MetaData", message.metaData(), DataSetMetaDataType.CODEC);
        json.endObject();
        return json.toBytes();
    }

    /**
     * A status message (Part 14, 7.2.5.5.5) with IsCyclic false: the broker keeps it retained, and the MQTT will
     * replaces it with Error when the publisher's connection is lost (7.3.5.7.8).
     */
    public static byte[] status(CodecRegistry registry, PublisherId publisherId, PubSubState state) {
        JsonEncoder json = new JsonEncoder(registry, JsonEncoding.VERBOSE);
        json.beginObject();
        json.writeString("MessageId", UUID.randomUUID().toString());
        json.writeString("MessageType", JsonMessageTypes.STATUS);
        json.writeString("PublisherId", publisherId.toString());
        json.writeBoolean("IsCyclic", false);
        json.writeEnum("Status", state);
        json.endObject();
        return json.toBytes();
    }
}
