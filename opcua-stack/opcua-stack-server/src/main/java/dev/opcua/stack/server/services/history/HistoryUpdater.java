package dev.opcua.stack.server.services.history;

import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.structured.HistoryUpdateDetails;
import dev.opcua.stack.core.types.structured.HistoryUpdateResult;
import dev.opcua.stack.server.nodes.OperationContext;
import java.util.concurrent.CompletableFuture;

/**
 * Performs one kind of HistoryUpdateDetails (Part 11, 6.9), one class per kind, registered with {@link HistoryServices.Builder#updater}. A kind without an updater answers
 * BadHistoryOperationUnsupported. {@link HistoryServices} has checked the node (known, its AccessLevel
 * or EventNotifier HistoryWrite bit) before.
 *
 * @param <D> the kind of details
 */
public interface HistoryUpdater<D extends HistoryUpdateDetails> {

    /** The kind of details this updater performs. */
    Class<D> detailsType();

    /** The node the details update. */
    NodeId nodeId(D details);

    /** Whether it updates event history: the node is checked by its EventNotifier, not its AccessLevel. */
    default boolean updatesEvents() {
        return false;
    }

    /** Performs the update: the details' status and one status per value or event. */
    CompletableFuture<HistoryUpdateResult> update(OperationContext context, D details);
}
