package dev.opcua.stack.pubsub.message.uadp;

import static dev.opcua.stack.pubsub.message.uadp.UadpBits.*;

import dev.opcua.stack.core.encoding.UaEncodingException;
import dev.opcua.stack.core.encoding.binary.UaEncoder;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.DataSetFieldContentMask;
import dev.opcua.stack.core.types.enumerated.UadpDataSetMessageContentMask;
import dev.opcua.stack.core.types.structured.ConfigurationVersionDataType;
import dev.opcua.stack.core.types.structured.DataSetMetaDataType;
import dev.opcua.stack.core.types.structured.FieldMetaData;
import dev.opcua.stack.pubsub.message.DataSetField;
import dev.opcua.stack.pubsub.message.DataSetMessage;
import dev.opcua.stack.pubsub.message.DataSetMessageType;
import java.util.BitSet;
import java.util.List;

/**
 * Writes one UADP DataSetMessage: its header (Part 14, 7.2.4.5.4, Table 162) as the layout's
 * UadpDataSetMessageContentMask says, then the body of a key frame (7.2.4.5.5), delta frame (7.2.4.5.6), event
 * (7.2.4.5.7) or nothing for a keep-alive (7.2.4.5.8), each field in the encoding the DataSetFieldContentMask
 * selects. Stateless apart from the layout; one per encoder.
 */
final class UadpDataSetMessageWriter {

    private final UadpLayout layout;

    UadpDataSetMessageWriter(UadpLayout layout) {
        this.layout = layout;
    }

    /**
     * @param metaData the writer's metadata, required for RawData fields, otherwise unused (may be null)
     * @param path the message's place in the network message, for errors
     */
    void write(UaEncoder encoder, DataSetMessage message, DataSetMetaDataType metaData, String path) {
        // Event fields are always Variants (7.2.4.5.7): the field encoding bits are then 00.
        UadpFieldEncoding encoding = message.type() == DataSetMessageType.EVENT
                ? UadpFieldEncoding.VARIANT : layout.fieldEncoding();
        if (encoding == UadpFieldEncoding.RAW_DATA && message.type() != DataSetMessageType.KEEP_ALIVE
                && metaData == null) {
            throw UaEncodingException.encodingError(path + ": RawData field encoding needs the metadata of"
                    + " DataSetWriter " + message.dataSetWriterId() + ", which the lookup does not know");
        }
        writeHeader(encoder, message, encoding);
        switch (message.type()) {
            case KEY_FRAME -> writeKeyFrame(encoder, message.fields(), encoding, metaData, path);
            case DELTA_FRAME -> writeDeltaFrame(encoder, message.fields(), encoding, metaData, path);
            case EVENT -> writeKeyFrame(encoder, message.fields(), encoding, null, path);
            case KEEP_ALIVE -> {
                // header only (7.2.4.5.8)
            }
        }
    }

    private void writeHeader(UaEncoder encoder, DataSetMessage message, UadpFieldEncoding encoding) {
        boolean sequenceNumber = layout.dataSet(UadpDataSetMessageContentMask.SequenceNumber);
        boolean status = layout.dataSet(UadpDataSetMessageContentMask.Status);
        boolean major = layout.dataSet(UadpDataSetMessageContentMask.MajorVersion);
        boolean minor = layout.dataSet(UadpDataSetMessageContentMask.MinorVersion);
        boolean timestamp = layout.dataSet(UadpDataSetMessageContentMask.Timestamp);
        // PicoSeconds is ignored without Timestamp (6.3.1.3.2).
        boolean picoseconds = timestamp && layout.dataSet(UadpDataSetMessageContentMask.PicoSeconds);

        int flags2 = typeBits(message) | (timestamp ? DS2_TIMESTAMP : 0) | (picoseconds ? DS2_PICOSECONDS : 0);
        int flags1 = DS_VALID | (encoding.bits() << DS_FIELD_ENCODING_SHIFT) | (sequenceNumber ? DS_SEQUENCE_NUMBER : 0)
                | (status ? DS_STATUS : 0) | (major ? DS_MAJOR_VERSION : 0) | (minor ? DS_MINOR_VERSION : 0)
                | (flags2 != 0 ? DS_FLAGS2 : 0);
        encoder.writeByte("DataSetFlags1", (short) flags1);
        if (flags2 != 0) {
            encoder.writeByte("DataSetFlags2", (short) flags2);
        }
        if (sequenceNumber) {
            // UInt16 on the wire: the model's counter wraps (7.2.4.5.4).
            encoder.writeUInt16("DataSetMessageSequenceNumber", (int) (message.sequenceNumber() & 0xFFFF));
        }
        if (timestamp) {
            encoder.writeDateTime("Timestamp", message.timestamp());
        }
        if (picoseconds) {
            // the model keeps no picoseconds for the message timestamp
            encoder.writeUInt16("PicoSeconds", 0);
        }
        if (status) {
            // Status is the high-order 16 bits of the StatusCode (Table 162).
            StatusCode code = message.status() == null ? StatusCode.GOOD : message.status();
            encoder.writeUInt16("Status", code.value() >>> 16);
        }
        ConfigurationVersionDataType version = message.configurationVersion();
        if (major) {
            encoder.writeUInt32("ConfigurationVersionMajorVersion", version == null ? 0 : version.majorVersion());
        }
        if (minor) {
            encoder.writeUInt32("ConfigurationVersionMinorVersion", version == null ? 0 : version.minorVersion());
        }
    }

