package dev.opcua.stack.pubsub.message.uadp;

import dev.opcua.stack.core.types.structured.DataSetMetaDataType;
import dev.opcua.stack.pubsub.message.PublisherId;

/**
 * Finds the metadata of a DataSetWriter's data set: field names for decoded fields and, for the RawData
 * field encoding (Part 14, 7.2.4.5.11), the built-in type, ValueRank and MaxStringLength each field is
 * written with, since RawData carries no type information of its own.
 *
 * <p>A subscriber fills it from its configured DataSetReaders or from DataSetMetaData announcements
 * (7.2.4.6.4); a publisher from its PublishedDataSets.
 */
@FunctionalInterface
public interface UadpMetaDataLookup {

    /** A lookup that knows no metadata: enough for Variant and DataValue field encodings. */
    UadpMetaDataLookup NONE = (publisherId, writerGroupId, dataSetWriterId) -> null;

    /**
     * The metadata of one writer's data set.
     *
     * @param publisherId the publisher, or null where the network message leaves it out
     * @param writerGroupId the WriterGroupId, 0 where the message leaves it out
     * @param dataSetWriterId the DataSetWriterId, 0 where the message leaves it out (no payload header)
     * @return the metadata, or null when it is not known
     */
    DataSetMetaDataType find(PublisherId publisherId, int writerGroupId, int dataSetWriterId);
}
