package dev.opcua.stack.pubsub.runtime;

import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.pubsub.config.PublishedDataSet;
import java.util.function.Consumer;

/**
 * Where a writer of an events data set (Part 14, 6.2.3.3 PublishedEvents) takes its events: the server's event
 * notifiers ({@code AddressSpaceDataSets}) or the application ({@link InMemoryDataSetSource#emitEvent}).
 */
@FunctionalInterface
public interface EventSource {

    /**
     * Starts delivering the events of the data set's notifier that pass its filter, each as the values of the data
     * set's fields in field order (a null Variant for a field the event lacks). {@code onEvent} is quick and never
     * blocks; it may be called on any thread, several at once.
     *
     * @return closing it stops the delivery
     * @throws IllegalArgumentException when the source cannot select the data set's fields or apply its filter
     */
    AutoCloseable subscribe(PublishedDataSet dataSet, Consumer<Variant[]> onEvent);
}
