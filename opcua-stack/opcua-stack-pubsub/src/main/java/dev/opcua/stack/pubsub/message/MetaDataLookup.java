package dev.opcua.stack.pubsub.message;

import dev.opcua.stack.core.types.structured.DataSetMetaDataType;

/**
 * The metadata a subscriber knows for a writer: what names the fields of a UADP message (which carries only
 * their positions) and what RawData fields are decoded with (Part 14, 7.2.4.5.4).
 */
@FunctionalInterface
public interface MetaDataLookup {

    /** No metadata known. */
    MetaDataLookup NONE = (publisherId, writerGroupId, dataSetWriterId) -> null;

    /** The metadata of that writer, or null when unknown. */
    DataSetMetaDataType find(PublisherId publisherId, int writerGroupId, int dataSetWriterId);
}
