package dev.opcua.stack.pubsub.message.json;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.UaEncodingException;
import dev.opcua.stack.core.encoding.json.JsonDecoder;
import dev.opcua.stack.core.encoding.json.JsonDecoder.ValueType;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.structured.ConfigurationVersionDataType;
import dev.opcua.stack.core.types.structured.DataSetMetaDataType;
import dev.opcua.stack.core.types.structured.FieldMetaData;
import dev.opcua.stack.pubsub.message.DataSetField;
import dev.opcua.stack.pubsub.message.DataSetMessage;
import dev.opcua.stack.pubsub.message.DataSetMessageType;
import dev.opcua.stack.pubsub.message.MessageDecoder;
import dev.opcua.stack.pubsub.message.MetaDataLookup;
import dev.opcua.stack.pubsub.message.MetaDataMessage;
import dev.opcua.stack.pubsub.message.NetworkMessage;
import dev.opcua.stack.pubsub.message.PubSubMessage;
import dev.opcua.stack.pubsub.message.PublisherId;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Reads JSON PubSub messages (Part 14, 7.2.5) of any publisher: a network message with a header (its
 * {@code "Messages"} an array or, with SingleDataSetMessage, one object), data set messages without one (an array
 * or a single object), and metadata messages ({@code "ua-metadata"}, 7.2.5.5.2).
 *
 * <p>A field may come in any of the forms publishers write (7.2.5.4.2): the bare JSON of its value, typed by the
 * reader's metadata (or, without metadata, a JSON string as String, number as Double, true/false as Boolean);
 * a Variant object {@code {"UaType":n,"Value":..}}; the 1.04 form {@code {"Type":n,"Body":..}}; or a DataValue
 * object {@code {"Value":..,"Status":..,"SourceTimestamp":..}} whose Value is one of the former. PublisherIds are
 * JSON strings (7.2.5.3), so they are read as String ids and readers match them by their text.
 */
public final class JsonMessageDecoder implements MessageDecoder {

    private final CodecRegistry registry;
    private final EncodingLimits limits;
    private final MetaDataLookup metaData;

    public JsonMessageDecoder(CodecRegistry registry, EncodingLimits limits, MetaDataLookup metaData) {
        this.registry = registry;
        this.limits = limits;
        this.metaData = metaData;
    }

    @Override
    public PubSubMessage decode(byte[] bytes) {
        JsonDecoder json = new JsonDecoder(registry, limits, bytes);
        if (json.typeOf(null) == ValueType.ARRAY) {
            return new NetworkMessage(null, null, 0, 0, 0, null, dataSetMessages(json, null, null), null);
        }
        if (json.typeOf(null) != ValueType.OBJECT) {
            throw UaEncodingException.decodingError("a JSON PubSub message is an object or an array, not a "
                    + json.typeOf(null));
        }
        String messageType = json.hasField("MessageType") && json.typeOf("MessageType") == ValueType.STRING
                ? json.readString("MessageType") : null;
        if (JsonMessageTypes.METADATA.equals(messageType)) {
            return metaData(json);
        }
        if (JsonMessageTypes.DATA.equals(messageType) || json.hasField("Messages")) {
            return network(json);
        }
        if (messageType != null && JsonMessageTypes.dataSetType(messageType) == null) {
            throw UaEncodingException.decodingError("MessageType: " + messageType + " is not a PubSub data or"
                    + " metadata message (ua-data, ua-metadata, or a data set message's ua-keyframe ...)");
        }
        // a single data set message without network message header
        DataSetMessage single = dataSetMessage(json, publisherIdOf(json), null);
        return new NetworkMessage(null, publisherIdOf(json), 0, 0, 0, null, List.of(single), stringOrNull(json,
                "WriterGroupName"));
    }

    private NetworkMessage network(JsonDecoder json) {
        String messageId = stringOrNull(json, "MessageId");
        PublisherId publisherId = publisherIdOf(json);
        String writerGroupName = stringOrNull(json, "WriterGroupName");
        UUID dataSetClassId = null;
        String classId = stringOrNull(json, "DataSetClassId");
        if (classId != null) {
            try {
                dataSetClassId = UUID.fromString(classId);
            } catch (IllegalArgumentException e) {
                throw UaEncodingException.decodingError("DataSetClassId: " + classId + " is not a Guid");
            }
        }
        List<DataSetMessage> messages;
        ValueType messagesType = json.typeOf("Messages");
        if (messagesType == ValueType.OBJECT) {
            json.enterObject("Messages");
            messages = List.of(dataSetMessage(json, publisherId, writerGroupName));
            json.exit();
        } else if (messagesType == ValueType.ARRAY) {
            json.enterArray("Messages");
            messages = dataSetMessages(json, publisherId, writerGroupName);
            json.exit();
        } else {
            throw UaEncodingException.decodingError("Messages: a network message holds an array (or object) of"
                    + " data set messages, found " + messagesType);
        }
        return new NetworkMessage(messageId, publisherId, 0, 0, 0, dataSetClassId, messages, writerGroupName);
    }

