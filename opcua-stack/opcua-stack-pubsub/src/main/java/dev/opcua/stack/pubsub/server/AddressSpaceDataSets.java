package dev.opcua.stack.pubsub.server;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.EventFilter;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.SimpleAttributeOperand;
import dev.opcua.stack.core.types.structured.WriteValue;
import dev.opcua.stack.pubsub.config.PublishedDataSet;
import dev.opcua.stack.pubsub.config.PublishedEvents;
import dev.opcua.stack.pubsub.config.PublishedField;
import dev.opcua.stack.pubsub.runtime.DataSetSource;
import dev.opcua.stack.pubsub.runtime.EventSource;
import dev.opcua.stack.pubsub.runtime.FieldTargetWriter;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.nodes.OperationContext;
import dev.opcua.stack.server.subscriptions.events.EventFilterEvaluator;
import dev.opcua.stack.server.subscriptions.events.EventNotifierRegistry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Published data sets read from a server's address space and field targets written into it (Part 14, 6.2.3.2
 * PublishedVariableDataType, 6.2.10.2 TargetVariablesDataType), as the server itself: one Read per data set per
 * publishing interval through the node managers, so a variable of any manager can be published.
 *
 * <p>A field without a source variable is published as BadNotReadable; a field's variable that the server does
 * not know is published with the status the Read returns (BadNodeIdUnknown), so the reader sees why.
 *
 * <p>Events data sets (Part 14, 6.2.3.3 PublishedEventsDataType) are taken from the server's event notifiers the way
 * an event monitored item takes them (Part 4, 5.12.1): a listener on the data set's notifier in
 * {@link OpcUaServer#eventNotifiers()}, so it receives the events reported there and on the notifiers below it
 * (every event of the server for the Server object), and the selected fields and where clause compiled once into
 * an {@link EventFilterEvaluator} against {@link OpcUaServer#eventTypes()}, exactly as for a client's EventFilter.
 * No session, subscription or access check is involved: the server publishes its own events.
 */
public final class AddressSpaceDataSets implements DataSetSource, EventSource, FieldTargetWriter {

    private static final DataValue NO_SOURCE = DataValue.ofStatus(StatusCode.of(StatusCodes.BadNotReadable));

    private final OpcUaServer server;
    private final Map<String, ReadValueId[]> reads = new ConcurrentHashMap<>();

    public AddressSpaceDataSets(OpcUaServer server) {
        this.server = server;
    }

    @Override
    public CompletableFuture<DataValue[]> sample(PublishedDataSet dataSet) {
        ReadValueId[] items = reads.computeIfAbsent(dataSet.name(), name -> readsOf(dataSet));
        return server.nodeManagers().read(OperationContext.INTERNAL, items, 0, TimestampsToReturn.Both)
                .thenApply(values -> {
                    List<PublishedField> fields = dataSet.fields();
                    for (int i = 0; i < values.length; i++) {
                        if (fields.get(i).source() == null) {
                            values[i] = NO_SOURCE;
                        }
                    }
                    return values;
                });
    }

    /**
     * Listens to the data set's notifier; each event that passes the where clause is handed over as its selected
     * fields, on the reporting thread.
     *
     * @throws IllegalArgumentException when the where clause is invalid (BadEventFilterInvalid) or a selected field
     *         is (its status and the reason; Part 4, 7.22.3 would publish such a field as null, but a configuration
     *         should be told)
     */
    @Override
    public AutoCloseable subscribe(PublishedDataSet dataSet, Consumer<Variant[]> onEvent) {
        PublishedEvents events = dataSet.events();
        if (events == null) {
            throw new IllegalArgumentException("published data set " + dataSet.name() + " is not an events data set");
        }
        EventFilter filter = new EventFilter(events.selectedFields().toArray(SimpleAttributeOperand[]::new),
                events.filter());
        EventFilterEvaluator evaluator = EventFilterEvaluator.compile(filter, server.eventTypes());
        if (!evaluator.isValid() || evaluator.hasErrors()) {
            throw new IllegalArgumentException("published events data set " + dataSet.name() + ": "
                    + evaluator.status() + " " + evaluator.problems());
        }
        EventNotifierRegistry.Registration registration = server.eventNotifiers().subscribe(events.notifier(),
                (notifier, event) -> {
                    Variant[] fields = evaluator.evaluate(event);
                    if (fields != null) {
                        onEvent.accept(fields);
                    }
                });
        return registration;
    }

    private static ReadValueId[] readsOf(PublishedDataSet dataSet) {
        List<PublishedField> fields = dataSet.fields();
        ReadValueId[] items = new ReadValueId[fields.size()];
        for (int i = 0; i < items.length; i++) {
            NodeId source = fields.get(i).source();
            items[i] = new ReadValueId(source == null ? NodeId.NULL : source, AttributeIds.Value, null,
                    QualifiedName.NULL);
        }
        return items;
    }

    /**
     * Writes the received values as the server: the status and source timestamp of a DataValue field go with the
     * value (Part 14, 6.2.10.2.3 leaves the choice to the subscriber; keeping them tells a client where the value
     * came from), the server timestamp is the server's.
     */
    @Override
    public CompletableFuture<StatusCode[]> write(List<NodeId> targets, List<DataValue> values) {
        WriteValue[] items = new WriteValue[targets.size()];
        for (int i = 0; i < items.length; i++) {
            DataValue value = values.get(i);
            DataValue written = DataValue.of(value.value(), value.statusCode(), value.sourceTimestamp(), null);
            items[i] = new WriteValue(targets.get(i), AttributeIds.Value, null, written);
        }
        return server.nodeManagers().write(OperationContext.INTERNAL, items);
    }
}
