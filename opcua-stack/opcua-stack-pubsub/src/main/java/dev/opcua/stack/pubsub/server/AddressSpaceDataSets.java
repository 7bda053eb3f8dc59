package dev.opcua.stack.pubsub.server;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.WriteValue;
import dev.opcua.stack.pubsub.config.PublishedDataSet;
import dev.opcua.stack.pubsub.config.PublishedField;
import dev.opcua.stack.pubsub.runtime.DataSetSource;
import dev.opcua.stack.pubsub.runtime.FieldTargetWriter;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.nodes.OperationContext;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Published data sets read from a server's address space and field targets written into it (Part 14, 6.2.3.2
 * PublishedVariableDataType, 6.2.10.2 TargetVariablesDataType), as the server itself: one Read per data set per
 * publishing interval through the node managers, so a variable of any manager can be published.
 *
 * <p>A field without a source variable is published as BadNotReadable; a field's variable that the server does
 * not know is published with the status the Read returns (BadNodeIdUnknown), so the reader sees why.
 */
public final class AddressSpaceDataSets implements DataSetSource, FieldTargetWriter {

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
