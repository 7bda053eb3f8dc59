package dev.opcua.stack.server.nodes;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.enumerated.NodeClass;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.server.addressspace.UaReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * How any node manager describes browse targets through its own services, the default of
 * {@link NodeManager#describe}: one batched Read of each target's NodeClass, BrowseName and
 * DisplayName, then one batched browse of the Objects and Variables whose TypeDefinition is wanted,
 * for the target of their forward HasTypeDefinition reference (Part 3, 7.13).
 */
final class TargetDescriptions {

    private static final NodeId HAS_TYPE_DEFINITION = NodeId.ns0(NodeIds.HasTypeDefinition);

    private TargetDescriptions() {
    }

    static CompletableFuture<Void> describe(NodeManager manager, OperationContext context,
            List<DescribeOperation> operations) {
        int count = operations.size();
        ReadValueId[] items = new ReadValueId[3 * count];
        for (int i = 0; i < count; i++) {
            NodeId target = operations.get(i).nodeId();
            items[3 * i] = new ReadValueId(target, AttributeIds.NodeClass, null, QualifiedName.NULL);
            items[3 * i + 1] = new ReadValueId(target, AttributeIds.BrowseName, null, QualifiedName.NULL);
            items[3 * i + 2] = new ReadValueId(target, AttributeIds.DisplayName, null, QualifiedName.NULL);
        }
        DataValue[] values = new DataValue[items.length];
        ReadOperation.Request request = new ReadOperation.Request(items, 0, TimestampsToReturn.Neither, values);
        List<ReadOperation> reads = new ArrayList<>(items.length);
        for (int i = 0; i < items.length; i++) {
            reads.add(request.operation(i));
        }
        return call(() -> manager.read(context, reads)).thenCompose(ignored -> {
            List<DescribeOperation> typed = new ArrayList<>();
            List<BrowseOperation> lookups = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                DescribeOperation operation = operations.get(i);
                NodeClass nodeClass = nodeClass(values[3 * i]);
                operation.complete(nodeClass, value(values[3 * i + 1], QualifiedName.class),
                        value(values[3 * i + 2], LocalizedText.class), null);
                if (operation.typeDefinitionWanted() && (nodeClass == NodeClass.Object || nodeClass == NodeClass.Variable)) {
                    typed.add(operation);
                    lookups.add(new BrowseOperation(operation.nodeId()));
                }
            }
            if (typed.isEmpty()) {
                return CompletedCalls.DONE;
            }
            return call(() -> manager.browse(context, lookups)).thenApply(done -> {
                for (int i = 0; i < typed.size(); i++) {
                    DescribeOperation operation = typed.get(i);
                    ExpandedNodeId type = typeDefinition(lookups.get(i).references());
                    if (type != null) {
                        operation.complete(operation.nodeClass(), operation.browseName(), operation.displayName(), type);
                    }
                }
                return null;
            });
        });
    }

    /** Runs a manager call; one that throws or fails counts as done without answers (the defaults stay). */
    private static CompletableFuture<Void> call(Supplier<CompletableFuture<Void>> call) {
        CompletableFuture<Void> future;
        try {
            future = call.get();
        } catch (RuntimeException e) {
            return CompletedCalls.DONE;
        }
        return future == null ? CompletedCalls.DONE : future.exceptionally(failure -> null);
    }

    /** The target of the first forward HasTypeDefinition reference, or null. */
    static ExpandedNodeId typeDefinition(UaReference[] references) {
        if (references != null) {
            for (UaReference r : references) {
                if (r.forward() && r.referenceTypeId().equals(HAS_TYPE_DEFINITION)) {
                    return r.targetId();
                }
            }
        }
        return null;
    }

    private static NodeClass nodeClass(DataValue value) {
        Object v = value == null || value.value() == null ? null : value.value().value();
        NodeClass nodeClass = v instanceof Integer code ? NodeClass.fromValue(code) : null;
        return nodeClass == null ? NodeClass.Unspecified : nodeClass;
    }

    private static <T> T value(DataValue value, Class<T> type) {
        Object v = value == null || value.value() == null ? null : value.value().value();
        return type.isInstance(v) ? type.cast(v) : null;
    }
}
