package dev.opcua.stack.pubsub.message;

import dev.opcua.stack.core.types.structured.DataSetMetaDataType;

/**
 * The metadata known for a writer's data set: what names the fields of a UADP message (which carries only their
 * positions), what types the bare fields of a JSON message have, and what RawData fields are written and read
 * with (Part 14, 7.2.4.5.11). A subscriber fills it from its DataSetReaders or from announced metadata; a
 * publisher from its PublishedDataSets.
 */
@FunctionalInterface
public interface MetaDataLookup {

    /** No metadata known. */
    MetaDataLookup NONE = (publisherId, writerGroupId, dataSetWriterId) -> null;

    /**
     * The metadata of one writer's data set, or null when it is not known.
     *
     * @param publisherId the publisher, or null where the message leaves it out
     * @param writerGroupId the WriterGroupId, 0 where the message leaves it out
     * @param dataSetWriterId the DataSetWriterId, 0 where the message leaves it out (UADP without payload header)
     */
    DataSetMetaDataType find(PublisherId publisherId, int writerGroupId, int dataSetWriterId);
}
