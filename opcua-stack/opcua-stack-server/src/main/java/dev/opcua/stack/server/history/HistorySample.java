package dev.opcua.stack.server.history;

import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import java.util.Objects;

/**
 * One value of one node to record, stored at its {@link HistoryTime}.
 *
 * @param nodeId the historized variable
 * @param value the value with its status and timestamps; needs a source or server timestamp
 */
public record HistorySample(NodeId nodeId, DataValue value) {

    public HistorySample {
        Objects.requireNonNull(nodeId, "nodeId");
        Objects.requireNonNull(value, "value");
        HistoryTime.ticksOf(value); // refuses a value without any timestamp now, not in the store
    }
}
