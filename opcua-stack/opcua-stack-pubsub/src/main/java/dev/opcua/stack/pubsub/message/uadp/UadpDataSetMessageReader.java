package dev.opcua.stack.pubsub.message.uadp;

import static dev.opcua.stack.pubsub.message.uadp.UadpBits.*;

import dev.opcua.stack.core.encoding.UaEncodingException;
import dev.opcua.stack.core.encoding.binary.UaDecoder;
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
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * Reads one UADP DataSetMessage from the decoder's buffer: the header (Part 14, 7.2.4.5.4, Table 162) as its
 * own flags say, then the body of its type (7.2.4.5.5 to 7.2.4.5.8). The caller hands it a buffer that ends
 * where the message ends when the payload header's Sizes are known; bytes left over are the optional padding
 * up to a ConfiguredSize (Tables 163 to 165) and are the caller's to skip.
 *
 * <p>Every failure is a {@link UaEncodingException} whose message starts with the path of the part that
 * failed, e.g. {@code DataSetMessage[1](writer 7).Fields[3]: ...}.
 */
final class UadpDataSetMessageReader {

    /** Smallest encodings: a field in any encoding takes a byte, a delta frame entry its UInt16 index too. */
    private static final int MIN_FIELD_BYTES = 1;
    private static final int MIN_DELTA_ENTRY_BYTES = 3;

    private UadpDataSetMessageReader() {
    }

    /**
     * @param dataSetWriterId the writer from the payload header, 0 when there is none
     * @param metaData the writer's metadata, or null when the lookup does not know it
     * @param writer how to name the writer in errors (publisher, group, writer)
     * @return the message, or null when its DataSetFlags1 says it is not valid (to be skipped, Table 162)
     */
    static DataSetMessage read(UaDecoder decoder, int dataSetWriterId, DataSetMetaDataType metaData, String path,
            String writer) {
        int flags1 = decoder.readByte(path + ".DataSetFlags1");
        if ((flags1 & DS_VALID) == 0) {
            return null;
        }
        UadpFieldEncoding encoding = UadpFieldEncoding.fromBits((flags1 & DS_FIELD_ENCODING_MASK)
                >> DS_FIELD_ENCODING_SHIFT);
        if (encoding == null) {
            throw UaEncodingException.decodingError(path + ".DataSetFlags1: field encoding 11 is reserved");
        }
        int flags2 = (flags1 & DS_FLAGS2) != 0 ? decoder.readByte(path + ".DataSetFlags2") : 0;
        DataSetMessageType type = switch (flags2 & DS2_TYPE_MASK) {
            case DS2_TYPE_KEY_FRAME -> DataSetMessageType.KEY_FRAME;
            case DS2_TYPE_DELTA_FRAME -> DataSetMessageType.DELTA_FRAME;
            case DS2_TYPE_EVENT -> DataSetMessageType.EVENT;
            case DS2_TYPE_KEEP_ALIVE -> DataSetMessageType.KEEP_ALIVE;
            default -> throw UaEncodingException.decodingError(path + ".DataSetFlags2: DataSetMessage type "
                    + (flags2 & DS2_TYPE_MASK) + " is reserved");
        };
        long sequenceNumber = (flags1 & DS_SEQUENCE_NUMBER) != 0
                ? decoder.readUInt16(path + ".DataSetMessageSequenceNumber") : 0;
        DateTime timestamp = null;
        if ((flags2 & DS2_TIMESTAMP) != 0) {
            timestamp = decoder.readDateTime(path + ".Timestamp");
            if (timestamp.isNull()) {
                timestamp = null;
            }
        }
        if ((flags2 & DS2_PICOSECONDS) != 0) {
            decoder.readUInt16(path + ".PicoSeconds"); // the model keeps no picoseconds for the header timestamp
        }
        StatusCode status = null;
        if ((flags1 & DS_STATUS) != 0) {
            int high = decoder.readUInt16(path + ".Status");
            status = high == 0 ? null : StatusCode.of(high << 16);
        }
        ConfigurationVersionDataType version = null;
        if ((flags1 & (DS_MAJOR_VERSION | DS_MINOR_VERSION)) != 0) {
            long major = (flags1 & DS_MAJOR_VERSION) != 0
                    ? decoder.readUInt32(path + ".ConfigurationVersionMajorVersion") : 0;
            long minor = (flags1 & DS_MINOR_VERSION) != 0
                    ? decoder.readUInt32(path + ".ConfigurationVersionMinorVersion") : 0;
            version = new ConfigurationVersionDataType(major, minor);
        }
        FieldMetaData[] meta = metaData == null ? null : fieldsOf(metaData);
        if (encoding == UadpFieldEncoding.RAW_DATA && meta == null && type != DataSetMessageType.KEEP_ALIVE) {
            throw UaEncodingException.decodingError(path + ": RawData fields of " + writer
                    + " cannot be decoded without its metadata, which the lookup does not know");
        }
        List<DataSetField> fields = switch (type) {
            case KEY_FRAME, EVENT -> readAll(decoder, encoding, meta, path);
            case DELTA_FRAME -> readDelta(decoder, encoding, meta, path);
            case KEEP_ALIVE -> List.of();
        };
        return new DataSetMessage(dataSetWriterId, type, sequenceNumber, version, timestamp, status, fields);
    }

