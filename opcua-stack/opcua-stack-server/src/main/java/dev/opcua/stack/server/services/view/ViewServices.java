package dev.opcua.stack.server.services.view;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.server.transport.uasc.ResponseHeaders;
import dev.opcua.stack.server.transport.uasc.ServerSecureChannel;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.enumerated.BrowseDirection;
import dev.opcua.stack.core.types.enumerated.NodeClass;
import dev.opcua.stack.core.types.structured.BrowseDescription;
import dev.opcua.stack.core.types.structured.BrowseNextRequest;
import dev.opcua.stack.core.types.structured.BrowseNextResponse;
import dev.opcua.stack.core.types.structured.BrowseRequest;
import dev.opcua.stack.core.types.structured.BrowseResponse;
import dev.opcua.stack.core.types.structured.BrowseResult;
import dev.opcua.stack.core.types.structured.ReferenceDescription;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.nodes.BrowseOperation;
import dev.opcua.stack.server.nodes.DescribeOperation;
import dev.opcua.stack.server.nodes.NodeManagers;
import dev.opcua.stack.server.nodes.OperationContext;
import dev.opcua.stack.server.services.RequestGuard;
import dev.opcua.stack.server.session.Session;
import dev.opcua.stack.server.services.ServiceDispatcher;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Browse and BrowseNext (Part 4, 5.8.2 and 5.8.3). The node managers give each node's references;
 * this service filters them by direction, reference type (with subtypes, from the
 * {@link ReferenceTypeTree}) and node class, and has the targets described (NodeClass, BrowseName,
 * DisplayName, TypeDefinition) by {@link NodeManagers#describe}, one call per node manager whatever
 * the number of nodes browsed; a result mask and node class mask that need none of it describe nothing.
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

    /**
     * Per browsed node: a StatusCode, or the ReferenceDescription[] of its matching references. The
     * targets of all nodes are described together, one call per node manager; a target reached twice
     * is described twice, which costs less than finding it again in a map.
     */
    private CompletableFuture<Object[]> describe(OperationContext context, BrowseDescription[] descriptions,
            BrowseOperation[] operations) {
        int count = descriptions.length;
        Object[] outcome = new Object[count];
        UaReference[][] matches = new UaReference[count][];
        DescribeOperation[][] described = new DescribeOperation[count][];
        List<DescribeOperation> targets = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            BrowseDescription d = descriptions[i];
            int status = check(d, operations[i]);
            if (status != StatusCodes.Good) {
                outcome[i] = StatusCode.of(status);
                continue;
            }
            UaReference[] references = operations[i].references() == null ? new UaReference[0]
                    : operations[i].references();
            UaReference[] selected = new UaReference[references.length];
            int n = 0;
            NodeId lastType = null; // a node's references mostly share a type: match each type once in a row
            boolean lastMatched = false;
            for (UaReference r : references) {
                if (!matchesDirection(d.browseDirection(), r)) {
                    continue;
                }
                if (!r.referenceTypeId().equals(lastType)) {
                    lastType = r.referenceTypeId();
                    lastMatched = matchesType(d, r);
                }
                if (lastMatched) {
                    selected[n++] = r;
                }
            }
            matches[i] = n == selected.length ? selected : Arrays.copyOf(selected, n);
            if (needsTargets(d)) {
                boolean typeDefinitions = (d.resultMask() & MASK_TYPE_DEFINITION) != 0;
                DescribeOperation[] own = new DescribeOperation[n];
                for (int k = 0; k < n; k++) {
                    ExpandedNodeId target = matches[i][k].targetId();
                    if (target.isLocal()) {
                        own[k] = new DescribeOperation(target.nodeId(), typeDefinitions);
                        targets.add(own[k]);
                    }
                }
                described[i] = own;
            }
        }
        return managers.describe(context, targets.toArray(new DescribeOperation[0])).thenApply(done -> {
            for (int i = 0; i < count; i++) {
                if (outcome[i] == null) {
                    outcome[i] = references(descriptions[i], matches[i], described[i]);
                }
            }
            return outcome;
        });
    }

    /** Whether the result needs anything of the targets beyond the references themselves. */
    private static boolean needsTargets(BrowseDescription d) {
        return d.nodeClassMask() != 0
                || (d.resultMask() & (MASK_NODE_CLASS | MASK_BROWSE_NAME | MASK_DISPLAY_NAME | MASK_TYPE_DEFINITION)) != 0;
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

    /**
     * The ReferenceDescriptions of the selected references (Part 4, 5.8.2): the fields the resultMask
     * asks for, targets whose NodeClass the nodeClassMask excludes left out; a target not described
     * (on another server, or unknown here) has the Unspecified NodeClass and null names.
     */
    private static ReferenceDescription[] references(BrowseDescription d, UaReference[] selected,
            DescribeOperation[] targets) {
        long mask = d.resultMask();
        long classMask = d.nodeClassMask();
        ReferenceDescription[] out = new ReferenceDescription[selected.length];
        int n = 0;
        for (int k = 0; k < selected.length; k++) {
            UaReference r = selected[k];
            DescribeOperation t = targets == null ? null : targets[k];
            NodeClass nodeClass = t == null ? NodeClass.Unspecified : t.nodeClass();
            if (classMask != 0 && (classMask & nodeClass.value()) == 0) {
                continue;
            }
            ExpandedNodeId type = t == null ? null : t.typeDefinition();
            out[n++] = new ReferenceDescription(
                    (mask & MASK_REFERENCE_TYPE) != 0 ? r.referenceTypeId() : NodeId.NULL,
                    (mask & MASK_IS_FORWARD) != 0 && r.forward(),
                    r.targetId(),
                    (mask & MASK_BROWSE_NAME) != 0 && t != null ? t.browseName() : QualifiedName.NULL,
                    (mask & MASK_DISPLAY_NAME) != 0 && t != null ? t.displayName() : LocalizedText.NULL,
                    (mask & MASK_NODE_CLASS) != 0 ? nodeClass : NodeClass.Unspecified,
                    (mask & MASK_TYPE_DEFINITION) != 0 && type != null ? type : ExpandedNodeId.NULL);
        }
        return n == out.length ? out : Arrays.copyOf(out, n);
    }
}
