package dev.opcua.stack.server.nodes;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.CallMethodRequest;
import dev.opcua.stack.core.types.structured.CallMethodResult;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.WriteValue;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.addressspace.UaReference;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.IntConsumer;
import java.util.function.IntFunction;

/**
 * The node managers of a server, found by the namespace index of a NodeId, and the routing of
 * batched operations to them: a request's items are grouped so that each manager gets one call
 * per request, and the results are put back in request order.
 *
 * <p>Managers are registered before the server starts; lookups read an array and take no lock.
 */
public final class NodeManagers {

    private final NamespaceTable namespaces;
    private final List<NodeManager> managers = new ArrayList<>();
    private volatile NodeManager[] byNamespace = new NodeManager[0];
    /** Whether every registered manager is {@link NodeManager#isNonBlocking() non-blocking}: true while none is. */
    private volatile boolean allNonBlocking = true;

    public NodeManagers(NamespaceTable namespaces) {
        this.namespaces = namespaces;
    }

    public NamespaceTable namespaces() {
        return namespaces;
    }

    /**
     * Registers a manager for its namespaces.
     *
     * @throws IllegalArgumentException naming the URI when another manager owns one of them
     */
    public synchronized void register(NodeManager manager) {
        NodeManager[] table = byNamespace;
        for (String uri : manager.namespaceUris()) {
            int index = namespaces.register(uri);
            if (index >= table.length) {
                table = Arrays.copyOf(table, index + 1);
            }
            if (table[index] != null && table[index] != manager) {
                throw new IllegalArgumentException("namespace " + uri + " is owned by " + table[index] + " already");
            }
            table[index] = manager;
        }
        byNamespace = table;
        managers.add(manager);
        allNonBlocking &= manager.isNonBlocking();
    }

    /**
     * Whether every registered manager's read and write return at once without waiting, so that a
     * Read or Write may run on an event loop ({@link NodeManager#isNonBlocking()}); one lock-free
     * read of a flag that {@link #register} keeps.
     */
    public boolean allNonBlocking() {
        return allNonBlocking;
    }

    /**
     * Makes every reference between in-memory nodes browsable from both ends: for each reference a
     * {@link NodeStoreNodeManager}'s node holds to a node of another such manager, the target gets
     * the reverse reference (an application node that says "organized by Objects" shows up when
     * the Objects folder is browsed). Called once the managers are registered. The reverse references of one
     * target are added in one call: a type definition that a million variables point to gets them with one copy
     * of its reference array, not one copy per variable.
     */
    public synchronized void linkReverseReferences() {
        Map<UaNode, List<UaReference>> reverse = new IdentityHashMap<>();
        for (NodeManager manager : managers) {
            if (!(manager instanceof NodeStoreNodeManager)) {
                continue;
            }
            for (UaNode node : ((NodeStoreNodeManager) manager).store().nodes()) {
                for (UaReference reference : node.references()) {
                    if (!reference.targetId().isLocal()) {
                        continue;
                    }
                    NodeId target = reference.targetId().nodeId();
                    NodeManager owner = managerOf(target);
                    if (owner != manager && owner instanceof NodeStoreNodeManager) {
                        UaNode targetNode = ((NodeStoreNodeManager) owner).store().get(target);
                        if (targetNode != null) {
                            reverse.computeIfAbsent(targetNode, k -> new ArrayList<>())
                                    .add(reference.reversed(node.nodeId()));
                        }
                    }
                }
            }
        }
        reverse.forEach((node, references) -> node.addReferences(references.toArray(new UaReference[0])));
    }

    /** The registered managers, in registration order. */
    public synchronized List<NodeManager> managers() {
        return List.copyOf(managers);
    }

    /** Calls {@link NodeManager#startup} of every manager, in registration order. */
    public synchronized void startup() {
        for (NodeManager m : managers) {
            m.startup(namespaces);
        }
    }

    /** Calls {@link NodeManager#shutdown} of every manager, in reverse order. */
    public synchronized void shutdown() {
        for (int i = managers.size() - 1; i >= 0; i--) {
            managers.get(i).shutdown();
        }
    }

    /** The manager of a node's namespace, or null. */
    public NodeManager managerOf(NodeId nodeId) {
        NodeManager[] table = byNamespace;
        int ns = nodeId == null ? -1 : nodeId.namespaceIndex();
        return ns >= 0 && ns < table.length ? table[ns] : null;
    }

