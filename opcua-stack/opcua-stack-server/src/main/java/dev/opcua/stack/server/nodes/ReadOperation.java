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

    private final ReadValueId item;
    private final double maxAge;
    private final TimestampsToReturn timestampsToReturn;
    private final DataValue[] results;
    private final int index;

    ReadOperation(ReadValueId item, double maxAge, TimestampsToReturn timestampsToReturn, DataValue[] results,
            int index) {
        this.item = item;
        this.maxAge = maxAge;
        this.timestampsToReturn = timestampsToReturn;
        this.results = results;
        this.index = index;
    }

    /** The node, attribute, index range and data encoding to read. */
    public ReadValueId item() {
        return item;
    }

    /** Oldest acceptable cached value in ms (0: read the source, Part 4, 5.11.2). */
    public double maxAge() {
        return maxAge;
    }

    public TimestampsToReturn timestampsToReturn() {
        return timestampsToReturn;
    }

    /** Sets the result of this item. */
    public void complete(DataValue result) {
        results[index] = result;
    }

    /** Whether a result is set. */
    public boolean isComplete() {
        return results[index] != null;
    }
}
