package dev.opcua.stack.client.services;

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
import java.util.concurrent.CompletableFuture;
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
        return Batches.splitInOrder(items, limit(), AddNodesResult[]::new,
                slice -> services.send(h -> new AddNodesRequest(h, slice), AddNodesResponse.class)
                        .thenApply(AddNodesResponse::results), "AddNodes");
    }

    /** AddReferences (Part 4, 5.7.3). */
    public CompletableFuture<StatusCode[]> addReferences(AddReferencesItem[] items) {
        return Batches.splitInOrder(items, limit(), StatusCode[]::new,
                slice -> services.send(h -> new AddReferencesRequest(h, slice), AddReferencesResponse.class)
                        .thenApply(AddReferencesResponse::results), "AddReferences");
    }

    /** DeleteNodes (Part 4, 5.7.4). */
    public CompletableFuture<StatusCode[]> deleteNodes(DeleteNodesItem[] items) {
        return Batches.splitInOrder(items, limit(), StatusCode[]::new,
                slice -> services.send(h -> new DeleteNodesRequest(h, slice), DeleteNodesResponse.class)
                        .thenApply(DeleteNodesResponse::results), "DeleteNodes");
    }

    /** DeleteReferences (Part 4, 5.7.5). */
    public CompletableFuture<StatusCode[]> deleteReferences(DeleteReferencesItem[] items) {
        return Batches.splitInOrder(items, limit(), StatusCode[]::new,
                slice -> services.send(h -> new DeleteReferencesRequest(h, slice), DeleteReferencesResponse.class)
                        .thenApply(DeleteReferencesResponse::results), "DeleteReferences");
    }

    private int limit() {
        return limits.get().maxNodesPerNodeManagement();
    }
}
