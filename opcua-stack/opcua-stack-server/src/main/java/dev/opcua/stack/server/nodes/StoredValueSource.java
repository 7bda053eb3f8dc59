package dev.opcua.stack.server.nodes;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.addressspace.VariableNode;

/**
 * Samples the Value of a variable of a {@link NodeStore} by holding the node instead of looking it
 * up on every tick. The answers are those of {@link NodeStoreNodeManager}'s read: BadNotReadable
 * without the CurrentRead bit, BadNodeIdUnknown once the node is gone; a node removed and added
 * again under the same id is found again.
 */
final class StoredValueSource implements SampleSource {

    private static final DataValue UNKNOWN = DataValue.ofStatus(StatusCode.of(StatusCodes.BadNodeIdUnknown));
    private static final DataValue NOT_READABLE = DataValue.ofStatus(StatusCode.of(StatusCodes.BadNotReadable));
    private static final DataValue NOT_A_VARIABLE = DataValue.ofStatus(StatusCode.of(StatusCodes.BadAttributeIdInvalid));

    private final NodeStore store;
    private final NodeId nodeId;
    /** The node last found; only the sampling thread uses a source. */
    private UaNode node;

    StoredValueSource(NodeStore store, NodeId nodeId) {
        this.store = store;
        this.nodeId = nodeId;
        this.node = store.get(nodeId);
    }

    @Override
    public DataValue sample() {
        UaNode current = node;
        if (current == null || current.isRemoved()) {
            current = store.get(nodeId);
            node = current;
            if (current == null) {
                return UNKNOWN;
            }
        }
        if (!(current instanceof VariableNode variable)) {
            return NOT_A_VARIABLE;
        }
        if ((variable.userAccessLevel() & NodeStoreNodeManager.CURRENT_READ) == 0) {
            return NOT_READABLE;
        }
        return variable.value();
    }
}
