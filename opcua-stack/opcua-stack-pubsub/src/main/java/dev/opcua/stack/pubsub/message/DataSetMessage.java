package dev.opcua.stack.pubsub.message;

import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.structured.ConfigurationVersionDataType;
import java.util.List;
import java.util.Objects;

/**
 * One data set message (Part 14, 7.2.3): the fields of one DataSetWriter at one moment.
 *
 * @param dataSetWriterId the writer's id, 1..65535 (UInt16)
 * @param type key frame, delta frame, event or keep-alive
 * @param sequenceNumber the writer's message counter (UInt32 in JSON, UInt16 in UADP: the mapping truncates)
 * @param configurationVersion the metadata version the fields follow, or null where the message leaves it out
 * @param timestamp when the message was made, or null
 * @param status the overall status of the data set, or null for Good
 * @param fields the fields, in metadata order (all of them in a key frame, the changed ones in a delta frame)
 * @param dataSetWriterName the writer's name (JSON DataSetWriterName), or null
 */
public record DataSetMessage(int dataSetWriterId, DataSetMessageType type, long sequenceNumber,
        ConfigurationVersionDataType configurationVersion, DateTime timestamp, StatusCode status,
        List<DataSetField> fields, String dataSetWriterName) {

    /** A data set message without a writer name (UADP carries none). */
    public DataSetMessage(int dataSetWriterId, DataSetMessageType type, long sequenceNumber,
            ConfigurationVersionDataType configurationVersion, DateTime timestamp, StatusCode status,
            List<DataSetField> fields) {
        this(dataSetWriterId, type, sequenceNumber, configurationVersion, timestamp, status, fields, null);
    }

    public DataSetMessage {
        if (dataSetWriterId < 0 || dataSetWriterId > 0xFFFF) {
            throw new IllegalArgumentException("DataSetWriterId is 0..65535, was " + dataSetWriterId);
        }
        Objects.requireNonNull(type, "type");
        fields = List.copyOf(fields);
        if (type == DataSetMessageType.KEEP_ALIVE && !fields.isEmpty()) {
            throw new IllegalArgumentException("a keep-alive message has no fields, was given " + fields.size());
        }
    }
}
