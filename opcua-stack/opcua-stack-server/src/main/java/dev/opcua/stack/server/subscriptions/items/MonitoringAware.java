package dev.opcua.stack.server.subscriptions.items;

import dev.opcua.stack.core.types.builtin.NodeId;

/**
 * Optional interface of a {@link dev.opcua.stack.server.nodes.NodeManager} that wants to know which
 * of its variables are monitored, and that may report value changes itself instead of being
 * sampled (Part 4, 5.12.1.2: a sampling interval of 0 is "exception-based").
 *
 * <p>An item on the Value attribute of a node for which {@link #pushesValueChanges} answers true,
 * created with sampling interval 0, is not sampled: it gets the values the manager hands to
 * {@link DataChangeBroker#valueChanged}. Every other item is sampled with batched reads.
 *
 * <p>The callbacks run on the thread of the service call that creates, modifies, enables,
 * disables or deletes an item, once per item; they must be quick and must not block.
 */
public interface MonitoringAware {

    /** Whether the manager calls {@link DataChangeBroker#valueChanged} for every change of this node's value. */
    boolean pushesValueChanges(NodeId nodeId);

    /**
     * An item started monitoring the node's Value (created enabled, or enabled).
     *
     * @param samplingInterval the item's revised sampling interval in ms; 0 for an item fed by pushes
     */
    default void monitoringStarted(NodeId nodeId, double samplingInterval) {
    }

    /** An item stopped monitoring the node's Value (deleted, disabled, or before a new sampling interval). */
    default void monitoringStopped(NodeId nodeId, double samplingInterval) {
    }
}
