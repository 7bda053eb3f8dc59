package dev.opcua.stack.server.nodes;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.enumerated.NodeClass;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ReadValueId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;

/**
 * The answer of a node manager that has no methods to a Call (Part 4, 5.11.2, Table 67): it reads
 * the NodeClass of each objectId through the manager's own Read, so that an object that does not
 * exist is BadNodeIdUnknown, a node that is neither an Object nor an ObjectType BadNodeIdInvalid,
 * and an existing object BadMethodInvalid (no method of this manager belongs to it).
 */
final class MethodlessCalls {

    private MethodlessCalls() {
    }

    /** Asynchronous: one batched Read of the objects' NodeClass through {@code read}. */
    static CompletableFuture<Void> answer(OperationContext context, List<CallOperation> operations,
            BiFunction<OperationContext, List<ReadOperation>, CompletableFuture<Void>> read) {
        DataValue[] classes = new DataValue[operations.size()];
        List<ReadOperation> reads = reads(operations, classes);
        CompletableFuture<Void> done;
        try {
            done = read.apply(context, reads);
        } catch (RuntimeException e) {
            done = CompletableFuture.failedFuture(e);
        }
        return (done == null ? CompletableFuture.<Void>completedFuture(null) : done)
                .handle((ignored, failure) -> {
                    complete(operations, classes);
                    return null;
                });
    }

    /** Synchronous: the same with a Read that completes before it returns. */
    static void answerNow(OperationContext context, List<CallOperation> operations,
            BiConsumer<OperationContext, List<ReadOperation>> readNow) {
        DataValue[] classes = new DataValue[operations.size()];
        readNow.accept(context, reads(operations, classes));
        complete(operations, classes);
    }

    private static List<ReadOperation> reads(List<CallOperation> operations, DataValue[] classes) {
        ReadValueId[] items = new ReadValueId[classes.length];
        for (int i = 0; i < classes.length; i++) {
            items[i] = new ReadValueId(operations.get(i).objectId(), AttributeIds.NodeClass, null, null);
        }
        ReadOperation.Request request = new ReadOperation.Request(items, 0, TimestampsToReturn.Neither, classes);
        List<ReadOperation> reads = new ArrayList<>(classes.length);
        for (int i = 0; i < classes.length; i++) {
            reads.add(request.operation(i));
        }
        return reads;
    }

    private static void complete(List<CallOperation> operations, DataValue[] classes) {
        for (int i = 0; i < classes.length; i++) {
            operations.get(i).fail(statusOf(classes[i]));
        }
    }

    /** The Call status for an object whose NodeClass read gave {@code nodeClass}. */
    static int statusOf(DataValue nodeClass) {
        if (nodeClass == null) {
            return StatusCodes.BadInternalError;
        }
        StatusCode status = nodeClass.statusCode();
        if (status != null && !status.isGood()) {
            return status.value() == StatusCodes.BadNodeIdUnknown ? StatusCodes.BadNodeIdUnknown
                    : StatusCodes.BadInternalError;
        }
        Object value = nodeClass.value() == null ? null : nodeClass.value().value();
        boolean object = value instanceof Integer code
                && (code == NodeClass.Object.value() || code == NodeClass.ObjectType.value());
        return object ? StatusCodes.BadMethodInvalid : StatusCodes.BadNodeIdInvalid;
    }
}
