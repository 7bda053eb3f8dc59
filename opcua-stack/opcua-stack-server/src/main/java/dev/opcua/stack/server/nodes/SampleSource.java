package dev.opcua.stack.server.nodes;

import dev.opcua.stack.core.types.builtin.DataValue;

/**
 * The current value of one monitored attribute, asked directly by the sampler on each tick of the
 * item's sampling interval instead of a batched {@link NodeManager#read} (DESIGN.md section 5).
 * A manager offers one through {@link NodeManager#sampleSource} for attributes it holds in memory.
 *
 * <p>Contract: called on the sampling thread, one call at a time per source; returns at once,
 * never blocks and never throws. The answer is what a Read of the attribute with
 * TimestampsToReturn Source would give (value, status, source timestamp; a bad status for an
 * unreadable or vanished node); the sampler sets the server timestamp to the time of the tick. A
 * source should return the same {@link DataValue} instance for as long as the value has not
 * changed: the sampler then recognises an unchanged value by identity, without comparing it.
 */
@FunctionalInterface
public interface SampleSource {

    /** The attribute's current value; never null. */
    DataValue sample();
}
