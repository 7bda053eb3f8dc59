package dev.opcua.stack.pubsub.config;

import dev.opcua.stack.core.types.structured.DataSetMetaDataType;
import dev.opcua.stack.pubsub.message.PublisherId;
import dev.opcua.stack.pubsub.transport.QualityOfService;
import java.util.List;
import java.util.Objects;

/**
 * A DataSetReader (Part 14, 6.2.9): takes the DataSetMessages of one writer of one publisher from the broker
 * and hands their fields to targets in the address space and to listeners.
 *
 * @param name the reader's name, for logs and meters
 * @param publisherId the publisher whose messages are taken; others on the same topic are ignored
 * @param writerGroupName the publisher's WriterGroup (the topic level of the standard tree)
 * @param writerGroupId the WriterGroupId to match, 0 for any
 * @param dataSetWriterId the DataSetWriterId to match, 1..65535
 * @param encoding JSON or UADP
 * @param qos the broker delivery guarantee of the subscription
 * @param queueName the MQTT topic filter, or null for the standard topic of the writer group
 * @param metaData the expected metadata, or null to take it from the publisher's retained metadata topic; a
 *        message whose MetaDataVersion differs from it is counted and left unread (Part 14, 6.2.9.2.3)
 * @param targets where fields are written in the address space
 */
public record DataSetReaderConfig(String name, PublisherId publisherId, String writerGroupName, int writerGroupId,
        int dataSetWriterId, MessageEncoding encoding, QualityOfService qos, String queueName,
        DataSetMetaDataType metaData, List<FieldTarget> targets) {

    public DataSetReaderConfig {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a DataSetReader needs a name");
        }
        Objects.requireNonNull(publisherId, "publisherId of DataSetReader " + name);
        if (writerGroupId < 0 || writerGroupId > 0xFFFF) {
            throw new IllegalArgumentException("DataSetReader " + name + ": writerGroupId is 0..65535, was "
                    + writerGroupId);
        }
        if (dataSetWriterId < 1 || dataSetWriterId > 0xFFFF) {
            throw new IllegalArgumentException("DataSetReader " + name + ": dataSetWriterId is 1..65535, was "
                    + dataSetWriterId);
        }
        Objects.requireNonNull(encoding, "encoding of DataSetReader " + name);
        if (queueName == null && (writerGroupName == null || writerGroupName.isBlank())) {
            throw new IllegalArgumentException("DataSetReader " + name
                    + " needs the publisher's writer group name or a queue name (topic)");
        }
        qos = qos == null ? QualityOfService.AT_LEAST_ONCE : qos;
        targets = targets == null ? List.of() : List.copyOf(targets);
    }
}
