package dev.opcua.stack.server.services.history;

import dev.opcua.stack.core.types.structured.HistoryReadDetails;
import dev.opcua.stack.core.types.structured.HistoryReadResult;
import java.util.concurrent.CompletableFuture;

/**
 * Reads history for one kind of HistoryReadDetails (Part 11, 6.5): {@link RawHistoryReader} for
 * ReadRawModifiedDetails, and one class per other kind, registered with {@link HistoryServices.Builder#reader}.
 * A kind without a reader answers BadHistoryOperationUnsupported per node.
 *
 * <p>{@link HistoryServices} has checked the request (operation limits, TimestampsToReturn) and each
 * node (known, of the right node class, its AccessLevel / EventNotifier HistoryRead bit, index range
 * and data encoding) before a reader sees it, and resolves continuation points: a reader only reads,
 * and builds its result with the operation's helpers, which apply the timestamps and index range asked
 * for and store the state of a continuation point. Called on a worker; one that waits on a database
 * returns an incomplete future.
 *
 * @param <D> the kind of details
 */
public interface HistoryReader<D extends HistoryReadDetails> {

    /** The kind of details this reader answers. */
    Class<D> detailsType();

    /**
     * Whether it reads event history (ReadEventDetails): the nodes are event notifiers checked by their
     * EventNotifier attribute, MaxNodesPerHistoryReadEvents applies and TimestampsToReturn is ignored
     * (Part 11, 6.5.2). False, the default: the nodes are variables checked by their AccessLevel.
     */
    default boolean readsEvents() {
        return false;
    }

    /** The first read of a node (no continuation point). */
    CompletableFuture<HistoryReadResult> read(HistoryReadOperation<D> operation);

    /**
     * The next part of a read this reader paused, from the state it gave {@link
     * HistoryReadOperation#result}. The operation's details are the ones of this request (Part 11, 6.3:
     * a client sends the same details again).
     */
    CompletableFuture<HistoryReadResult> resume(HistoryReadOperation<D> operation, Object state);
}
