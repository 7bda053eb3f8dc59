package dev.opcua.stack.server.nodes;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A {@link NodeManager} that answers on the calling worker thread: implement the {@code ...Now}
 * methods, which complete every operation before they return.
 */
public interface SyncNodeManager extends NodeManager {

    void readNow(OperationContext context, List<ReadOperation> operations);

    void writeNow(OperationContext context, List<WriteOperation> operations);

    /** Gives the references of the nodes; the default answers BadNotSupported. */
    default void browseNow(OperationContext context, List<BrowseOperation> operations) {
        operations.forEach(op -> op.fail(dev.opcua.stack.core.ids.StatusCodes.BadNotSupported));
    }

    @Override
    default CompletableFuture<Void> browse(OperationContext context, List<BrowseOperation> operations) {
        return run(() -> browseNow(context, operations));
    }

    /**
     * Calls methods on objects of this manager; the default, for a manager without methods, answers
     * BadNodeIdUnknown, BadNodeIdInvalid or BadMethodInvalid after the object's NodeClass, as
     * {@link NodeManager#call} does.
     */
    default void callNow(OperationContext context, List<CallOperation> operations) {
        MethodlessCalls.answerNow(context, operations, this::readNow);
    }

    @Override
    default CompletableFuture<Void> call(OperationContext context, List<CallOperation> operations) {
        return run(() -> callNow(context, operations));
    }

    // Read and Write call directly, without a Runnable: they are the hot path, and the lambda and a
    // completed future per request are what a one-value Read would allocate here.
    @Override
    default CompletableFuture<Void> read(OperationContext context, List<ReadOperation> operations) {
        try {
            readNow(context, operations);
            return CompletedCalls.DONE;
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    default CompletableFuture<Void> write(OperationContext context, List<WriteOperation> operations) {
        try {
            writeNow(context, operations);
            return CompletedCalls.DONE;
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static CompletableFuture<Void> run(Runnable work) {
        try {
            work.run();
            return CompletedCalls.DONE;
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }
}
