package dev.opcua.stack.server.namespace0;

import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.addressspace.VariableNode;
import java.util.function.Supplier;

/** Puts value sources on namespace-0 variables; a missing variable means ns0.bin is out of date. */
final class ValueSources {

    private final NodeStore store;
    private final DateTime sourceTime = DateTime.now();

    ValueSources(NodeStore store) {
        this.store = store;
    }

    void put(int id, Supplier<Variant> value) {
        UaNode node = store.get(NodeId.ns0(id));
        if (!(node instanceof VariableNode)) {
            throw new IllegalStateException("namespace 0 lacks variable i=" + id + ": regenerate ns0.bin");
        }
        DateTime time = sourceTime;
        ((VariableNode) node).setValueSource(() -> DataValue.of(value.get(), StatusCode.GOOD, time, null));
    }
}
