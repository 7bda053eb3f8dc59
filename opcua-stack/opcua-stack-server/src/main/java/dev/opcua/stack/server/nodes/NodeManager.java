package dev.opcua.stack.server.nodes;

import dev.opcua.stack.core.types.structured.ReadValueId;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Owns the nodes of one or more namespaces and answers the operations on them (DESIGN.md section 4).
 *
 * <p>Operations arrive in batches: a Read of 100 nodes of this manager is one {@link #read} call.
 * The methods return a future so that a manager backed by a device or a database never blocks a
 * worker thread; a manager that answers at once implements {@link SyncNodeManager} instead. Every
 * operation of a batch must be completed before the future completes; one left without a result is
 * answered BadInternalError.
 */
public interface NodeManager {

    /** URIs of the namespaces this manager owns; their indexes are given in {@link #startup}. */
    List<String> namespaceUris();

    /** Called once when the server starts, with the namespace table that holds this manager's URIs. */
    default void startup(NamespaceTable namespaces) {
    }

    /** Called once when the server stops. */
    default void shutdown() {
    }

    /**
     * Whether {@link #read} and {@link #write} always finish before they return and never wait: no
     * I/O, no lock held for long, no call into code that might (a supplier or handler of the
     * application's counts, unless it promises the same). While every registered manager says so,
     * the server may run a small Read or Write on the event loop that received it when no request
     * waits for a worker ({@code requests.inline-when-idle}), which saves two thread hand-offs; a
     * manager that may block keeps this default, false, and its requests always run on workers.
     * Asked once, when the manager is registered.
     */
    default boolean isNonBlocking() {
        return false;
    }

    CompletableFuture<Void> read(OperationContext context, List<ReadOperation> operations);

    /**
     * A direct source for sampling this attribute (Part 4, 5.12.1.2), asked once when a monitored
     * item starts being sampled: the sampler then asks the source on every tick instead of calling
     * {@link #read}, which for values held in memory saves the lookup and the batch per sample. The
     * default, null, samples the item through {@link #read}; so should a manager whose values live
     * in a device or need a check per session.
     *
     * @param item the monitored attribute (node, attribute, index range, data encoding)
     * @return the source, or null to be sampled through {@link #read}
     */
    default SampleSource sampleSource(ReadValueId item) {
        return null;
    }

    CompletableFuture<Void> write(OperationContext context, List<WriteOperation> operations);

    /**
     * Gives the references of the nodes asked for. A manager that offers no browsing keeps this
     * default, which answers BadNotSupported.
     */
    default CompletableFuture<Void> browse(OperationContext context, List<BrowseOperation> operations) {
        operations.forEach(op -> op.fail(dev.opcua.stack.core.ids.StatusCodes.BadNotSupported));
        return CompletableFuture.completedFuture(null);
    }

    /**
     * Describes targets of references for Browse (Part 4, 5.8.2, the ReferenceDescription): the NodeClass,
     * BrowseName and DisplayName of each node of this manager asked for and, where wanted, the
     * TypeDefinition of an Object or Variable. The default asks this manager's own {@link #read}
     * and {@link #browse}, one batch each; a manager whose nodes are in memory answers directly.
     * An operation left unanswered describes an unknown node.
     */
    default CompletableFuture<Void> describe(OperationContext context, List<DescribeOperation> operations) {
        return TargetDescriptions.describe(this, context, operations);
    }

    /**
     * Calls methods on objects of this manager (Part 4, 5.11.2). A manager without methods keeps this
     * default, which reads the NodeClass of each object through {@link #read} and answers as Part 4,
     * Table 67 says: BadNodeIdUnknown for an object that does not exist, BadNodeIdInvalid for a node
     * that is not an Object or ObjectType, BadMethodInvalid otherwise (no method belongs to it).
     */
    default CompletableFuture<Void> call(OperationContext context, List<CallOperation> operations) {
        return MethodlessCalls.answer(context, operations, this::read);
    }
}
