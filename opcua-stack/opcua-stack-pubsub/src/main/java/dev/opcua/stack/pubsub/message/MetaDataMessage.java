package dev.opcua.stack.pubsub.message;

import dev.opcua.stack.core.types.structured.DataSetMetaDataType;
import java.util.Objects;

/**
 * The metadata of one DataSetWriter's data set (Part 14, 7.2.5.5 for JSON, 7.2.4.6.4 for UADP discovery):
 * field names, types and the ConfigurationVersion that data set messages refer to. Published when a
 * writer starts and whenever the version changes.
 *
 * @param publisherId the publisher
 * @param dataSetWriterId the writer the metadata belongs to
 * @param metaData the metadata
 * @param writerGroupName the writer's group (JSON WriterGroupName), or null
 * @param dataSetWriterName the writer's name (JSON DataSetWriterName), or null
 */
public record MetaDataMessage(PublisherId publisherId, int dataSetWriterId, DataSetMetaDataType metaData,
        String writerGroupName, String dataSetWriterName) implements PubSubMessage {

    /** Metadata without the names (UADP discovery carries none). */
    public MetaDataMessage(PublisherId publisherId, int dataSetWriterId, DataSetMetaDataType metaData) {
        this(publisherId, dataSetWriterId, metaData, null, null);
    }

    public MetaDataMessage {
        Objects.requireNonNull(publisherId, "publisherId");
        Objects.requireNonNull(metaData, "metaData");
    }
}
