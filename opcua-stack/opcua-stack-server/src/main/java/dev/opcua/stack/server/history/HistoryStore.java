package dev.opcua.stack.server.history;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.history.events.EventPage;
import dev.opcua.stack.server.history.events.EventQuery;
import dev.opcua.stack.server.history.events.EventSample;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Where the values of historized variables are kept (Part 11, 4.2 HistoricalDataNodes), behind the
 * HistoryRead and HistoryUpdate services (Part 4, 5.10) and the recording of variables.
 *
 * <p>The history of a node is a series of {@link DataValue}s ordered by their {@link HistoryTime time}:
 * the source timestamp, or the server timestamp when a value has none, in 100 ns ticks. A node holds
 * at most one value per time (Part 11, 6.3 lets a continuation point be that time), so the time is
 * the key of every operation: a read resumes after the last time it returned ({@link
 * HistoryQuery#after}), an insert at an existing time is refused, a replace needs one.
 *
 * <p>Events (Part 11, 4.3 HistoricalEventNodes) are kept per notifier, whole (every field the event carries),
 * ordered by their Time field and EventId ({@link dev.opcua.stack.server.history.events.EventKey}). A store
 * that keeps no events answers the event methods with BadHistoryOperationUnsupported (the defaults).
 *
 * <p>Every method answers with a future, so that a store backed by a database never blocks a
 * worker; a store that answers from memory completes it at once. A future fails with a {@link
 * dev.opcua.stack.core.UaException} to give the operation its status (e.g. BadHistoryOperationUnsupported
 * from a store that cannot update); any other failure answers BadInternalError. Thread-safe; owned by
 * whoever created it, which closes it after the server.
 */
public interface HistoryStore extends AutoCloseable {

    /**
     * Records values, of any nodes, in one batch: each value is stored at its time, replacing a value
     * the node already has at that time. The future completes once the values are as durable as the
     * store promises (the embedded store: written, and synced per its policy). Appends are applied in the
     * order of the calls, also when a caller does not wait for one before making the next (the recorder
     * does not); the list is not used after the call returns.
     */
    CompletableFuture<Void> append(List<HistorySample> samples);

    /**
     * The values of one node in a time range, in the query's direction, at most its limit; the page
     * says whether more values lie in the range beyond it.
     */
    CompletableFuture<HistoryPage> read(HistoryQuery query);

    /**
     * Writes values of one node with the rule of {@code mode} (Part 11, 6.9.2 insert, replace, update),
     * value by value in the order given; per value the outcome, in the same order. A value's time is
     * its {@link HistoryTime}; values are stored as given.
     */
    CompletableFuture<List<UpdateOutcome>> update(NodeId nodeId, UpdateMode mode, List<DataValue> values);

    /**
     * Deletes the values of one node with {@code startTicks <= time < endTicks}; returns how many were
     * deleted.
     */
    CompletableFuture<Long> delete(NodeId nodeId, long startTicks, long endTicks);

    /**
     * Deletes what the retention no longer keeps: values, modified values and events older than its age (by their time, against
     * {@code nowTicks}), then, while the store is larger than its size, the oldest values; returns how
     * many were deleted. A store that cannot measure its size ignores the size and says so in its
     * documentation.
     */
    CompletableFuture<Long> trim(HistoryRetention retention, long nowTicks);

    /**
     * {@link #update} that also keeps what it changed for read-modified (Part 11, 6.5.3.3): per value inserted the
     * new value (HistoryUpdateType Insert), per value replaced the old one (Replace, or Update for {@link
     * UpdateMode#UPSERT}), with {@code by}. The default keeps nothing and only updates.
     */
    default CompletableFuture<List<UpdateOutcome>> update(NodeId nodeId, UpdateMode mode, List<DataValue> values,
            HistoryModification by) {
        return update(nodeId, mode, values);
    }

    /**
     * {@link #delete} that also keeps the deleted values (HistoryUpdateType Delete) with {@code by}, for
     * read-modified. The default keeps nothing and only deletes.
     */
    default CompletableFuture<Long> delete(NodeId nodeId, long startTicks, long endTicks, HistoryModification by) {
        return delete(nodeId, startTicks, endTicks);
    }

    /**
     * The modified values of one node in the query's range and direction, by time and then sequence, at most its
     * limit, after {@code after} (the last value of a previous page) when not null. A store that keeps no modified
     * values answers BadHistoryOperationUnsupported (the default).
     */
    default CompletableFuture<ModifiedPage> readModified(HistoryQuery query, ModifiedValue after) {
        return unsupported("modified values");
    }

    /**
     * Records events, of any notifiers, in one batch; an event already kept (same notifier, Time and EventId) is
     * replaced. Durable as {@link #append} is.
     */
    default CompletableFuture<Void> appendEvents(List<EventSample> events) {
        return unsupported("event history");
    }

    /** The events of one notifier in a time range, in the query's direction, at most its limit. */
    default CompletableFuture<EventPage> readEvents(EventQuery query) {
        return unsupported("event history");
    }

    /**
     * Deletes events of one notifier by EventId (Part 11, 6.9.7 DeleteEventDetails); per id, in the order given,
     * whether an event was found and deleted.
     */
    default CompletableFuture<List<Boolean>> deleteEvents(NodeId notifier, List<ByteString> eventIds) {
        return unsupported("event history");
    }

    private static <T> CompletableFuture<T> unsupported(String what) {
        return CompletableFuture.failedFuture(new UaException(StatusCodes.BadHistoryOperationUnsupported,
                "this history store keeps no " + what));
    }

    /** The latest value of a node at or before {@code ticks} (a bounding value, Part 11, 4.6), if any. */
    default CompletableFuture<Optional<DataValue>> latestAtOrBefore(NodeId nodeId, long ticks) {
        return read(HistoryQuery.backward(nodeId, ticks, Long.MIN_VALUE, 1)).thenApply(HistoryPage::first);
    }

    /** The earliest value of a node at or after {@code ticks} (a bounding value, Part 11, 4.6), if any. */
    default CompletableFuture<Optional<DataValue>> earliestAtOrAfter(NodeId nodeId, long ticks) {
        return read(HistoryQuery.forward(nodeId, ticks, Long.MAX_VALUE, 1)).thenApply(HistoryPage::first);
    }

    /** Releases the store's resources; values acknowledged before stay durable. */
    @Override
    void close();
}