    /** The elements of the current array, each a data set message. */
    private List<DataSetMessage> dataSetMessages(JsonDecoder json, PublisherId publisherId, String writerGroupName) {
        int count = json.enterArray(null);
        List<DataSetMessage> messages = new ArrayList<>(Math.max(count, 0));
        for (int i = 0; i < count; i++) {
            json.enterElement(i);
            if (json.typeOf(null) != ValueType.OBJECT) {
                throw UaEncodingException.decodingError("Messages[" + i + "]: a data set message is an object");
            }
            messages.add(dataSetMessage(json, publisherId != null ? publisherId : publisherIdOf(json),
                    writerGroupName));
            json.exit();
        }
        json.exit();
        return messages;
    }

    /** The current object as a data set message (Part 14, 7.2.5.4.1, Table 185). */
    private DataSetMessage dataSetMessage(JsonDecoder json, PublisherId publisherId, String writerGroupName) {
        int writerId = json.hasField("DataSetWriterId") ? json.readUInt16("DataSetWriterId") : 0;
        String writerName = stringOrNull(json, "DataSetWriterName");
        long sequence = json.hasField("SequenceNumber") ? json.readUInt32("SequenceNumber") : 0;
        ConfigurationVersionDataType version = json.typeOf("MetaDataVersion") == ValueType.OBJECT
                ? json.readStruct("MetaDataVersion", ConfigurationVersionDataType.CODEC) : null;
        DateTime timestamp = json.hasField("Timestamp") && json.typeOf("Timestamp") != ValueType.NULL
                ? json.readDateTime("Timestamp") : null;
        StatusCode status = statusOf(json, "Status");
        String typeText = stringOrNull(json, "MessageType");
        DataSetMessageType type = typeText == null ? null : JsonMessageTypes.dataSetType(typeText);
        if (typeText != null && type == null) {
            throw UaEncodingException.decodingError("MessageType: " + typeText + " is not a data set message type");
        }
        ValueType payloadType = json.typeOf("Payload");
        if (type == null) {
            type = payloadType == ValueType.MISSING ? DataSetMessageType.KEEP_ALIVE : DataSetMessageType.KEY_FRAME;
        }
        List<DataSetField> fields = List.of();
        if (type != DataSetMessageType.KEEP_ALIVE && payloadType != ValueType.MISSING) {
            if (payloadType != ValueType.OBJECT) {
                throw UaEncodingException.decodingError("Payload: the fields of a data set message are an object,"
                        + " found " + payloadType);
            }
            DataSetMetaDataType meta = publisherId == null ? null : metaData.find(publisherId, 0, writerId);
            json.enterObject("Payload");
            fields = payload(json, meta);
            json.exit();
        }
        return new DataSetMessage(writerId, type, sequence, version, timestamp, status, fields, writerName);
    }

    private List<DataSetField> payload(JsonDecoder json, DataSetMetaDataType meta) {
        FieldMetaData[] declared = meta == null || meta.fields() == null ? new FieldMetaData[0] : meta.fields();
        List<String> names = json.fieldNames();
        List<DataSetField> fields = new ArrayList<>(names.size());
        for (int position = 0; position < names.size(); position++) {
            String name = names.get(position);
            int index = position;
            FieldMetaData field = null;
            for (int i = 0; i < declared.length; i++) {
                if (name.equals(declared[i].name())) {
                    index = i;
                    field = declared[i];
                    break;
                }
            }
            fields.add(new DataSetField(Math.min(index, 0xFFFF), name, fieldValue(json, name, field)));
        }
        return fields;
    }

    /** One field in any of the forms of the class comment. */
    private DataValue fieldValue(JsonDecoder json, String name, FieldMetaData field) {
        if (json.typeOf(name) != ValueType.OBJECT) {
            return DataValue.of(bareValue(json, name, field));
        }
        json.enterObject(name);
        try {
            if (json.hasField("UaType") || (json.hasField("Type") && json.hasField("Body"))) {
                return DataValue.of(variantObject(json));
            }
            if (json.hasField("Value") || json.hasField("Status") || json.hasField("SourceTimestamp")
                    || json.hasField("ServerTimestamp")) {
                Variant value = json.typeOf("Value") == ValueType.OBJECT
                        ? variantOrStructure(json, "Value", field) : bareValue(json, "Value", field);
                StatusCode status = statusOf(json, "Status");
                DateTime source = json.hasField("SourceTimestamp") ? json.readDateTime("SourceTimestamp") : null;
                int sourcePico = json.hasField("SourcePicoseconds") ? json.readUInt16("SourcePicoseconds") : 0;
                DateTime server = json.hasField("ServerTimestamp") ? json.readDateTime("ServerTimestamp") : null;
                int serverPico = json.hasField("ServerPicoseconds") ? json.readUInt16("ServerPicoseconds") : 0;
                return DataValue.of(value, status == null ? StatusCode.GOOD : status, source, sourcePico, server,
                        serverPico);
            }
        } finally {
            json.exit();
        }
        return DataValue.of(variantOrStructure(json, name, field));
    }

