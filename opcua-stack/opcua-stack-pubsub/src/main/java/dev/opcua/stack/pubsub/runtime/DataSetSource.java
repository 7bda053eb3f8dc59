package dev.opcua.stack.pubsub.runtime;

import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.pubsub.config.PublishedDataSet;
import java.util.concurrent.CompletableFuture;

/**
 * Where a writer group takes the current values of a published data set, once per publishing interval: the
 * server's address space ({@code AddressSpaceDataSets}) or the application ({@link InMemoryDataSetSource}).
 */
@FunctionalInterface
public interface DataSetSource {

    /** The values of every field of the data set, in field order. */
    CompletableFuture<DataValue[]> sample(PublishedDataSet dataSet);
}
