package dev.opcua.stack.pubsub.runtime;

import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Writes received fields into variables (Part 14, 6.2.10.2: the subscriber's TargetVariables), normally the
 * server's address space ({@code AddressSpaceDataSets}).
 */
@FunctionalInterface
public interface FieldTargetWriter {

    /** Refuses every write: for an application without an address space. */
    FieldTargetWriter NONE = (targets, values) -> CompletableFuture.failedFuture(
            new IllegalStateException("this PubSub service has no address space to write field targets into"));

    /** Writes each value into its target; the results in the same order. */
    CompletableFuture<StatusCode[]> write(List<NodeId> targets, List<DataValue> values);
}
