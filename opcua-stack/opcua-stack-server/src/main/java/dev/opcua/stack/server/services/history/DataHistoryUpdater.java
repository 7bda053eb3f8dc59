package dev.opcua.stack.server.services.history;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.enumerated.PerformUpdateType;
import dev.opcua.stack.core.types.structured.HistoryUpdateResult;
import dev.opcua.stack.core.types.structured.UpdateDataDetails;
import dev.opcua.stack.server.history.HistoryModification;
import dev.opcua.stack.server.history.HistoryStore;
import dev.opcua.stack.server.history.UpdateMode;
import dev.opcua.stack.server.history.UpdateOutcome;
import dev.opcua.stack.server.nodes.OperationContext;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Inserts, replaces and updates raw values (Part 11, 6.9.2 UpdateDataDetails): per value, in the order
 * given, GoodEntryInserted, GoodEntryReplaced, BadEntryExists (insert at a time that holds a value) or
 * BadNoEntryExists (replace at a time without one); the details' status is Good once they were applied.
 *
 * <p>A value's time is its SourceTimestamp (Part 11, 6.9.2); a value without one gets
 * BadInvalidTimestampArgument. A stored value keeps its value, status and source time and gets the time
 * of the update as its ServerTimestamp. The store keeps the value inserted, or the one replaced, with the time of
 * the update, its type and the session's user name, for read-modified (Part 11, 6.5.3.3). PerformUpdateType Remove, or no values, is
 * BadHistoryOperationInvalid.
 */
public final class DataHistoryUpdater implements HistoryUpdater<UpdateDataDetails> {

    private final HistoryStore store;

    public DataHistoryUpdater(HistoryStore store) {
        this.store = store;
    }

    @Override
    public Class<UpdateDataDetails> detailsType() {
        return UpdateDataDetails.class;
    }

    @Override
    public NodeId nodeId(UpdateDataDetails details) {
        return details.nodeId();
    }

    @Override
    public CompletableFuture<HistoryUpdateResult> update(OperationContext context, UpdateDataDetails details) {
        UpdateMode mode = mode(details.performInsertReplace());
        DataValue[] given = details.updateValues();
        if (mode == null || given == null || given.length == 0) {
            return CompletableFuture.completedFuture(HistoryServices.updateFailed(StatusCodes.BadHistoryOperationInvalid));
        }
        DateTime now = DateTime.now();
        StatusCode[] results = new StatusCode[given.length];
        List<DataValue> values = new ArrayList<>(given.length);
        List<Integer> positions = new ArrayList<>(given.length);
        for (int i = 0; i < given.length; i++) {
            DataValue value = given[i];
            if (value == null || value.sourceTimestamp() == null) {
                results[i] = StatusCode.of(StatusCodes.BadInvalidTimestampArgument);
                continue;
            }
            values.add(DataValue.of(value.value(), value.statusCode(), value.sourceTimestamp(),
                    value.sourcePicoseconds(), now, 0));
            positions.add(i);
        }
        if (values.isEmpty()) {
            return CompletableFuture.completedFuture(new HistoryUpdateResult(StatusCode.GOOD, results, null));
        }
        // Part 11, 6.5.3.3: what the update changes is kept for read-modified, with when and by whom
        HistoryModification by = new HistoryModification(now, userName(context));
        return store.update(details.nodeId(), mode, values, by).thenApply(outcomes -> {
            for (int k = 0; k < outcomes.size(); k++) {
                results[positions.get(k)] = StatusCode.of(status(outcomes.get(k)));
            }
            return new HistoryUpdateResult(StatusCode.GOOD, results, null);
        });
    }

    /** The session's user name, for the ModificationInfo; null without one (anonymous, or the server). */
    static String userName(OperationContext context) {
        return context.identity() == null ? null : context.identity().userName();
    }

    private static UpdateMode mode(PerformUpdateType type) {
        if (type == null) {
            return null;
        }
        return switch (type) {
            case Insert -> UpdateMode.INSERT;
            case Replace -> UpdateMode.REPLACE;
            case Update -> UpdateMode.UPSERT;
            case Remove -> null;
        };
    }

    /** Part 11, 6.9.2: the StatusCode of each outcome. */
    static int status(UpdateOutcome outcome) {
        return switch (outcome) {
            case INSERTED -> StatusCodes.GoodEntryInserted;
            case REPLACED -> StatusCodes.GoodEntryReplaced;
            case ENTRY_EXISTS -> StatusCodes.BadEntryExists;
            case NO_ENTRY_EXISTS -> StatusCodes.BadNoEntryExists;
        };
    }
}
