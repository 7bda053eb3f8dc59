package dev.opcua.stack.pubsub.message;

import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * One network message (Part 14, 7.2.2): the data set messages of one WriterGroup sent together, with the
 * headers that let a subscriber filter before decoding them.
 *
 * @param messageId JSON MessageId (unique per publisher), or null for UADP and where left out
 * @param publisherId the publisher, or null where the header leaves it out
 * @param writerGroupId the WriterGroup's id, 0 where left out
 * @param groupVersion the WriterGroup's configuration version (UADP group header), 0 where left out
 * @param sequenceNumber the group's network message counter (UADP group header), 0 where left out
 * @param dataSetClassId the data set class, or null
 * @param messages the data set messages, at least one
 * @param writerGroupName the WriterGroup's name (JSON WriterGroupName, and the MQTT topic), or null
 */
public record NetworkMessage(String messageId, PublisherId publisherId, int writerGroupId, long groupVersion,
        int sequenceNumber, UUID dataSetClassId, List<DataSetMessage> messages, String writerGroupName)
        implements PubSubMessage {

    /** A network message without a WriterGroup name (UADP carries none). */
    public NetworkMessage(String messageId, PublisherId publisherId, int writerGroupId, long groupVersion,
            int sequenceNumber, UUID dataSetClassId, List<DataSetMessage> messages) {
        this(messageId, publisherId, writerGroupId, groupVersion, sequenceNumber, dataSetClassId, messages, null);
    }

    public NetworkMessage {
        if (writerGroupId < 0 || writerGroupId > 0xFFFF) {
            throw new IllegalArgumentException("WriterGroupId is 0..65535, was " + writerGroupId);
        }
        messages = List.copyOf(Objects.requireNonNull(messages, "messages"));
    }
}
