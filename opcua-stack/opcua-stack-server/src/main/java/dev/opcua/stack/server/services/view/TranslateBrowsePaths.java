package dev.opcua.stack.server.services.view;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.server.transport.uasc.ResponseHeaders;
import dev.opcua.stack.server.transport.uasc.ServerSecureChannel;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.BrowsePath;
import dev.opcua.stack.core.types.structured.BrowsePathResult;
import dev.opcua.stack.core.types.structured.BrowsePathTarget;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.RelativePathElement;
import dev.opcua.stack.core.types.structured.TranslateBrowsePathsToNodeIdsRequest;
import dev.opcua.stack.core.types.structured.TranslateBrowsePathsToNodeIdsResponse;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.nodes.BrowseOperation;
import dev.opcua.stack.server.nodes.NodeManagers;
import dev.opcua.stack.server.nodes.OperationContext;
import dev.opcua.stack.server.services.OperationLimits;
import dev.opcua.stack.server.services.RequestGuard;
import dev.opcua.stack.server.session.Session;
import dev.opcua.stack.server.services.ServiceDispatcher;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;

/**
 * TranslateBrowsePathsToNodeIds (Part 4, 5.8.4). All paths of a request advance together, one
 * element per step: a step asks the node managers once for the references of every node the paths
 * have reached, and reads the BrowseName of every candidate target in one batched Read, so a
 * request costs two manager calls per path element whatever the number of paths.
 *
 * <p>Request faults: no paths BadNothingToDo, more than MaxNodesPerTranslateBrowsePathsToNodeIds
 * BadTooManyOperations. Per path: a null starting node BadNodeIdInvalid, an unknown one
 * BadNodeIdUnknown, no elements BadNothingToDo, an empty targetName on an element other than the
 * last BadBrowseNameInvalid (the last may be empty: then every target of its references matches),
 * no target BadNoMatch, more elements than {@code maxPathElements} BadQueryTooComplex (Part 4, 5.9.4.4:
 * "requires too many resources in the Server"; each element costs two node-manager calls, so a deep
 * path from a hostile client is refused before it is walked, and counted in {@link #pathsRefused()}).
 * A reference to another server cannot have its BrowseName checked: its target
 * is returned with the index of the element still to process, and a path that reached only such
 * targets is UncertainReferenceOutOfServer. Complete targets carry remainingPathIndex UInt32 max.
 */
public final class TranslateBrowsePaths {

    /** remainingPathIndex of a target that completed the whole path (the maximum of Index, UInt32). */
    public static final long COMPLETE = 0xFFFF_FFFFL;

    /** Default bound on the elements of one RelativePath. */
    public static final int DEFAULT_MAX_PATH_ELEMENTS = 64;

    private final NodeManagers managers;
    private final RequestGuard guard;
    private final ReferenceTypeTree referenceTypes;
    private final int maxPaths;
    private final int maxPathElements;
    private final LongAdder pathsRefused = new LongAdder();

    /**
     * @param guard check run before each request, e.g. that it has an activated session
     * @param maxNodesPerTranslateBrowsePathsToNodeIds operation limit, 0 for none
     */
    public TranslateBrowsePaths(NodeManagers managers, RequestGuard guard, ReferenceTypeTree referenceTypes,
            int maxNodesPerTranslateBrowsePathsToNodeIds) {
        this(managers, guard, referenceTypes, maxNodesPerTranslateBrowsePathsToNodeIds, DEFAULT_MAX_PATH_ELEMENTS);
    }

    /**
     * @param maxPathElements most elements of one RelativePath; a longer one is BadQueryTooComplex
     */
    public TranslateBrowsePaths(NodeManagers managers, RequestGuard guard, ReferenceTypeTree referenceTypes,
            int maxNodesPerTranslateBrowsePathsToNodeIds, int maxPathElements) {
        if (maxPathElements < 1) {
            throw new IllegalArgumentException("maxPathElements must be at least 1, was " + maxPathElements);
        }
        this.managers = managers;
        this.guard = guard;
        this.referenceTypes = referenceTypes;
        this.maxPaths = maxNodesPerTranslateBrowsePathsToNodeIds;
        this.maxPathElements = maxPathElements;
    }

