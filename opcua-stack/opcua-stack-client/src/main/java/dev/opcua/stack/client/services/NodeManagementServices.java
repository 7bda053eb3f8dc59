package dev.opcua.stack.client.services;

import dev.opcua.stack.core.types.UaRequestMessage;
import dev.opcua.stack.core.types.UaResponseMessage;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.structured.AddNodesItem;
import dev.opcua.stack.core.types.structured.AddNodesRequest;
import dev.opcua.stack.core.types.structured.AddNodesResponse;
import dev.opcua.stack.core.types.structured.AddNodesResult;
import dev.opcua.stack.core.types.structured.AddReferencesItem;
import dev.opcua.stack.core.types.structured.AddReferencesRequest;
import dev.opcua.stack.core.types.structured.AddReferencesResponse;
import dev.opcua.stack.core.types.structured.DeleteNodesItem;
import dev.opcua.stack.core.types.structured.DeleteNodesRequest;
import dev.opcua.stack.core.types.structured.DeleteNodesResponse;
import dev.opcua.stack.core.types.structured.DeleteReferencesItem;
import dev.opcua.stack.core.types.structured.DeleteReferencesRequest;
import dev.opcua.stack.core.types.structured.DeleteReferencesResponse;
import dev.opcua.stack.core.types.structured.RequestHeader;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * The NodeManagement Service Set (Part 4, 5.7): AddNodes, AddReferences, DeleteNodes and DeleteReferences,
 * split by MaxNodesPerNodeManagement and sent one request after the other, so the changes happen in the
 * order of the items; one result per item, in order.
 */
public final class NodeManagementServices {

    private final ServiceInvoker services;
    private final Supplier<OperationLimits> limits;

    public NodeManagementServices(ServiceInvoker services, Supplier<OperationLimits> limits) {
        this.services = services;
        this.limits = limits;
    }

    /** AddNodes (Part 4, 5.7.2). */
    public CompletableFuture<AddNodesResult[]> addNodes(AddNodesItem[] items) {
        return send("AddNodes", items, AddNodesResult[]::new, AddNodesRequest::new, AddNodesResponse.class,
                AddNodesResponse::results);
    }

    /** AddReferences (Part 4, 5.7.3). */
    public CompletableFuture<StatusCode[]> addReferences(AddReferencesItem[] items) {
        return send("AddReferences", items, StatusCode[]::new, AddReferencesRequest::new, AddReferencesResponse.class,
                AddReferencesResponse::results);
    }

    /** DeleteNodes (Part 4, 5.7.4). */
    public CompletableFuture<StatusCode[]> deleteNodes(DeleteNodesItem[] items) {
        return send("DeleteNodes", items, StatusCode[]::new, DeleteNodesRequest::new, DeleteNodesResponse.class,
                DeleteNodesResponse::results);
    }

    /** DeleteReferences (Part 4, 5.7.5). */
    public CompletableFuture<StatusCode[]> deleteReferences(DeleteReferencesItem[] items) {
        return send("DeleteReferences", items, StatusCode[]::new, DeleteReferencesRequest::new,
                DeleteReferencesResponse.class, DeleteReferencesResponse::results);
    }

    /** Sends the items in requests of at most MaxNodesPerNodeManagement, one after the other. */
    private <I, R, S extends UaResponseMessage> CompletableFuture<R[]> send(String service, I[] items,
            IntFunction<R[]> newArray, BiFunction<RequestHeader, I[], ? extends UaRequestMessage> request,
            Class<S> responseType, Function<S, R[]> results) {
        return Batches.splitInOrder(items, limits.get().maxNodesPerNodeManagement(), newArray,
                slice -> services.send(h -> request.apply(h, slice), responseType).thenApply(results), service);
    }
}