    private static int typeBits(DataSetMessage message) {
        return switch (message.type()) {
            case KEY_FRAME -> DS2_TYPE_KEY_FRAME;
            case DELTA_FRAME -> DS2_TYPE_DELTA_FRAME;
            case EVENT -> DS2_TYPE_EVENT;
            case KEEP_ALIVE -> DS2_TYPE_KEEP_ALIVE;
        };
    }

    /** Key frame and event: FieldCount (left out for RawData) and every field in metadata order. */
    private void writeKeyFrame(UaEncoder encoder, List<DataSetField> fields, UadpFieldEncoding encoding,
            DataSetMetaDataType metaData, String path) {
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).index() != i) {
                throw UaEncodingException.encodingError(path + ".Fields[" + i + "]: a key frame or event carries"
                        + " every field in metadata order, but this field has index " + fields.get(i).index());
            }
        }
        if (encoding == UadpFieldEncoding.RAW_DATA) {
            FieldMetaData[] meta = fieldsOf(metaData);
            if (meta.length != fields.size()) {
                throw UaEncodingException.encodingError(path + ": a RawData key frame carries every field of the"
                        + " metadata (" + meta.length + "), was given " + fields.size());
            }
        } else {
            checkCount(fields.size(), path);
            encoder.writeUInt16("FieldCount", fields.size());
        }
        for (int i = 0; i < fields.size(); i++) {
            writeField(encoder, fields.get(i), encoding, metaData, path + ".Fields[" + i + "]");
        }
    }

    /** Delta frame: FieldCount, then FieldIndex and value of each changed field (Table 164). */
    private void writeDeltaFrame(UaEncoder encoder, List<DataSetField> fields, UadpFieldEncoding encoding,
            DataSetMetaDataType metaData, String path) {
        checkCount(fields.size(), path);
        BitSet seen = new BitSet();
        for (DataSetField field : fields) {
            if (seen.get(field.index())) {
                throw UaEncodingException.encodingError(path + ": field index " + field.index()
                        + " appears twice; a delta frame uses an index only once (7.2.4.5.6)");
            }
            seen.set(field.index());
        }
        encoder.writeUInt16("FieldCount", fields.size());
        for (int i = 0; i < fields.size(); i++) {
            DataSetField field = fields.get(i);
            encoder.writeUInt16("FieldIndex", field.index());
            writeField(encoder, field, encoding, metaData, path + ".Fields[" + i + "]");
        }
    }

    private static void checkCount(int count, String path) {
        if (count > 0xFFFF) {
            throw UaEncodingException.encodingError(path + ": " + count + " fields exceed the UInt16 FieldCount");
        }
    }

    private void writeField(UaEncoder encoder, DataSetField field, UadpFieldEncoding encoding,
            DataSetMetaDataType metaData, String path) {
        DataValue value = field.value();
        switch (encoding) {
            case VARIANT -> encoder.writeVariant("Field", asVariant(value));
            case DATA_VALUE -> encoder.writeDataValue("Field", keptParts(value));
            case RAW_DATA -> {
                FieldMetaData[] meta = fieldsOf(metaData);
                if (field.index() >= meta.length) {
                    throw UaEncodingException.encodingError(path + ": field index " + field.index()
                            + " is beyond the " + meta.length + " fields of the metadata");
                }
                UadpRawData.write(encoder, path, meta[field.index()], value.value());
            }
        }
    }

    /**
     * The Variant field encoding (Table 162, bits 1-2 = 00): the value; a Bad field as its StatusCode instead,
     * an Uncertain one as a DataValue with value and status, so that the status is not lost.
     */
    static Variant asVariant(DataValue value) {
        StatusCode status = value.statusCode();
        if (status.isBad()) {
            return Variant.ofScalar(BuiltinType.StatusCode, status);
        }
        if (status.isUncertain()) {
            return Variant.ofScalar(BuiltinType.DataValue, DataValue.of(value.value(), status, null, null));
        }
        return value.value();
    }

    /** The DataValue field encoding: the value and the parts the DataSetFieldContentMask keeps (6.2.4.2). */
    private DataValue keptParts(DataValue value) {
        boolean source = layout.field(DataSetFieldContentMask.SourceTimestamp);
        boolean server = layout.field(DataSetFieldContentMask.ServerTimestamp);
        return DataValue.of(value.value(),
                layout.field(DataSetFieldContentMask.StatusCode) ? value.statusCode() : StatusCode.GOOD,
                source ? value.sourceTimestamp() : null,
                source && layout.field(DataSetFieldContentMask.SourcePicoSeconds) ? value.sourcePicoseconds() : 0,
                server ? value.serverTimestamp() : null,
                server && layout.field(DataSetFieldContentMask.ServerPicoSeconds) ? value.serverPicoseconds() : 0);
    }

    private static FieldMetaData[] fieldsOf(DataSetMetaDataType metaData) {
        FieldMetaData[] fields = metaData.fields();
        return fields == null ? new FieldMetaData[0] : fields;
    }
}
