package dev.opcua.stack.server.services.history;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.structured.DeleteRawModifiedDetails;
import dev.opcua.stack.core.types.structured.HistoryUpdateResult;
import dev.opcua.stack.server.history.HistoryModification;
import dev.opcua.stack.server.history.HistoryStore;
import dev.opcua.stack.server.nodes.OperationContext;
import java.util.concurrent.CompletableFuture;

/**
 * Deletes raw values (Part 11, 6.9.5 DeleteRawModifiedDetails): those with {@code startTime <= t < endTime};
 * with equal times, the value at that time. Both times are needed and the start may not be after the end
 * (BadInvalidTimestampArgument); nothing in the range is BadNoData. The deleted values are kept as modified
 * values (HistoryUpdateType Delete, with the time and the session's user name) for read-modified (Part 11,
 * 6.5.3.3). isDeleteModified (deleting those kept values) is BadHistoryOperationUnsupported.
 */
public final class DeleteRawHistoryUpdater implements HistoryUpdater<DeleteRawModifiedDetails> {

    private final HistoryStore store;

    public DeleteRawHistoryUpdater(HistoryStore store) {
        this.store = store;
    }

    @Override
    public Class<DeleteRawModifiedDetails> detailsType() {
        return DeleteRawModifiedDetails.class;
    }

    @Override
    public NodeId nodeId(DeleteRawModifiedDetails details) {
        return details.nodeId();
    }

    @Override
    public CompletableFuture<HistoryUpdateResult> update(OperationContext context, DeleteRawModifiedDetails details) {
        if (details.isDeleteModified()) {
            return failed(StatusCodes.BadHistoryOperationUnsupported);
        }
        if (!given(details.startTime()) || !given(details.endTime())
                || details.startTime().utcTicks() > details.endTime().utcTicks()) {
            return failed(StatusCodes.BadInvalidTimestampArgument);
        }
        long start = details.startTime().utcTicks();
        long end = details.endTime().utcTicks();
        HistoryModification by = HistoryModification.now(DataHistoryUpdater.userName(context));
        return store.delete(details.nodeId(), start, start == end ? start + 1 : end, by).thenApply(deleted ->
                new HistoryUpdateResult(StatusCode.of(deleted > 0 ? StatusCodes.Good : StatusCodes.BadNoData), null,
                        null));
    }

    private static boolean given(DateTime time) {
        return time != null && !time.isNull();
    }

    private static CompletableFuture<HistoryUpdateResult> failed(int status) {
        return CompletableFuture.completedFuture(HistoryServices.updateFailed(status));
    }
}