    private Variant variantOrStructure(JsonDecoder json, String name, FieldMetaData field) {
        json.enterObject(name);
        try {
            if (json.hasField("UaType") || (json.hasField("Type") && json.hasField("Body"))) {
                return variantObject(json);
            }
        } finally {
            json.exit();
        }
        if (field != null && field.builtInType() == BuiltinType.ExtensionObject.typeId()) {
            return Variant.of(json.readExtensionObject(name));
        }
        BuiltinType declared = field == null ? null : BuiltinType.fromTypeId(field.builtInType());
        if (declared != null && declared != BuiltinType.Null && declared != BuiltinType.Variant
                && declared != BuiltinType.DataValue) {
            // a built-in type whose JSON is an object (LocalizedText, QualifiedName, a 1.04 NodeId ...), collapsed
            // by the publisher because it is the field's declared type (an event's Message)
            Object value = json.readField(name, declared, false);
            return value == null ? Variant.NULL : Variant.ofScalar(declared, value);
        }
        throw UaEncodingException.decodingError("Payload." + name + ": an object that is neither a Variant"
                + " ({\"UaType\":..}) nor a DataValue ({\"Value\":..}) and the metadata names no type for it");
    }

    /** The current object as a Variant: 1.05 {@code UaType/Value} or 1.04 {@code Type/Body}. */
    private static Variant variantObject(JsonDecoder json) {
        if (json.hasField("UaType")) {
            return json.readVariant(null);
        }
        int typeId = json.readInt32("Type");
        BuiltinType type = BuiltinType.fromTypeId(typeId);
        if (type == null || type == BuiltinType.Null) {
            throw UaEncodingException.decodingError("Type: " + typeId + " is not a built-in type");
        }
        boolean array = json.typeOf("Body") == ValueType.ARRAY;
        Object value = json.readField("Body", type, array);
        return array ? Variant.ofArray(type, value) : Variant.ofScalar(type, value);
    }

    /** A bare JSON value: typed by the field's metadata, else by its JSON type. */
    private static Variant bareValue(JsonDecoder json, String name, FieldMetaData field) {
        ValueType jsonType = json.typeOf(name);
        if (jsonType == ValueType.NULL || jsonType == ValueType.MISSING) {
            return Variant.NULL;
        }
        BuiltinType type = field == null ? null : BuiltinType.fromTypeId(field.builtInType());
        boolean array = jsonType == ValueType.ARRAY;
        if (type == null || type == BuiltinType.Null || type == BuiltinType.Variant) {
            type = switch (jsonType) {
                case STRING -> BuiltinType.String;
                case BOOLEAN -> BuiltinType.Boolean;
                case NUMBER -> BuiltinType.Double;
                default -> throw UaEncodingException.decodingError("Payload." + name + ": a " + jsonType
                        + " field needs the data set's metadata to be read");
            };
        }
        Object value = json.readField(name, type, array);
        return value == null ? Variant.NULL : array ? Variant.ofArray(type, value) : Variant.ofScalar(type, value);
    }

    /** Table 188 of Part 14, 7.2.5.5.2. */
    private MetaDataMessage metaData(JsonDecoder json) {
        PublisherId publisherId = publisherIdOf(json);
        if (publisherId == null) {
            throw UaEncodingException.decodingError("PublisherId: a metadata message names its publisher");
        }
        int writerId = json.readUInt16("DataSetWriterId");
        if (json.typeOf("MetaData") != ValueType.OBJECT) {
            throw UaEncodingException.decodingError("MetaData: a metadata message holds a DataSetMetaDataType object");
        }
        DataSetMetaDataType meta = json.readStruct("MetaData", DataSetMetaDataType.CODEC);
        return new MetaDataMessage(publisherId, writerId, meta, stringOrNull(json, "WriterGroupName"),
                stringOrNull(json, "DataSetWriterName"));
    }

    private static PublisherId publisherIdOf(JsonDecoder json) {
        ValueType type = json.typeOf("PublisherId");
        if (type == ValueType.STRING) {
            String text = json.readString("PublisherId");
            return text == null || text.isEmpty() ? null : PublisherId.ofString(text);
        }
        if (type == ValueType.NUMBER) {
            return PublisherId.ofString(Long.toUnsignedString(json.readUInt64("PublisherId")));
        }
        return null;
    }

    /** A StatusCode as UA JSON writes it ({@code {"Code":n}}) or as a bare number (open62541 1.5 writes one). */
    private static StatusCode statusOf(JsonDecoder json, String field) {
        ValueType type = json.typeOf(field);
        if (type == ValueType.OBJECT) {
            return json.readStatusCode(field);
        }
        if (type == ValueType.NUMBER) {
            return StatusCode.ofUnsigned(json.readUInt32(field));
        }
        return null;
    }

    private static String stringOrNull(JsonDecoder json, String field) {
        return json.typeOf(field) == ValueType.STRING ? json.readString(field) : null;
    }
}