    /** Most elements of one RelativePath. */
    public int maxPathElements() {
        return maxPathElements;
    }

    /** Browse paths answered BadQueryTooComplex for having more than maxPathElements elements. */
    public long pathsRefused() {
        return pathsRefused.sum();
    }

    /** Registers TranslateBrowsePathsToNodeIds with a dispatcher. */
    public ServiceDispatcher.Builder registerWith(ServiceDispatcher.Builder dispatcher) {
        return dispatcher.register(TranslateBrowsePathsToNodeIdsRequest.class, this::translate);
    }

    public CompletableFuture<TranslateBrowsePathsToNodeIdsResponse> translate(ServerSecureChannel channel,
            TranslateBrowsePathsToNodeIdsRequest request) {
        Session session = guard.check(channel, request.requestHeader());
        BrowsePath[] paths = request.browsePaths();
        OperationLimits.check(paths == null ? 0 : paths.length, maxPaths, "browse paths");
        Walk[] walks = new Walk[paths.length];
        for (int i = 0; i < paths.length; i++) {
            walks[i] = new Walk(paths[i], maxPathElements);
            if (walks[i].status == StatusCodes.BadQueryTooComplex) {
                pathsRefused.increment();
            }
        }
        long handle = request.requestHeader().requestHandle();
        return step(new OperationContext(channel, session), walks, 0).thenApply(ignored -> {
            BrowsePathResult[] results = new BrowsePathResult[walks.length];
            for (int i = 0; i < walks.length; i++) {
                results[i] = walks[i].result();
            }
            return new TranslateBrowsePathsToNodeIdsResponse(ResponseHeaders.good(handle), results, null);
        });
    }

