package dev.opcua.benchmarks.load;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.structured.WriteRequest;
import dev.opcua.stack.core.types.structured.WriteResponse;
import dev.opcua.stack.core.types.structured.WriteValue;
import java.util.concurrent.CompletableFuture;

/**
 * The {@code sub} scenario's batches: one Write request (Part 4, 5.11.4) per batch, value {@code w}
 * written as the Double {@code w} to the variable of its slot.
 */
final class WriteBatches implements Batches {

    private static final int VALUES_PER_WRITE = 1000;

    private final LoadSession session;
    private final NodeId[] nodes;
    private final WriteSequence values;
    private final SubMetrics metrics;

    /** @param nodes per slot of {@code values}, the variable its values go to */
    WriteBatches(LoadSession session, NodeId[] nodes, WriteSequence values, SubMetrics metrics) {
        if (nodes.length != values.slots()) {
            throw new IllegalArgumentException(nodes.length + " nodes for " + values.slots() + " slots");
        }
        this.session = session;
        this.nodes = nodes;
        this.values = values;
        this.metrics = metrics;
    }

    @Override
    public int maxPerRequest() {
        return VALUES_PER_WRITE;
    }

    @Override
    public CompletableFuture<Void> send(long from, long to) {
        WriteValue[] batch = new WriteValue[(int) (to - from)];
        for (long w = from; w < to; w++) {
            batch[(int) (w - from)] = new WriteValue(nodes[values.slotOf(w)], AttributeIds.Value, null,
                    DataValue.of(Variant.ofDouble(w)));
        }
        return session.request(new WriteRequest(session.header(), batch), WriteResponse.class)
                .handle((response, failure) -> {
                    if (failure != null) {
                        values.failed(from, to);
                        metrics.error("Write", failure);
                        return null;
                    }
                    StatusCode result = response.responseHeader().serviceResult();
                    if (!result.isGood()) {
                        values.failed(from, to);
                        metrics.error("Write", result);
                        return null;
                    }
                    StatusCode[] results = response.results();
                    for (long w = from; w < to; w++) {
                        int i = (int) (w - from);
                        StatusCode status = results == null || i >= results.length ? StatusCode.BAD : results[i];
                        if (!status.isGood()) {
                            values.failed(w, w + 1);
                            metrics.error("Write", status);
                        }
                    }
                    return null;
                });
    }
}
