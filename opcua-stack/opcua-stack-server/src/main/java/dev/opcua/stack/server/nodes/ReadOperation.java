package dev.opcua.stack.server.nodes;

import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ReadValueId;

/**
 * One item of a Read request (Part 4, 5.11.2) handed to the node manager that owns its node. The
 * manager completes it with {@link #complete}; items are passed in batches, one call per manager
 * per request.
 */
public final class ReadOperation {

    // One per item of a request, so only what differs per item: the request's items, maxAge,
    // timestamps and results are shared (24 bytes an item, not 40).
    private final Request request;
    private final int index;

    /** What the items of one Read share. */
    static final class Request {

        private final ReadValueId[] items;
        private final double maxAge;
        private final TimestampsToReturn timestampsToReturn;
        private final DataValue[] results;

        /** @param results as long as {@code items}; item i's result goes to index i */
        Request(ReadValueId[] items, double maxAge, TimestampsToReturn timestampsToReturn, DataValue[] results) {
            this.items = items;
            this.maxAge = maxAge;
            this.timestampsToReturn = timestampsToReturn;
            this.results = results;
        }

        ReadOperation operation(int index) {
            return new ReadOperation(this, index);
        }
    }

    private ReadOperation(Request request, int index) {
        this.request = request;
        this.index = index;
    }

    /** The node, attribute, index range and data encoding to read. */
    public ReadValueId item() {
        return request.items[index];
    }

    /** Oldest acceptable cached value in ms (0: read the source, Part 4, 5.11.2). */
    public double maxAge() {
        return request.maxAge;
    }

    public TimestampsToReturn timestampsToReturn() {
        return request.timestampsToReturn;
    }

    /** Sets the result of this item. */
    public void complete(DataValue result) {
        request.results[index] = result;
    }

    /** Whether a result is set. */
    public boolean isComplete() {
        return request.results[index] != null;
    }
}
