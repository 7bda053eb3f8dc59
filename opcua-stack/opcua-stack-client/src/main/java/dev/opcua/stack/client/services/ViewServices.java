package dev.opcua.stack.client.services;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.structured.BrowseDescription;
import dev.opcua.stack.core.types.structured.BrowseNextRequest;
import dev.opcua.stack.core.types.structured.BrowseNextResponse;
import dev.opcua.stack.core.types.structured.BrowsePath;
import dev.opcua.stack.core.types.structured.BrowsePathResult;
import dev.opcua.stack.core.types.structured.BrowseRequest;
import dev.opcua.stack.core.types.structured.BrowseResponse;
import dev.opcua.stack.core.types.structured.BrowseResult;
import dev.opcua.stack.core.types.structured.ReferenceDescription;
import dev.opcua.stack.core.types.structured.RegisterNodesRequest;
import dev.opcua.stack.core.types.structured.RegisterNodesResponse;
import dev.opcua.stack.core.types.structured.TranslateBrowsePathsToNodeIdsRequest;
import dev.opcua.stack.core.types.structured.TranslateBrowsePathsToNodeIdsResponse;
import dev.opcua.stack.core.types.structured.UnregisterNodesRequest;
import dev.opcua.stack.core.types.structured.UnregisterNodesResponse;
import dev.opcua.stack.core.types.structured.ViewDescription;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The View Service Set (Part 4, 5.9): Browse with BrowseNext followed to the end (5.9.2, 5.9.3) or
 * page by page, TranslateBrowsePathsToNodeIds (5.9.4), RegisterNodes and UnregisterNodes (5.9.5,
 * 5.9.6); each split by the server's OperationLimits.
 *
 * <p>A continuation point the client stops following (the consumer of a page failed) is released
 * with BrowseNext(releaseContinuationPoints = true), so the server's per-session store of them
 * (MaxBrowseContinuationPoints) does not fill up. A server that keeps returning continuation points
 * without references ends the browse with BadUnexpectedError instead of looping forever.
 */
public final class ViewServices {

    /** Pages in a row without a reference after which a continuation point counts as a server fault. */
    static final int MAX_EMPTY_PAGES = 100;
    private static final ViewDescription NO_VIEW = new ViewDescription(NodeId.NULL, null, 0);

    private final ServiceInvoker services;
    private final Supplier<OperationLimits> limits;

    public ViewServices(ServiceInvoker services, Supplier<OperationLimits> limits) {
        this.services = services;
        this.limits = limits;
    }

    /**
     * Browses nodes and follows every continuation point to the end: one BrowseResult per node, in
     * order, holding all its references and no continuation point (or the Bad status a page ended with).
     *
     * @param maxReferencesPerNode requestedMaxReferencesPerNode of each request (0: the server decides)
     */
    public CompletableFuture<BrowseResult[]> browse(BrowseDescription[] nodes, long maxReferencesPerNode) {
        return Batches.split(nodes, limits.get().maxNodesPerBrowse(), BrowseResult[]::new,
                slice -> services.send(h -> new BrowseRequest(h, NO_VIEW, maxReferencesPerNode, slice),
                        BrowseResponse.class).thenCompose(r -> {
                            BrowseResult[] first = Batches.checkedResults(r.results(), slice.length, "Browse");
                            return followAll(first);
                        }), "Browse");
    }

    /** Follows the continuation points of one Browse's results together, BrowseNext by BrowseNext. */
    private CompletableFuture<BrowseResult[]> followAll(BrowseResult[] first) {
        List<List<ReferenceDescription>> refs = new ArrayList<>(first.length);
        BrowseResult[] done = new BrowseResult[first.length];
        int[] empty = new int[first.length];
        for (int i = 0; i < first.length; i++) {
            refs.add(new ArrayList<>(Arrays.asList(references(first[i]))));
        }
        return follow(first, refs, done, empty, indicesWithContinuation(first, done, refs));
    }

    private CompletableFuture<BrowseResult[]> follow(BrowseResult[] current, List<List<ReferenceDescription>> refs,
            BrowseResult[] done, int[] empty, int[] open) {
        if (open.length == 0) {
            return CompletableFuture.completedFuture(done);
        }
        ByteString[] points = new ByteString[open.length];
        for (int k = 0; k < open.length; k++) {
            points[k] = current[open[k]].continuationPoint();
        }
        return browseNext(points, false).thenCompose(page -> {
            BrowseResult[] next = current.clone();
            for (int k = 0; k < open.length; k++) {
                int i = open[k];
                ReferenceDescription[] got = page[k].references();
                empty[i] = got == null || got.length == 0 ? empty[i] + 1 : 0;
                if (got != null) {
                    refs.get(i).addAll(Arrays.asList(got));
                }
                next[i] = page[k];
                if (empty[i] > MAX_EMPTY_PAGES && hasContinuation(page[k])) {
                    releaseQuietly(page[k].continuationPoint());
                    next[i] = new BrowseResult(StatusCode.of(StatusCodes.BadUnexpectedError), ByteString.NULL, null);
                }
            }
            return follow(next, refs, done, empty, indicesWithContinuation(next, done, refs, open));
        });
    }

    /** Records the finished results; returns the indices still having a continuation point. */
    private static int[] indicesWithContinuation(BrowseResult[] results, BrowseResult[] done,
            List<List<ReferenceDescription>> refs) {
        int[] all = new int[results.length];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        return indicesWithContinuation(results, done, refs, all);
    }

