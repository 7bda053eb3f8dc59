package dev.opcua.stack.client.services;

import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadResponse;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.core.types.structured.WriteRequest;
import dev.opcua.stack.core.types.structured.WriteResponse;
import dev.opcua.stack.core.types.structured.WriteValue;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.RandomAccess;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The Attribute Service Set (Part 4, 5.10): Read (5.10.2) and Write (5.10.4, its parts sent in order), each split by the
 * server's MaxNodesPerRead / MaxNodesPerWrite with the results joined in request order.
 */
public final class AttributeServices {

    private final ServiceInvoker services;
    private final Supplier<OperationLimits> limits;

    public AttributeServices(ServiceInvoker services, Supplier<OperationLimits> limits) {
        this.services = services;
        this.limits = limits;
    }

    /**
     * Reads attributes; one DataValue per {@code nodesToRead}, in order, in an unmodifiable list. A Read
     * within the server's MaxNodesPerRead takes its list from the response where it completes, without
     * dependent futures.
     */
    public CompletableFuture<List<DataValue>> read(double maxAge, TimestampsToReturn timestamps,
            ReadValueId[] nodesToRead) {
        int limit = limits.get().maxNodesPerRead();
        if (limit <= 0 || nodesToRead.length <= limit) {
            return services.sendCall(new ReadCall(maxAge, timestamps, nodesToRead), ReadResponse.class);
        }
        return Batches.split(nodesToRead, limit, DataValue[]::new,
                slice -> services.send(h -> new ReadRequest(h, maxAge, timestamps, slice), ReadResponse.class)
                        .thenApply(ReadResponse::results), "Read")
                .thenApply(results -> Collections.unmodifiableList(Arrays.asList(results)));
    }

    /**
     * A Read in one request: builds the request when it is sent, takes the results from the response
     * (checked: one per operation) and is itself the list of them the caller gets, so that the call
     * costs one object, not a request lambda, a mapping lambda and an {@code Arrays.asList} view.
     */
    private static final class ReadCall extends AbstractList<DataValue>
            implements ServiceInvoker.Call<ReadResponse, List<DataValue>>, RandomAccess {

        private final double maxAge;
        private final TimestampsToReturn timestamps;
        private final ReadValueId[] nodesToRead;
        private DataValue[] results; // set before the future completes with this list

        ReadCall(double maxAge, TimestampsToReturn timestamps, ReadValueId[] nodesToRead) {
            this.maxAge = maxAge;
            this.timestamps = timestamps;
            this.nodesToRead = nodesToRead;
        }

        @Override
        public ReadRequest request(RequestHeader header) {
            return new ReadRequest(header, maxAge, timestamps, nodesToRead);
        }

        @Override
        public List<DataValue> apply(ReadResponse response) {
            results = Batches.checkedResults(response.results(), nodesToRead.length, "Read");
            return this;
        }

        @Override
        public DataValue get(int index) {
            return results[index];
        }

        @Override
        public int size() {
            return results.length;
        }
    }

    /**
     * Reads one attribute with maxAge 0 and both timestamps: the most common call, kept to one
     * request object and one lambda; the result is taken from the response where it completes.
     */
    public CompletableFuture<DataValue> readOne(ReadValueId nodeToRead) {
        ReadValueId[] one = {nodeToRead};
        return services.send(h -> new ReadRequest(h, 0, TimestampsToReturn.Both, one), ReadResponse.class,
                AttributeServices::onlyResult);
    }

    private static DataValue onlyResult(ReadResponse response) {
        return Batches.checkedResults(response.results(), 1, "Read")[0];
    }

    /** Writes attributes; one StatusCode per {@code nodesToWrite}, in order. */
    public CompletableFuture<StatusCode[]> write(WriteValue[] nodesToWrite) {
        return Batches.splitInOrder(nodesToWrite, limits.get().maxNodesPerWrite(), StatusCode[]::new,
                slice -> services.send(h -> new WriteRequest(h, slice), WriteResponse.class)
                        .thenApply(WriteResponse::results), "Write");
    }
}
