package dev.opcua.stack.server.services.history;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.structured.DeleteEventDetails;
import dev.opcua.stack.core.types.structured.HistoryUpdateResult;
import dev.opcua.stack.server.history.HistoryStore;
import dev.opcua.stack.server.nodes.OperationContext;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * Deletes events of a notifier by EventId (Part 11, 6.9.7 DeleteEventDetails). Per EventId an operation result:
 * Good when the event was deleted, BadEventIdUnknown when the notifier's history holds no event with that id
 * (Part 4, 7.39). The notifier's status: Good when any event was deleted, BadNoData when none matched (Part 11,
 * 6.9.7.2), BadNothingToDo without EventIds.
 */
public final class DeleteEventHistoryUpdater implements HistoryUpdater<DeleteEventDetails> {

    private final HistoryStore store;

    public DeleteEventHistoryUpdater(HistoryStore store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    @Override
    public Class<DeleteEventDetails> detailsType() {
        return DeleteEventDetails.class;
    }

    @Override
    public NodeId nodeId(DeleteEventDetails details) {
        return details.nodeId();
    }

    @Override
    public boolean updatesEvents() {
        return true;
    }

    @Override
    public CompletableFuture<HistoryUpdateResult> update(OperationContext context, DeleteEventDetails details) {
        ByteString[] ids = details.eventIds();
        if (ids == null || ids.length == 0) {
            return CompletableFuture.completedFuture(HistoryServices.updateFailed(StatusCodes.BadNothingToDo));
        }
        List<ByteString> eventIds = Arrays.stream(ids).map(id -> id == null ? ByteString.NULL : id).toList();
        return store.deleteEvents(details.nodeId(), eventIds).thenApply(deleted -> {
            StatusCode[] results = new StatusCode[deleted.size()];
            boolean any = false;
            for (int i = 0; i < results.length; i++) {
                any |= deleted.get(i);
                results[i] = StatusCode.of(deleted.get(i) ? StatusCodes.Good : StatusCodes.BadEventIdUnknown);
            }
            return new HistoryUpdateResult(StatusCode.of(any ? StatusCodes.Good : StatusCodes.BadNoData), results,
                    null);
        });
    }
}
