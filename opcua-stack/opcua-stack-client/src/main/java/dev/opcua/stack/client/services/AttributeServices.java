package dev.opcua.stack.client.services;

import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadResponse;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.WriteRequest;
import dev.opcua.stack.core.types.structured.WriteResponse;
import dev.opcua.stack.core.types.structured.WriteValue;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The Attribute Service Set (Part 4, 5.10): Read (5.10.2) and Write (5.10.4), each split by the
 * server's MaxNodesPerRead / MaxNodesPerWrite with the results joined in request order.
 */
public final class AttributeServices {

    private final ServiceInvoker services;
    private final Supplier<OperationLimits> limits;

    public AttributeServices(ServiceInvoker services, Supplier<OperationLimits> limits) {
        this.services = services;
        this.limits = limits;
    }

    /** Reads attributes; one DataValue per {@code nodesToRead}, in order. */
    public CompletableFuture<DataValue[]> read(double maxAge, TimestampsToReturn timestamps, ReadValueId[] nodesToRead) {
        if (nodesToRead.length == 1) { // the common single read, without the splitter's lambdas
            return services.send(h -> new ReadRequest(h, maxAge, timestamps, nodesToRead), ReadResponse.class)
                    .thenApply(r -> Batches.checkedResults(r.results(), 1, "Read"));
        }
        return Batches.split(nodesToRead, limits.get().maxNodesPerRead(), DataValue[]::new,
                slice -> services.send(h -> new ReadRequest(h, maxAge, timestamps, slice), ReadResponse.class)
                        .thenApply(ReadResponse::results), "Read");
    }

    /** Writes attributes; one StatusCode per {@code nodesToWrite}, in order. */
    public CompletableFuture<StatusCode[]> write(WriteValue[] nodesToWrite) {
        return Batches.split(nodesToWrite, limits.get().maxNodesPerWrite(), StatusCode[]::new,
                slice -> services.send(h -> new WriteRequest(h, slice), WriteResponse.class)
                        .thenApply(WriteResponse::results), "Write");
    }
}
