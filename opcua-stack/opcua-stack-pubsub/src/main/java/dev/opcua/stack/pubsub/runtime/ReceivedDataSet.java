package dev.opcua.stack.pubsub.runtime;

import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.pubsub.message.DataSetMessageType;
import dev.opcua.stack.pubsub.message.PublisherId;
import java.util.Map;

/**
 * One data set message as a reader hands it to listeners: the fields by name, in data set order.
 *
 * @param reader the reader's name
 * @param publisherId who published it
 * @param dataSetWriterId the writer that sent it
 * @param type key frame (every field), delta frame (changed fields), event or keep-alive (none)
 * @param sequenceNumber the writer's message counter
 * @param timestamp when the publisher made it, or null
 * @param fields the fields received, by name
 */
public record ReceivedDataSet(String reader, PublisherId publisherId, int dataSetWriterId, DataSetMessageType type,
        long sequenceNumber, DateTime timestamp, Map<String, DataValue> fields) {

    public ReceivedDataSet {
        fields = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(fields));
    }
}
