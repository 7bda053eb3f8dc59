package dev.opcua.stack.server.nodes;

import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.structured.WriteValue;

/**
 * One item of a Write request (Part 4, 5.11.4) handed to the node manager that owns its node, which
 * completes it with the item's status.
 */
public final class WriteOperation {

    private final WriteValue item;
    private final StatusCode[] results;
    private final int index;

    WriteOperation(WriteValue item, StatusCode[] results, int index) {
        this.item = item;
        this.results = results;
        this.index = index;
    }

    /** The node, attribute, index range and value to write. */
    public WriteValue item() {
        return item;
    }

    public void complete(StatusCode result) {
        results[index] = result;
    }

    public boolean isComplete() {
        return results[index] != null;
    }
}
