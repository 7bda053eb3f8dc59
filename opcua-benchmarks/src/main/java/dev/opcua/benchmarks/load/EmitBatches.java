package dev.opcua.benchmarks.load;

import dev.opcua.benchmarks.server.BenchAddressSpace;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.structured.CallMethodRequest;
import dev.opcua.stack.core.types.structured.CallMethodResult;
import dev.opcua.stack.core.types.structured.CallRequest;
import dev.opcua.stack.core.types.structured.CallResponse;
import java.util.concurrent.CompletableFuture;

/**
 * The {@code events} scenario's batches: one Call (Part 4, 5.11.2) of the bench servers' {@code
 * Emit(first, count)} per batch, which reports events {@code from .. to - 1} on the Server object
 * (see {@link BenchAddressSpace}).
 */
final class EmitBatches implements Batches {

    private final LoadSession session;
    private final NodeId methods;
    private final NodeId emit;
    private final WriteSequence values;
    private final SubMetrics metrics;

    /** @param namespaceIndex the bench namespace's index */
    EmitBatches(LoadSession session, int namespaceIndex, WriteSequence values, SubMetrics metrics) {
        this.session = session;
        this.methods = NodeId.string(namespaceIndex, BenchAddressSpace.METHODS);
        this.emit = NodeId.string(namespaceIndex, BenchAddressSpace.EMIT);
        this.values = values;
        this.metrics = metrics;
    }

    @Override
    public int maxPerRequest() {
        return BenchAddressSpace.MAX_EMIT;
    }

    @Override
    public CompletableFuture<Void> send(long from, long to) {
        CallMethodRequest call = new CallMethodRequest(methods, emit,
                new Variant[] {Variant.ofInt64(from), Variant.ofInt32((int) (to - from))});
        return session.request(new CallRequest(session.header(), new CallMethodRequest[] {call}), CallResponse.class)
                .handle((response, failure) -> {
                    if (failure != null) {
                        values.failed(from, to);
                        metrics.error("Call", failure);
                        return null;
                    }
                    StatusCode result = response.responseHeader().serviceResult();
                    CallMethodResult[] results = response.results();
                    if (result.isGood()) {
                        result = results == null || results.length != 1 ? StatusCode.BAD : results[0].statusCode();
                    }
                    if (!result.isGood()) {
                        values.failed(from, to);
                        metrics.error("Call", result);
                    }
                    return null;
                });
    }
}
