package dev.opcua.stack.pubsub.config;

import dev.opcua.stack.pubsub.transport.QualityOfService;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A WriterGroup (Part 14, 6.2.6): the writers whose DataSetMessages go out together in one NetworkMessage every
 * publishing interval, with one encoding and one broker destination.
 *
 * @param name the group's name (JSON WriterGroupName and the MQTT topic level)
 * @param id the WriterGroupId, 1..65535
 * @param publishingInterval how often the group samples its data sets and publishes
 * @param keepAliveTime after how long without a message (delta frames with nothing changed) a keep-alive goes
 *        out; null means one publishing interval times the largest keyFrameCount
 * @param encoding JSON or UADP
 * @param qos the broker delivery guarantee (Part 14, 6.4.2.2.3)
 * @param queueName the MQTT topic, or null for the standard topic tree (Part 14, 7.3.5.4)
 * @param metaDataQueueName the metadata topic, or null for the standard tree
 * @param writers the group's writers; ids unique
 * @param retain whether the broker keeps the group's last data message for subscribers that come later (MQTT
 *        RETAIN; Part 14, 7.3.5.7.3 leaves data messages not retained by default)
 */
public record WriterGroupConfig(String name, int id, Duration publishingInterval, Duration keepAliveTime,
        MessageEncoding encoding, QualityOfService qos, String queueName, String metaDataQueueName,
        List<DataSetWriterConfig> writers, boolean retain) {

    /** A writer group whose data messages the broker does not retain. */
    public WriterGroupConfig(String name, int id, Duration publishingInterval, Duration keepAliveTime,
            MessageEncoding encoding, QualityOfService qos, String queueName, String metaDataQueueName,
            List<DataSetWriterConfig> writers) {
        this(name, id, publishingInterval, keepAliveTime, encoding, qos, queueName, metaDataQueueName, writers, false);
    }

    public WriterGroupConfig {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a WriterGroup needs a name");
        }
        if (id < 1 || id > 0xFFFF) {
            throw new IllegalArgumentException("WriterGroup " + name + ": id is 1..65535, was " + id);
        }
        Objects.requireNonNull(publishingInterval, "publishingInterval of WriterGroup " + name);
        if (publishingInterval.toMillis() < 1) {
            throw new IllegalArgumentException("WriterGroup " + name + ": publishing interval is at least 1 ms, was "
                    + publishingInterval);
        }
        Objects.requireNonNull(encoding, "encoding of WriterGroup " + name);
        qos = qos == null ? QualityOfService.AT_LEAST_ONCE : qos;
        writers = List.copyOf(writers);
        if (writers.isEmpty()) {
            throw new IllegalArgumentException("WriterGroup " + name + " has no DataSetWriters");
        }
        Set<Integer> ids = new HashSet<>();
        Set<String> names = new HashSet<>();
        for (DataSetWriterConfig writer : writers) {
            if (!ids.add(writer.id()) || !names.add(writer.name())) {
                throw new IllegalArgumentException("WriterGroup " + name + " has two DataSetWriters with id "
                        + writer.id() + " or name " + writer.name());
            }
        }
        if (keepAliveTime == null) {
            int maxKeyFrameCount = writers.stream().mapToInt(DataSetWriterConfig::keyFrameCount).max().orElse(1);
            keepAliveTime = publishingInterval.multipliedBy(maxKeyFrameCount);
        }
    }
}
