package dev.opcua.stack.pubsub.message.uadp;

import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.UadpDataSetMessageContentMask;
import dev.opcua.stack.core.types.enumerated.UadpNetworkMessageContentMask;
import dev.opcua.stack.core.types.structured.ConfigurationVersionDataType;
import dev.opcua.stack.core.types.structured.DataSetMetaDataType;
import dev.opcua.stack.core.types.structured.FieldMetaData;
import dev.opcua.stack.pubsub.message.DataSetField;
import dev.opcua.stack.pubsub.message.DataSetMessage;
import dev.opcua.stack.pubsub.message.DataSetMessageType;
import dev.opcua.stack.pubsub.message.NetworkMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** Messages, metadata and the "what survives this layout" rule shared by the UADP tests. */
final class UadpFixtures {

    static final DateTime TIME = DateTime.ofTicks(133_000_000_000_000_000L);
    static final DateTime TIME2 = DateTime.ofTicks(133_000_000_000_000_123L);
    static final UUID CLASS_ID = UUID.fromString("65880051-7e5b-4a96-ae47-e0ef4704b924");
    static final ConfigurationVersionDataType VERSION = new ConfigurationVersionDataType(1000, 2000);

    private UadpFixtures() {
    }

    static FieldMetaData field(String name, BuiltinType type) {
        return field(name, type, 0);
    }

    static FieldMetaData field(String name, BuiltinType type, long maxStringLength) {
        return new FieldMetaData(name, LocalizedText.NULL, 0, (short) type.typeId(), type.dataTypeId(), -1,
                null, maxStringLength, UUID.nameUUIDFromBytes(name.getBytes(java.nio.charset.StandardCharsets.UTF_8)), null);
    }

    static DataSetMetaDataType metaData(FieldMetaData... fields) {
        return new DataSetMetaDataType(null, null, null, null, "DataSet", LocalizedText.NULL, fields, CLASS_ID,
                VERSION);
    }

    /** Fields named after the metadata, values as given, in order. */
    static List<DataSetField> fields(DataSetMetaDataType meta, Variant... values) {
        List<DataSetField> fields = new ArrayList<>();
        for (int i = 0; i < values.length; i++) {
            fields.add(new DataSetField(i, meta == null ? null : meta.fields()[i].name(), DataValue.of(values[i])));
        }
        return fields;
    }

    static DataSetMessage keyFrame(int writerId, List<DataSetField> fields) {
        return new DataSetMessage(writerId, DataSetMessageType.KEY_FRAME, 70_000 + writerId, VERSION, TIME,
                StatusCode.UNCERTAIN, fields);
    }

    static NetworkMessage network(dev.opcua.stack.pubsub.message.PublisherId publisherId, DataSetMessage... messages) {
        return new NetworkMessage(null, publisherId, 100, 0xABCDEF01L, 4242, CLASS_ID, List.of(messages));
    }

    /**
     * The message as a decoder sees it after encoding with {@code layout}: header fields the layout leaves out
     * come back as the model's "left out" values.
     */
    static NetworkMessage expected(NetworkMessage m, UadpLayout layout) {
        boolean group = layout.network(UadpNetworkMessageContentMask.GroupHeader);
        boolean payloadHeader = layout.network(UadpNetworkMessageContentMask.PayloadHeader);
        List<DataSetMessage> messages = new ArrayList<>();
        for (DataSetMessage d : m.messages()) {
            boolean major = layout.dataSet(UadpDataSetMessageContentMask.MajorVersion);
            boolean minor = layout.dataSet(UadpDataSetMessageContentMask.MinorVersion);
            ConfigurationVersionDataType version = major || minor
                    ? new ConfigurationVersionDataType(major ? d.configurationVersion().majorVersion() : 0,
                            minor ? d.configurationVersion().minorVersion() : 0)
                    : null;
            messages.add(new DataSetMessage(payloadHeader ? d.dataSetWriterId() : 0, d.type(),
                    layout.dataSet(UadpDataSetMessageContentMask.SequenceNumber) ? d.sequenceNumber() & 0xFFFF : 0,
                    version,
                    layout.dataSet(UadpDataSetMessageContentMask.Timestamp) ? d.timestamp() : null,
                    layout.dataSet(UadpDataSetMessageContentMask.Status) ? d.status() : null,
                    d.fields()));
        }
        return new NetworkMessage(null,
                layout.network(UadpNetworkMessageContentMask.PublisherId) ? m.publisherId() : null,
                group && layout.network(UadpNetworkMessageContentMask.WriterGroupId) ? m.writerGroupId() : 0,
                group && layout.network(UadpNetworkMessageContentMask.GroupVersion) ? m.groupVersion() : 0,
                group && layout.network(UadpNetworkMessageContentMask.SequenceNumber) ? m.sequenceNumber() : 0,
                layout.network(UadpNetworkMessageContentMask.DataSetClassId) ? m.dataSetClassId() : null,
                messages);
    }

    static String hex(byte[] bytes) {
        StringBuilder sb = new StringBuilder();
        for (byte b : bytes) {
            if (sb.length() > 0) {
                sb.append(' ');
            }
            sb.append(String.format("%02X", b & 0xFF));
        }
        return sb.toString();
    }

    /** Bytes from hex digits; spaces, newlines and {@code //} comments to the end of a line are ignored. */
    static byte[] bytes(String hex) {
        String digits = hex.replaceAll("//[^\n]*", "").replaceAll("\\s+", "");
        byte[] out = new byte[digits.length() / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) Integer.parseInt(digits.substring(2 * i, 2 * i + 2), 16);
        }
        return out;
    }
}
