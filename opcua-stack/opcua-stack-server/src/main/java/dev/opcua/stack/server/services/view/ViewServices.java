package dev.opcua.stack.server.services.view;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.transport.uasc.ResponseHeaders;
import dev.opcua.stack.core.transport.uasc.ServerSecureChannel;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.enumerated.BrowseDirection;
import dev.opcua.stack.core.types.enumerated.NodeClass;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.BrowseDescription;
import dev.opcua.stack.core.types.structured.BrowseNextRequest;
import dev.opcua.stack.core.types.structured.BrowseNextResponse;
import dev.opcua.stack.core.types.structured.BrowseRequest;
import dev.opcua.stack.core.types.structured.BrowseResponse;
import dev.opcua.stack.core.types.structured.BrowseResult;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.ReferenceDescription;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.nodes.BrowseOperation;
import dev.opcua.stack.server.nodes.NodeManagers;
import dev.opcua.stack.server.nodes.OperationContext;
import dev.opcua.stack.server.services.RequestGuard;
import dev.opcua.stack.server.session.Session;
import dev.opcua.stack.server.services.ServiceDispatcher;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Browse and BrowseNext (Part 4, 5.8.2 and 5.8.3). The node managers give each node's references;
 * this service filters them by direction, reference type (with subtypes, from the
 * {@link ReferenceTypeTree}) and node class, and describes the targets with one batched Read of
 * their NodeClass, BrowseName and DisplayName and one batched lookup of their type definitions,
 * whatever the number of nodes browsed.
 *
 * <p>Request faults: no nodes BadNothingToDo, over MaxNodesPerBrowse BadTooManyOperations, a view
 * BadViewIdUnknown (views are not supported). Per node: BadBrowseDirectionInvalid,
 * BadReferenceTypeIdInvalid, BadNodeIdUnknown; more references than requestedMaxReferencesPerNode
 * leave a continuation point, or BadNoContinuationPoints when none is free (counted in
 * {@link #continuationPointsRefused()}). Each session has its own MaxBrowseContinuationPoints (Part 4,
 * 5.8.2 and 7.9), so a session that hoards its points refuses only itself, and a BrowseNext finds only
 * its own session's points; {@link #ownerClosed} drops a closed session's points.
 */
public final class ViewServices {

    private static final int MASK_REFERENCE_TYPE = 0x01;
    private static final int MASK_IS_FORWARD = 0x02;
    private static final int MASK_NODE_CLASS = 0x04;
    private static final int MASK_BROWSE_NAME = 0x08;
    private static final int MASK_DISPLAY_NAME = 0x10;
    private static final int MASK_TYPE_DEFINITION = 0x20;
    private static final NodeId HAS_TYPE_DEFINITION = NodeId.ns0(NodeIds.HasTypeDefinition);

    /** The owner of every continuation point when requests are not resolved to sessions. */
    private static final Object SHARED = new Object();

    private final NodeManagers managers;
    private final RequestGuard guard;
    private final ReferenceTypeTree referenceTypes;
    private final int maxContinuationPoints;
    private final Map<Object, ContinuationPoints> continuationPoints = new ConcurrentHashMap<>();
    private final LongAdder continuationPointsRefused = new LongAdder();
    private final int maxNodesPerBrowse;

    /**
     * @param guard check run before each request, e.g. that it has an activated session; the session it
     *        returns owns the request's continuation points (all share one set when it returns null)
     * @param maxContinuationPoints MaxBrowseContinuationPoints, per session
     * @param maxNodesPerBrowse operation limit, 0 for none
     */
    public ViewServices(NodeManagers managers, RequestGuard guard, ReferenceTypeTree referenceTypes,
            int maxContinuationPoints, int maxNodesPerBrowse) {
        this.managers = managers;
        this.guard = guard;
        this.referenceTypes = referenceTypes;
        this.maxContinuationPoints = maxContinuationPoints;
        this.maxNodesPerBrowse = maxNodesPerBrowse;
    }

    /** Forgets the continuation points of an owner that is gone, e.g. a closed session. */
    public void ownerClosed(Object owner) {
        continuationPoints.remove(owner);
    }

    /** Browse results answered BadNoContinuationPoints since the start: continuation-point hoarding. */
    public long continuationPointsRefused() {
        return continuationPointsRefused.sum();
    }

    private ContinuationPoints pointsOf(Object owner) {
        return continuationPoints.computeIfAbsent(owner, o -> new ContinuationPoints(maxContinuationPoints));
    }

    public ServiceDispatcher.Builder registerWith(ServiceDispatcher.Builder dispatcher) {
        return dispatcher.register(BrowseRequest.class, this::browse).registerSync(BrowseNextRequest.class,
                this::browseNext);
    }

    public CompletableFuture<BrowseResponse> browse(ServerSecureChannel channel, BrowseRequest request) {
        Session session = guard.check(channel, request.requestHeader());
        Object owner = session == null ? SHARED : session;
        BrowseDescription[] descriptions = request.nodesToBrowse();
        int count = descriptions == null ? 0 : descriptions.length;
        if (count == 0) {
            throw new UaException(StatusCodes.BadNothingToDo, "the request has no nodes to browse");
        }
        if (maxNodesPerBrowse > 0 && count > maxNodesPerBrowse) {
            throw new UaException(StatusCodes.BadTooManyOperations,
                    "the request browses " + count + " nodes, the server allows " + maxNodesPerBrowse);
        }
        if (request.view() != null && request.view().viewId() != null && !request.view().viewId().isNull()) {
            throw new UaException(StatusCodes.BadViewIdUnknown, "views are not supported: " + request.view().viewId());
        }
        OperationContext context = new OperationContext(channel, session);
        NodeId[] nodes = new NodeId[count];
        for (int i = 0; i < count; i++) {
            nodes[i] = descriptions[i].nodeId();
        }
        int max = (int) Math.min(Integer.MAX_VALUE, request.requestedMaxReferencesPerNode());
        long handle = request.requestHeader().requestHandle();
        return managers.references(context, nodes)
                .thenCompose(operations -> describe(context, descriptions, operations))
                .thenApply(described -> {
                    BrowseResult[] results = new BrowseResult[count];
                    for (int i = 0; i < count; i++) {
                        results[i] = described[i] instanceof StatusCode
                                ? new BrowseResult((StatusCode) described[i], null, null)
                                : page(owner, (ReferenceDescription[]) described[i], max);
                    }
                    return new BrowseResponse(ResponseHeaders.good(handle), results, null);
                });
    }

    public BrowseNextResponse browseNext(ServerSecureChannel channel, BrowseNextRequest request) {
        Session session = guard.check(channel, request.requestHeader());
        Object owner = session == null ? SHARED : session;
        ContinuationPoints ownPoints = pointsOf(owner);
        ByteString[] points = request.continuationPoints();
        if (points == null || points.length == 0) {
            throw new UaException(StatusCodes.BadNothingToDo, "the request has no continuation points");
        }
        BrowseResult[] results = new BrowseResult[points.length];
        for (int i = 0; i < points.length; i++) {
            ContinuationPoints.Remaining remaining = ownPoints.take(points[i]);
            if (remaining == null) {
                results[i] = new BrowseResult(StatusCode.of(StatusCodes.BadContinuationPointInvalid), null, null);
            } else if (request.releaseContinuationPoints()) {
                results[i] = new BrowseResult(StatusCode.GOOD, null, new ReferenceDescription[0]);
            } else {
                results[i] = page(owner, remaining.references(), remaining.maxPerResponse());
            }
        }
        return new BrowseNextResponse(ResponseHeaders.good(request.requestHeader().requestHandle()), results, null);
    }

    /** The first {@code max} references, and a continuation point for the rest (0 = no limit). */
    private BrowseResult page(Object owner, ReferenceDescription[] references, int max) {
        if (max <= 0 || references.length <= max) {
            return new BrowseResult(StatusCode.GOOD, null, references);
        }
        ByteString point = pointsOf(owner).store(new ContinuationPoints.Remaining(
                Arrays.copyOfRange(references, max, references.length), max));
        if (point == null) {
            continuationPointsRefused.increment();
            return new BrowseResult(StatusCode.of(StatusCodes.BadNoContinuationPoints), null, null);
        }
        return new BrowseResult(StatusCode.GOOD, point, Arrays.copyOf(references, max));
    }

    /** Per browsed node: a StatusCode, or the ReferenceDescription[] of its matching references. */
    private CompletableFuture<Object[]> describe(OperationContext context, BrowseDescription[] descriptions,
            BrowseOperation[] operations) {
        int count = descriptions.length;
        Object[] outcome = new Object[count];
        List<List<UaReference>> matches = new ArrayList<>(count);
        Map<NodeId, Integer> targets = new LinkedHashMap<>();
        boolean typeDefinitions = false;
        for (int i = 0; i < count; i++) {
            BrowseDescription d = descriptions[i];
            List<UaReference> selected = new ArrayList<>();
            matches.add(selected);
            int status = check(d, operations[i]);
            if (status != StatusCodes.Good) {
                outcome[i] = StatusCode.of(status);
                continue;
            }
            for (UaReference r : operations[i].references()) {
                if (matchesDirection(d.browseDirection(), r) && matchesType(d, r)) {
                    selected.add(r);
                    if (r.targetId().isLocal()) {
                        targets.putIfAbsent(r.targetId().nodeId(), targets.size());
                    }
                }
            }
            typeDefinitions |= (d.resultMask() & MASK_TYPE_DEFINITION) != 0;
        }
        NodeId[] targetIds = targets.keySet().toArray(new NodeId[0]);
        ReadValueId[] reads = new ReadValueId[targetIds.length * 3];
        for (int t = 0; t < targetIds.length; t++) {
            reads[3 * t] = new ReadValueId(targetIds[t], AttributeIds.NodeClass, null, QualifiedName.NULL);
            reads[3 * t + 1] = new ReadValueId(targetIds[t], AttributeIds.BrowseName, null, QualifiedName.NULL);
            reads[3 * t + 2] = new ReadValueId(targetIds[t], AttributeIds.DisplayName, null, QualifiedName.NULL);
        }
        CompletableFuture<DataValue[]> attributes = reads.length == 0
                ? CompletableFuture.completedFuture(new DataValue[0])
                : managers.read(context, reads, 0, TimestampsToReturn.Neither);
        boolean wantTypes = typeDefinitions;
        return attributes.thenCompose(values -> typeDefinitions(context, targetIds, values, wantTypes)
                .thenApply(types -> {
                    for (int i = 0; i < count; i++) {
                        if (outcome[i] == null) {
                            outcome[i] = references(descriptions[i], matches.get(i), targets, values, types);
                        }
                    }
                    return outcome;
                }));
    }

    private int check(BrowseDescription d, BrowseOperation operation) {
        if (d.browseDirection() == null || d.browseDirection() == BrowseDirection.Invalid) {
            return StatusCodes.BadBrowseDirectionInvalid;
        }
        NodeId type = d.referenceTypeId();
        if (type != null && !type.isNull() && !referenceTypes.isReferenceType(type)) {
            return StatusCodes.BadReferenceTypeIdInvalid;
        }
        return operation.status();
    }

    private static boolean matchesDirection(BrowseDirection direction, UaReference r) {
        return direction == BrowseDirection.Both || (direction == BrowseDirection.Forward) == r.forward();
    }

    private boolean matchesType(BrowseDescription d, UaReference r) {
        NodeId type = d.referenceTypeId();
        return type == null || type.isNull() || referenceTypes.matches(r.referenceTypeId(), type, d.includeSubtypes());
    }

    /** The type definition of each Object or Variable target, by one batched references lookup. */
    private CompletableFuture<Map<NodeId, ExpandedNodeId>> typeDefinitions(OperationContext context,
            NodeId[] targets, DataValue[] values, boolean wanted) {
        List<NodeId> typed = new ArrayList<>();
        if (wanted) {
            for (int t = 0; t < targets.length; t++) {
                NodeClass nodeClass = nodeClass(values[3 * t]);
                if (nodeClass == NodeClass.Object || nodeClass == NodeClass.Variable) {
                    typed.add(targets[t]);
                }
            }
        }
        if (typed.isEmpty()) {
            return CompletableFuture.completedFuture(Map.of());
        }
        return managers.references(context, typed.toArray(new NodeId[0])).thenApply(operations -> {
            Map<NodeId, ExpandedNodeId> types = new HashMap<>();
            for (BrowseOperation op : operations) {
                if (op.references() != null) {
                    for (UaReference r : op.references()) {
                        if (r.forward() && r.referenceTypeId().equals(HAS_TYPE_DEFINITION)) {
                            types.put(op.nodeId(), r.targetId());
                            break;
                        }
                    }
                }
            }
            return types;
        });
    }

    private static NodeClass nodeClass(DataValue value) {
        Object v = value.value().value();
        NodeClass nodeClass = v instanceof Integer ? NodeClass.fromValue((Integer) v) : null;
        return nodeClass == null ? NodeClass.Unspecified : nodeClass;
    }

    private static ReferenceDescription[] references(BrowseDescription d, List<UaReference> selected,
            Map<NodeId, Integer> targets, DataValue[] values, Map<NodeId, ExpandedNodeId> types) {
        long mask = d.resultMask();
        long classMask = d.nodeClassMask();
        List<ReferenceDescription> out = new ArrayList<>(selected.size());
        for (UaReference r : selected) {
            Integer t = r.targetId().isLocal() ? targets.get(r.targetId().nodeId()) : null;
            NodeClass nodeClass = t == null ? NodeClass.Unspecified : nodeClass(values[3 * t]);
            if (classMask != 0 && (classMask & nodeClass.value()) == 0) {
                continue;
            }
            QualifiedName browseName = t == null ? QualifiedName.NULL : value(values[3 * t + 1], QualifiedName.NULL);
            LocalizedText displayName = t == null ? LocalizedText.NULL : value(values[3 * t + 2], LocalizedText.NULL);
            ExpandedNodeId type = t == null ? null : types.get(r.targetId().nodeId());
            out.add(new ReferenceDescription(
                    (mask & MASK_REFERENCE_TYPE) != 0 ? r.referenceTypeId() : NodeId.NULL,
                    (mask & MASK_IS_FORWARD) != 0 && r.forward(),
                    r.targetId(),
                    (mask & MASK_BROWSE_NAME) != 0 ? browseName : QualifiedName.NULL,
                    (mask & MASK_DISPLAY_NAME) != 0 ? displayName : LocalizedText.NULL,
                    (mask & MASK_NODE_CLASS) != 0 ? nodeClass : NodeClass.Unspecified,
                    (mask & MASK_TYPE_DEFINITION) != 0 && type != null ? type : ExpandedNodeId.NULL));
        }
        return out.toArray(new ReferenceDescription[0]);
    }

    @SuppressWarnings("unchecked")
    private static <T> T value(DataValue value, T fallback) {
        Object v = value.value().value();
        return v != null && fallback.getClass().isInstance(v) ? (T) v : fallback;
    }
}