    /** Advances every walk still going by element {@code k}, then the next element. */
    private CompletableFuture<Void> step(OperationContext context, Walk[] walks, int k) {
        List<Walk> active = new ArrayList<>();
        Map<NodeId, Integer> nodes = new LinkedHashMap<>();
        for (Walk w : walks) {
            if (w.goingAt(k)) {
                active.add(w);
                for (NodeId n : w.current) {
                    nodes.putIfAbsent(n, nodes.size());
                }
            }
        }
        if (active.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        return managers.references(context, nodes.keySet().toArray(new NodeId[0]))
                .thenCompose(operations -> {
                    Map<NodeId, Integer> candidates = new LinkedHashMap<>();
                    List<Set<NodeId>> reached = new ArrayList<>(active.size());
                    for (Walk w : active) {
                        reached.add(follow(w, k, nodes, operations, candidates));
                    }
                    return browseNames(context, candidates).thenApply(names -> {
                        for (int a = 0; a < active.size(); a++) {
                            active.get(a).select(k, reached.get(a), candidates, names);
                        }
                        return null;
                    });
                })
                .thenCompose(ignored -> step(context, walks, k + 1));
    }

    /** The local targets of element {@code k} from the walk's nodes; remote targets are kept aside. */
    private Set<NodeId> follow(Walk w, int k, Map<NodeId, Integer> nodes, BrowseOperation[] operations,
            Map<NodeId, Integer> candidates) {
        RelativePathElement e = w.elements[k];
        NodeId type = e.referenceTypeId();
        boolean anyType = type == null || type.isNull();
        Set<NodeId> targets = new LinkedHashSet<>();
        for (NodeId n : w.current) {
            BrowseOperation op = operations[nodes.get(n)];
            if (op.status() != StatusCodes.Good) {
                if (k == 0) {
                    w.status = op.status(); // the starting node itself is unknown
                }
                continue;
            }
            for (UaReference r : op.references()) {
                if (r.forward() == e.isInverse()
                        || !(anyType || referenceTypes.matches(r.referenceTypeId(), type, e.includeSubtypes()))) {
                    continue;
                }
                if (r.targetId().isLocal()) {
                    targets.add(r.targetId().nodeId());
                    if (!isEmpty(e.targetName())) {
                        candidates.putIfAbsent(r.targetId().nodeId(), candidates.size());
                    }
                } else {
                    w.remote.add(new BrowsePathTarget(r.targetId(), k));
                }
            }
        }
        return targets;
    }

    private CompletableFuture<DataValue[]> browseNames(OperationContext context, Map<NodeId, Integer> candidates) {
        if (candidates.isEmpty()) {
            return CompletableFuture.completedFuture(new DataValue[0]);
        }
        ReadValueId[] reads = new ReadValueId[candidates.size()];
        for (Map.Entry<NodeId, Integer> c : candidates.entrySet()) {
            reads[c.getValue()] = new ReadValueId(c.getKey(), AttributeIds.BrowseName, null, QualifiedName.NULL);
        }
        return managers.read(context, reads, 0, TimestampsToReturn.Neither);
    }

    private static boolean isEmpty(QualifiedName name) {
        return name == null || name.name() == null || name.name().isEmpty();
    }

    /** One path on its way: the nodes reached so far, the remote targets met, and its status. */
    private static final class Walk {
        final RelativePathElement[] elements;
        final List<BrowsePathTarget> remote = new ArrayList<>();
        Set<NodeId> current = Set.of();
        int status = StatusCodes.Good;
        boolean done;

        Walk(BrowsePath path, int maxElements) {
            RelativePathElement[] all = path.relativePath() == null || path.relativePath().elements() == null
                    ? new RelativePathElement[0] : path.relativePath().elements();
            NodeId start = path.startingNode();
            elements = all.length > maxElements ? new RelativePathElement[0] : all;
            if (start == null || start.isNull()) {
                status = StatusCodes.BadNodeIdInvalid;
            } else if (all.length > maxElements) {
                status = StatusCodes.BadQueryTooComplex; // not walked: elements is empty
            } else if (elements.length == 0) {
                status = StatusCodes.BadNothingToDo;
            } else {
                for (int i = 0; i < elements.length - 1; i++) {
                    if (isEmpty(elements[i].targetName())) {
                        status = StatusCodes.BadBrowseNameInvalid;
                    }
                }
                current = Set.of(start);
            }
        }

        boolean goingAt(int k) {
            return status == StatusCodes.Good && !done && k < elements.length && !current.isEmpty();
        }

        void select(int k, Set<NodeId> reached, Map<NodeId, Integer> candidates, DataValue[] names) {
            QualifiedName wanted = elements[k].targetName();
            Set<NodeId> next = new LinkedHashSet<>();
            for (NodeId n : reached) {
                if (isEmpty(wanted) || wanted.equals(names[candidates.get(n)].value().value())) {
                    next.add(n);
                }
            }
            current = next;
            done = k == elements.length - 1;
        }

        BrowsePathResult result() {
            if (status != StatusCodes.Good) {
                return new BrowsePathResult(StatusCode.of(status), new BrowsePathTarget[0]);
            }
            List<BrowsePathTarget> targets = new ArrayList<>();
            if (done) {
                for (NodeId n : current) {
                    targets.add(new BrowsePathTarget(ExpandedNodeId.of(n), COMPLETE));
                }
            }
            boolean complete = !targets.isEmpty();
            targets.addAll(remote);
            int outcome = complete ? StatusCodes.Good
                    : targets.isEmpty() ? StatusCodes.BadNoMatch : StatusCodes.UncertainReferenceOutOfServer;
            return new BrowsePathResult(StatusCode.of(outcome), targets.toArray(new BrowsePathTarget[0]));
        }
    }
}