    /** Key frame or event: FieldCount (none for RawData: the metadata's fields) and the fields in order. */
    private static List<DataSetField> readAll(UaDecoder decoder, UadpFieldEncoding encoding, FieldMetaData[] meta,
            String path) {
        if (!decoder.buffer().isReadable()) {
            return List.of(); // a heartbeat key frame: the header only (7.2.4.5.5)
        }
        int count = encoding == UadpFieldEncoding.RAW_DATA ? meta.length
                : readCount(decoder, path, MIN_FIELD_BYTES);
        List<DataSetField> fields = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            fields.add(readField(decoder, i, encoding, meta, path + ".Fields[" + i + "]"));
        }
        return fields;
    }

    /** Delta frame: FieldCount, then FieldIndex and value of each changed field (Table 164). */
    private static List<DataSetField> readDelta(UaDecoder decoder, UadpFieldEncoding encoding, FieldMetaData[] meta,
            String path) {
        int count = readCount(decoder, path, MIN_DELTA_ENTRY_BYTES);
        List<DataSetField> fields = new ArrayList<>(count);
        BitSet seen = new BitSet();
        for (int i = 0; i < count; i++) {
            String fieldPath = path + ".Fields[" + i + "]";
            int index = decoder.readUInt16(fieldPath + ".FieldIndex");
            if (meta != null && index >= meta.length) {
                throw UaEncodingException.decodingError(fieldPath + ".FieldIndex: " + index
                        + " is beyond the " + meta.length + " fields of the metadata");
            }
            if (seen.get(index)) {
                throw UaEncodingException.decodingError(fieldPath + ".FieldIndex: " + index
                        + " appears twice; a delta frame uses an index only once (7.2.4.5.6)");
            }
            seen.set(index);
            fields.add(readField(decoder, index, encoding, meta, fieldPath));
        }
        return fields;
    }

    private static int readCount(UaDecoder decoder, String path, int minBytesEach) {
        int count = decoder.readUInt16(path + ".FieldCount");
        int limit = decoder.limits().maxArrayLength();
        if (count > limit) {
            throw UaEncodingException.limitExceeded(path + ".FieldCount: " + count + " exceeds MaxArrayLength "
                    + limit);
        }
        long needed = (long) count * minBytesEach;
        if (needed > decoder.buffer().readableBytes()) {
            throw UaEncodingException.decodingError(path + ".FieldCount: " + count + " fields need at least "
                    + needed + " bytes but only " + decoder.buffer().readableBytes() + " remain");
        }
        return count;
    }

    private static DataSetField readField(UaDecoder decoder, int index, UadpFieldEncoding encoding,
            FieldMetaData[] meta, String path) {
        FieldMetaData field = meta != null && index < meta.length ? meta[index] : null;
        DataValue value = switch (encoding) {
            case VARIANT -> fromVariant(decoder.readVariant(path), field);
            case DATA_VALUE -> decoder.readDataValue(path);
            case RAW_DATA -> {
                if (field == null) {
                    throw UaEncodingException.decodingError(path + ": field " + index
                            + " is beyond the " + meta.length + " fields of the metadata");
                }
                yield DataValue.of(UadpRawData.read(decoder, path, field));
            }
        };
        return new DataSetField(index, field == null ? null : field.name(), value);
    }

    /**
     * The Variant field encoding's two stand-ins (Table 162): a Bad StatusCode in place of the value, and a
     * DataValue carrying value and Uncertain status. Taken as such unless the metadata says the field is of
     * that type itself.
     */
    static DataValue fromVariant(Variant variant, FieldMetaData field) {
        if (!variant.isNull() && !variant.isArray()) {
            int declared = field == null ? -1 : field.builtInType();
            if (variant.type() == BuiltinType.StatusCode && declared != BuiltinType.StatusCode.typeId()
                    && ((StatusCode) variant.value()).isBad()) {
                return DataValue.ofStatus((StatusCode) variant.value());
            }
            if (variant.type() == BuiltinType.DataValue && declared != BuiltinType.DataValue.typeId()) {
                return (DataValue) variant.value();
            }
        }
        return DataValue.of(variant);
    }

    private static FieldMetaData[] fieldsOf(DataSetMetaDataType metaData) {
        FieldMetaData[] fields = metaData.fields();
        return fields == null ? new FieldMetaData[0] : fields;
    }
}
