package dev.opcua.stack.server.history;

import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
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
     * Deletes what the retention no longer keeps: values older than its age (by their time, against
     * {@code nowTicks}), then, while the store is larger than its size, the oldest values; returns how
     * many were deleted. A store that cannot measure its size ignores the size and says so in its
     * documentation.
     */
    CompletableFuture<Long> trim(HistoryRetention retention, long nowTicks);

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