    private static int[] indicesWithContinuation(BrowseResult[] results, BrowseResult[] done,
            List<List<ReferenceDescription>> refs, int[] candidates) {
        int[] open = new int[candidates.length];
        int n = 0;
        for (int i : candidates) {
            BrowseResult r = results[i];
            if (r.statusCode().isGood() && hasContinuation(r)) {
                open[n++] = i;
            } else {
                done[i] = new BrowseResult(r.statusCode(), ByteString.NULL,
                        refs.get(i).toArray(new ReferenceDescription[0]));
            }
        }
        return Arrays.copyOf(open, n);
    }

    /**
     * Browses one node page by page: {@code page} sees each page's references as they arrive, and the
     * next BrowseNext is sent only after it returns, so a huge folder never sits in memory whole.
     *
     * @return completes after the last page, or fails with the status of a Bad page or what the
     *         consumer threw (the continuation point is then released)
     */
    public CompletableFuture<Void> browseEach(BrowseDescription node, long maxReferencesPerNode,
            Consumer<ReferenceDescription[]> page) {
        return services.send(h -> new BrowseRequest(h, NO_VIEW, maxReferencesPerNode, new BrowseDescription[] {node}),
                BrowseResponse.class).thenCompose(r -> onPage(Batches.checkedResults(r.results(), 1, "Browse")[0],
                        node, page, 0));
    }

    private CompletableFuture<Void> onPage(BrowseResult result, BrowseDescription node,
            Consumer<ReferenceDescription[]> page, int emptyPages) {
        if (result.statusCode().isBad()) {
            return CompletableFuture.failedFuture(new UaException(result.statusCode(), "Browse of " + node.nodeId()
                    + " failed"));
        }
        ReferenceDescription[] refs = references(result);
        try {
            if (refs.length > 0) {
                page.accept(refs);
            }
        } catch (RuntimeException e) {
            if (hasContinuation(result)) {
                releaseQuietly(result.continuationPoint());
            }
            return CompletableFuture.failedFuture(e);
        }
        if (!hasContinuation(result)) {
            return CompletableFuture.completedFuture(null);
        }
        int empty = refs.length == 0 ? emptyPages + 1 : 0;
        if (empty > MAX_EMPTY_PAGES) {
            releaseQuietly(result.continuationPoint());
            return CompletableFuture.failedFuture(new UaException(StatusCodes.BadUnexpectedError, "Browse of "
                    + node.nodeId() + ": the server returned " + empty + " pages in a row without references"));
        }
        return browseNext(new ByteString[] {result.continuationPoint()}, false)
                .thenCompose(next -> onPage(next[0], node, page, empty));
    }

    /** BrowseNext (Part 4, 5.9.3); one result per continuation point. */
    public CompletableFuture<BrowseResult[]> browseNext(ByteString[] continuationPoints, boolean release) {
        return services.send(h -> new BrowseNextRequest(h, release, continuationPoints), BrowseNextResponse.class)
                .thenApply(r -> release && r.results() == null ? new BrowseResult[0]
                        : Batches.checkedResults(r.results(), continuationPoints.length, "BrowseNext"));
    }

    private void releaseQuietly(ByteString continuationPoint) {
        browseNext(new ByteString[] {continuationPoint}, true).exceptionally(failure -> null);
    }

    /** TranslateBrowsePathsToNodeIds; one result per path, in order. */
    public CompletableFuture<BrowsePathResult[]> translate(BrowsePath[] paths) {
        return Batches.split(paths, limits.get().maxNodesPerTranslateBrowsePaths(), BrowsePathResult[]::new,
                slice -> services.send(h -> new TranslateBrowsePathsToNodeIdsRequest(h, slice),
                        TranslateBrowsePathsToNodeIdsResponse.class)
                        .thenApply(TranslateBrowsePathsToNodeIdsResponse::results), "TranslateBrowsePathsToNodeIds");
    }

    /** RegisterNodes: the ids to use instead of {@code nodes} in later calls, in order. */
    public CompletableFuture<NodeId[]> register(NodeId[] nodes) {
        return Batches.split(nodes, limits.get().maxNodesPerRegisterNodes(), NodeId[]::new,
                slice -> services.send(h -> new RegisterNodesRequest(h, slice), RegisterNodesResponse.class)
                        .thenApply(RegisterNodesResponse::registeredNodeIds), "RegisterNodes");
    }

    /** UnregisterNodes. */
    public CompletableFuture<Void> unregister(NodeId[] nodes) {
        int limit = limits.get().maxNodesPerRegisterNodes();
        if (limit <= 0 || nodes.length <= limit) {
            return services.send(h -> new UnregisterNodesRequest(h, nodes), UnregisterNodesResponse.class)
                    .thenApply(r -> null);
        }
        List<CompletableFuture<?>> parts = new ArrayList<>();
        for (int from = 0; from < nodes.length; from += limit) {
            NodeId[] slice = Arrays.copyOfRange(nodes, from, Math.min(nodes.length, from + limit));
            parts.add(services.send(h -> new UnregisterNodesRequest(h, slice), UnregisterNodesResponse.class));
        }
        return CompletableFuture.allOf(parts.toArray(new CompletableFuture[0]));
    }

    private static boolean hasContinuation(BrowseResult r) {
        ByteString cp = r.continuationPoint();
        return cp != null && !cp.isNull() && cp.length() > 0;
    }

    private static ReferenceDescription[] references(BrowseResult r) {
        return r.references() == null ? new ReferenceDescription[0] : r.references();
    }
}