    /**
     * Reads the items (Part 4, 5.11.2): one call per manager; an item of an unknown namespace reads
     * BadNodeIdUnknown, one its manager leaves unanswered or fails reads BadInternalError.
     */
    public CompletableFuture<DataValue[]> read(OperationContext context, ReadValueId[] items, double maxAge,
            TimestampsToReturn timestampsToReturn) {
        DataValue[] results = new DataValue[items.length];
        return readInto(context, items, maxAge, timestampsToReturn, results).thenApply(ignored -> results);
    }

    /**
     * {@link #read} into the caller's array (as long as {@code items}): the future completes when every
     * result is set, and is the same completed instance whenever the managers answered before returning,
     * so that the Read service allocates no future of its own for the usual request.
     */
    public CompletableFuture<Void> readInto(OperationContext context, ReadValueId[] items, double maxAge,
            TimestampsToReturn timestampsToReturn, DataValue[] results) {
        ReadOperation.Request request = new ReadOperation.Request(items, maxAge, timestampsToReturn, results);
        NodeManager sole = soleManager(items, ReadValueId::nodeId);
        if (sole != null) { // the usual request: no grouping, no lambdas, and done at once from a synchronous manager
            List<ReadOperation> batch;
            if (items.length == 1) { // the most common request: a one-element list, no array
                batch = List.of(request.operation(0));
            } else {
                ReadOperation[] operations = new ReadOperation[items.length];
                for (int i = 0; i < items.length; i++) {
                    operations[i] = request.operation(i);
                }
                batch = Arrays.asList(operations);
            }
            CompletableFuture<?> call = invoke(sole, context, batch, NodeManager::read);
            if (call.isDone()) {
                unansweredRead(results);
                return CompletedCalls.DONE;
            }
            return call.handle((ignored, failure) -> {
                unansweredRead(results);
                return null;
            });
        }
        return route(items.length, i -> items[i].nodeId(), request::operation,
                i -> results[i] = DataValue.ofStatus(StatusCode.of(StatusCodes.BadNodeIdUnknown)),
                context, NodeManager::read)
                .handle((ignored, failure) -> {
                    unansweredRead(results);
                    return null;
                });
    }

    /** Fills the results a manager left unanswered (or failed) with BadInternalError. */
    private static DataValue[] unansweredRead(DataValue[] results) {
        for (int i = 0; i < results.length; i++) {
            if (results[i] == null) {
                results[i] = DataValue.ofStatus(StatusCode.of(StatusCodes.BadInternalError));
            }
        }
        return results;
    }

    /**
     * Writes the items (Part 4, 5.11.4): one call per manager; an item of an unknown namespace gets
     * BadNodeIdUnknown, one its manager leaves unanswered or fails BadInternalError.
     */
    public CompletableFuture<StatusCode[]> write(OperationContext context, WriteValue[] items) {
        StatusCode[] results = new StatusCode[items.length];
        NodeManager sole = soleManager(items, WriteValue::nodeId);
        if (sole != null) { // as in read: the usual request goes to one manager
            List<WriteOperation> batch;
            if (items.length == 1) {
                batch = List.of(new WriteOperation(items[0], results, 0));
            } else {
                WriteOperation[] operations = new WriteOperation[items.length];
                for (int i = 0; i < items.length; i++) {
                    operations[i] = new WriteOperation(items[i], results, i);
                }
                batch = Arrays.asList(operations);
            }
            CompletableFuture<?> call = invoke(sole, context, batch, NodeManager::write);
            if (call.isDone()) {
                return CompletableFuture.completedFuture(unansweredWrite(results));
            }
            return call.handle((ignored, failure) -> unansweredWrite(results));
        }
        return route(items.length, i -> items[i].nodeId(), i -> new WriteOperation(items[i], results, i),
                i -> results[i] = StatusCode.of(StatusCodes.BadNodeIdUnknown), context, NodeManager::write)
                .handle((ignored, failure) -> unansweredWrite(results));
    }

    /** Fills the results a manager left unanswered (or failed) with BadInternalError. */
    private static StatusCode[] unansweredWrite(StatusCode[] results) {
        for (int i = 0; i < results.length; i++) {
            if (results[i] == null) {
                results[i] = StatusCode.of(StatusCodes.BadInternalError);
            }
        }
        return results;
    }

    /**
     * The manager of every item's node when it is one and the same (the usual request), else null (items of
     * several managers, or of an unknown namespace): then the request is grouped by {@link #route}.
     */
    private <T> NodeManager soleManager(T[] items, Function<T, NodeId> nodeOf) {
        if (items.length == 0) {
            return null;
        }
        NodeManager first = managerOf(nodeOf.apply(items[0]));
        if (first == null) {
            return null;
        }
        for (int i = 1; i < items.length; i++) {
            if (managerOf(nodeOf.apply(items[i])) != first) {
                return null;
            }
        }
        return first;
    }

