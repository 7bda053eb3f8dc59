package dev.opcua.stack.client.services;

import dev.opcua.stack.core.types.structured.CallMethodRequest;
import dev.opcua.stack.core.types.structured.CallMethodResult;
import dev.opcua.stack.core.types.structured.CallRequest;
import dev.opcua.stack.core.types.structured.CallResponse;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/** The Method Service Set (Part 4, 5.11): Call (5.11.2), split by MaxNodesPerMethodCall, the parts in order. */
public final class MethodServices {

    private final ServiceInvoker services;
    private final Supplier<OperationLimits> limits;

    public MethodServices(ServiceInvoker services, Supplier<OperationLimits> limits) {
        this.services = services;
        this.limits = limits;
    }

    /** Calls methods; one CallMethodResult per request, in order. */
    public CompletableFuture<CallMethodResult[]> call(CallMethodRequest[] methodsToCall) {
        return Batches.splitInOrder(methodsToCall, limits.get().maxNodesPerMethodCall(), CallMethodResult[]::new,
                slice -> services.send(h -> new CallRequest(h, slice), CallResponse.class)
                        .thenApply(CallResponse::results), "Call");
    }
}
