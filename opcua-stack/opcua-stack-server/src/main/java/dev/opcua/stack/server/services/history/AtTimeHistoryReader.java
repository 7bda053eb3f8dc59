package dev.opcua.stack.server.services.history;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.structured.HistoryReadResult;
import dev.opcua.stack.core.types.structured.ReadAtTimeDetails;
import dev.opcua.stack.server.history.HistoryStore;
import dev.opcua.stack.server.history.aggregate.AggregateConfiguration;
import dev.opcua.stack.server.history.aggregate.AtTimeInterpolation;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * Reads history at given times (Part 11, 6.5.5 ReadAtTimeDetails) with {@link AtTimeInterpolation}: per requested
 * time, in the requested order, the stored value at that time or one interpolated from its neighbours (simple
 * bounds when useSimpleBounds, else interpolated bounds; stepped or sloped as the node's history is), Bad_NoData
 * before the first value. A missing (MinValue) time: BadInvalidTimestampArgument; no times: GoodNoData. At most
 * MaxReturnDataValues times per response, the rest by continuation point, whose state is the next time's index.
 */
public final class AtTimeHistoryReader implements HistoryReader<ReadAtTimeDetails> {

    private final HistoryStore store;
    private final AggregateConfiguration config;
    private final Predicate<NodeId> stepped;

    /** Over {@code store}, with {@link AggregateConfiguration#DEFAULT} and every history sloped. */
    public AtTimeHistoryReader(HistoryStore store) {
        this(store, AggregateConfiguration.DEFAULT, node -> false);
    }

    /**
     * @param config the server's aggregate configuration: which statuses count as Bad when looking for bounds
     * @param stepped whether a node's history is stepped (HistoricalDataConfiguration Stepped, Part 11, 5.2.2)
     */
    public AtTimeHistoryReader(HistoryStore store, AggregateConfiguration config, Predicate<NodeId> stepped) {
        this.store = Objects.requireNonNull(store, "store");
        this.config = Objects.requireNonNull(config, "config");
        this.stepped = Objects.requireNonNull(stepped, "stepped");
    }

    @Override
    public Class<ReadAtTimeDetails> detailsType() {
        return ReadAtTimeDetails.class;
    }

    @Override
    public CompletableFuture<HistoryReadResult> read(HistoryReadOperation<ReadAtTimeDetails> operation) {
        DateTime[] times = operation.details().reqTimes();
        if (times != null) {
            for (DateTime time : times) {
                if (time == null || time.isNull()) {
                    return CompletableFuture.completedFuture(
                            HistoryReadOperation.failed(StatusCodes.BadInvalidTimestampArgument));
                }
            }
        }
        return page(operation, 0);
    }

    @Override
    public CompletableFuture<HistoryReadResult> resume(HistoryReadOperation<ReadAtTimeDetails> operation,
            Object state) {
        return page(operation, (Integer) state);
    }

    private CompletableFuture<HistoryReadResult> page(HistoryReadOperation<ReadAtTimeDetails> operation, int next) {
        DateTime[] times = operation.details().reqTimes();
        int total = times == null ? 0 : times.length;
        int end = (int) Math.min(total, (long) next + operation.maxReturnDataValues());
        NodeId node = operation.nodeId();
        boolean simple = operation.details().useSimpleBounds();
        boolean steppedNode = stepped.test(node);
        List<CompletableFuture<DataValue>> values = new ArrayList<>(end - next);
        for (int i = next; i < end; i++) {
            DateTime time = times[i];
            long t = time.utcTicks();
            values.add(RawWindow.around(store, node, t, t + 1).thenApply(raw ->
                    AtTimeInterpolation.valuesAt(raw, List.of(time), simple, steppedNode, config).get(0)));
        }
        return CompletableFuture.allOf(values.toArray(new CompletableFuture[0])).thenApply(ignored -> {
            List<DataValue> out = new ArrayList<>(values.size());
            values.forEach(value -> out.add(value.join()));
            return operation.result(out, end < total ? Integer.valueOf(end) : null);
        });
    }
}