    /**
     * The references of each node, one call per manager; a node of an unknown namespace gets
     * BadNodeIdUnknown, one its manager leaves unanswered or fails BadInternalError.
     */
    public CompletableFuture<BrowseOperation[]> references(OperationContext context, NodeId[] nodes) {
        BrowseOperation[] operations = new BrowseOperation[nodes.length];
        for (int i = 0; i < nodes.length; i++) {
            operations[i] = new BrowseOperation(nodes[i]);
        }
        return route(nodes.length, i -> nodes[i], i -> operations[i],
                i -> operations[i].fail(StatusCodes.BadNodeIdUnknown), context, NodeManager::browse)
                .handle((ignored, failure) -> operations);
    }

    /**
     * Describes the targets of references for Browse, one call per manager; a target of an unknown
     * namespace, or one its manager leaves unanswered or fails, stays described as an unknown node.
     */
    public CompletableFuture<Void> describe(OperationContext context, DescribeOperation[] targets) {
        if (targets.length == 0) {
            return CompletedCalls.DONE;
        }
        CompletableFuture<Void> calls = route(targets.length, i -> targets[i].nodeId(), i -> targets[i], i -> { },
                context, NodeManager::describe);
        return calls.isDone() ? CompletedCalls.DONE : calls.handle((ignored, failure) -> null);
    }

    /**
     * Calls the methods (Part 4, 5.12.2), routed by the manager of each call's object, which owns
     * the context of the call (a method of namespace 0 such as a standard one may be called on an
     * application object): one call per manager; a call on an object of an unknown namespace gets
     * BadNodeIdUnknown, one its manager leaves unanswered or fails BadInternalError.
     */
    public CompletableFuture<CallMethodResult[]> call(OperationContext context, CallMethodRequest[] items) {
        CallOperation[] operations = new CallOperation[items.length];
        for (int i = 0; i < items.length; i++) {
            operations[i] = new CallOperation(items[i]);
        }
        return route(items.length, i -> items[i].objectId(), i -> operations[i],
                i -> operations[i].fail(StatusCodes.BadNodeIdUnknown), context, NodeManager::call)
                .handle((ignored, failure) -> {
                    CallMethodResult[] results = new CallMethodResult[operations.length];
                    for (int i = 0; i < operations.length; i++) {
                        results[i] = operations[i].result();
                    }
                    return results;
                });
    }

    /**
     * Groups the operations of a request by the manager of their node and calls each manager once
     * with its batch; an operation whose node has no manager is answered by {@code unknown}.
     * Completes when every manager has answered (failures included: callers fill what is missing).
     */
    private <O> CompletableFuture<Void> route(int count, IntFunction<NodeId> nodeOf, IntFunction<O> operationOf,
            IntConsumer unknown, OperationContext context, ManagerCall<O> call) {
        Map<NodeManager, List<O>> batches = new IdentityHashMap<>();
        for (int i = 0; i < count; i++) {
            NodeManager manager = managerOf(nodeOf.apply(i));
            if (manager == null) {
                unknown.accept(i);
            } else {
                List<O> batch = batches.get(manager);
                if (batch == null) {
                    // sized for the rest of the request: the usual request (or sampling tick) has one manager,
                    // whose list then never grows
                    batch = new ArrayList<>(count - i);
                    batches.put(manager, batch);
                }
                batch.add(operationOf.apply(i));
            }
        }
        CompletableFuture<?>[] calls = new CompletableFuture<?>[batches.size()];
        int n = 0;
        for (Map.Entry<NodeManager, List<O>> batch : batches.entrySet()) {
            calls[n++] = invoke(batch.getKey(), context, batch.getValue(), call);
        }
        return CompletableFuture.allOf(calls);
    }

    /** One of a manager's batch calls, e.g. {@code NodeManager::read}: a method reference that captures nothing. */
    @FunctionalInterface
    private interface ManagerCall<O> {
        CompletableFuture<Void> apply(NodeManager manager, OperationContext context, List<O> batch);
    }

    /**
     * Runs a manager call; a manager that throws instead of failing its future counts as failed, one that
     * returns no future as done.
     */
    private static <O> CompletableFuture<?> invoke(NodeManager manager, OperationContext context, List<O> batch,
            ManagerCall<O> call) {
        try {
            CompletableFuture<Void> future = call.apply(manager, context, batch);
            return future == null ? CompletedCalls.DONE : future;
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }
}
