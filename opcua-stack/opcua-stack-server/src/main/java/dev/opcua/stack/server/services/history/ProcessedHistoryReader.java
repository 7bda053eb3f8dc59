package dev.opcua.stack.server.services.history;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.HistoryReadResult;
import dev.opcua.stack.core.types.structured.ReadProcessedDetails;
import dev.opcua.stack.server.history.HistoryStore;
import dev.opcua.stack.server.history.aggregate.AggregateCalculator;
import dev.opcua.stack.server.history.aggregate.AggregateConfiguration;
import dev.opcua.stack.server.history.aggregate.AggregateFunction;
import dev.opcua.stack.server.history.aggregate.AggregateInterval;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * Reads processed history (Part 11, 6.5.4 ReadProcessedDetails): the aggregate named for each node computed per
 * processing interval by {@link AggregateCalculator} from the raw values of a {@link HistoryStore}.
 *
 * <ul>
 *   <li>aggregateType pairs with nodesToRead by position; another count of entries: BadAggregateListMismatch on
 *       every node. An aggregate the server does not compute ({@link AggregateFunction}): BadAggregateNotSupported.</li>
 *   <li>startTime or endTime missing: BadInvalidTimestampArgument; equal: BadInvalidArgument (no interval can be
 *       formed); startTime after endTime reads backwards, intervals cut from startTime (Part 13, 5.4.2.2). A
 *       negative or not-a-number processingInterval: BadInvalidArgument; 0: one interval over the range.</li>
 *   <li>TimestampsToReturn Server: BadTimestampsToReturnInvalid (Part 13, 5.4.3.1: aggregates carry source
 *       timestamps only); Source and Both return the source timestamp.</li>
 *   <li>aggregateConfiguration with useServerCapabilitiesDefaults uses the server's configuration; otherwise the
 *       client's, where percentages over 100 or PercentDataGood below 100 - PercentDataBad give
 *       BadAggregateConfigurationRejected.</li>
 *   <li>At most MaxReturnDataValues intervals per response; the rest follows by continuation point, whose state
 *       is the next interval.</li>
 * </ul>
 */
public final class ProcessedHistoryReader implements HistoryReader<ReadProcessedDetails> {

    private final HistoryStore store;
    private final AggregateConfiguration defaults;
    private final Predicate<NodeId> stepped;

    /** Over {@code store}, with {@link AggregateConfiguration#DEFAULT} and every history sloped. */
    public ProcessedHistoryReader(HistoryStore store) {
        this(store, AggregateConfiguration.DEFAULT, node -> false);
    }

    /**
     * @param defaults the server's aggregate configuration (AggregateConfiguration of HistoryServerCapabilities)
     * @param stepped whether a node's history is stepped (HistoricalDataConfiguration Stepped, Part 11, 5.2.2)
     */
    public ProcessedHistoryReader(HistoryStore store, AggregateConfiguration defaults, Predicate<NodeId> stepped) {
        this.store = Objects.requireNonNull(store, "store");
        this.defaults = Objects.requireNonNull(defaults, "defaults");
        this.stepped = Objects.requireNonNull(stepped, "stepped");
    }

    @Override
    public Class<ReadProcessedDetails> detailsType() {
        return ReadProcessedDetails.class;
    }

    /** A read between responses: what it computes, over which range, and the next interval. */
    private record Remaining(AggregateFunction function, AggregateConfiguration config, long start, long end,
            long processingInterval, long count, long next) {
    }

    @Override
    public CompletableFuture<HistoryReadResult> read(HistoryReadOperation<ReadProcessedDetails> operation) {
        ReadProcessedDetails details = operation.details();
        NodeId[] types = details.aggregateType();
        if (types == null || types.length != operation.nodeCount()) {
            return failed(StatusCodes.BadAggregateListMismatch);
        }
        if (!given(details.startTime()) || !given(details.endTime())) {
            return failed(StatusCodes.BadInvalidTimestampArgument);
        }
        double intervalMillis = details.processingInterval();
        long start = details.startTime().utcTicks();
        long end = details.endTime().utcTicks();
        if (start == end || Double.isNaN(intervalMillis) || intervalMillis < 0) {
            return failed(StatusCodes.BadInvalidArgument);
        }
        if (operation.timestampsToReturn() == TimestampsToReturn.Server) {
            return failed(StatusCodes.BadTimestampsToReturnInvalid);
        }
        Optional<AggregateFunction> function = AggregateFunction.forNodeId(types[operation.index()]);
        if (function.isEmpty()) {
            return failed(StatusCodes.BadAggregateNotSupported);
        }
        AggregateConfiguration config = configuration(details.aggregateConfiguration());
        if (config == null) {
            return failed(StatusCodes.BadAggregateConfigurationRejected);
        }
        long processingInterval = intervalMillis == 0 ? 0
                : Math.max(1, (long) Math.min(Math.rint(intervalMillis * 10_000), Long.MAX_VALUE));
        long count = AggregateInterval.count(start, end, processingInterval);
        return page(operation, new Remaining(function.get(), config, start, end, processingInterval, count, 0));
    }

    @Override
    public CompletableFuture<HistoryReadResult> resume(HistoryReadOperation<ReadProcessedDetails> operation,
            Object state) {
        return page(operation, (Remaining) state);
    }

    private CompletableFuture<HistoryReadResult> page(HistoryReadOperation<ReadProcessedDetails> operation,
            Remaining remaining) {
        int size = (int) Math.min(remaining.count - remaining.next, operation.maxReturnDataValues());
        List<AggregateInterval> intervals = new ArrayList<>(size);
        long from = Long.MAX_VALUE;
        long to = Long.MIN_VALUE;
        for (int i = 0; i < size; i++) {
            AggregateInterval interval = AggregateInterval.at(remaining.start, remaining.end,
                    remaining.processingInterval, remaining.next + i);
            intervals.add(interval);
            from = Math.min(from, interval.from());
            to = Math.max(to, interval.to());
        }
        NodeId node = operation.nodeId();
        return RawWindow.around(store, node, from, to).thenApply(raw -> {
            List<DataValue> values = AggregateCalculator.calculate(remaining.function, raw, intervals,
                    remaining.config, stepped.test(node));
            long next = remaining.next + size;
            return operation.result(values, next < remaining.count
                    ? new Remaining(remaining.function, remaining.config, remaining.start, remaining.end,
                            remaining.processingInterval, remaining.count, next)
                    : null);
        });
    }

    /** The configuration to compute with, or null when the client's is not acceptable. */
    private AggregateConfiguration configuration(dev.opcua.stack.core.types.structured.AggregateConfiguration asked) {
        if (asked == null || asked.useServerCapabilitiesDefaults()) {
            return defaults;
        }
        if (asked.percentDataBad() > 100 || asked.percentDataGood() > 100) {
            return null;
        }
        AggregateConfiguration config = new AggregateConfiguration(asked.treatUncertainAsBad(),
                asked.percentDataBad(), asked.percentDataGood(), asked.useSlopedExtrapolation());
        return config.isConsistent() ? config : null;
    }

    private static boolean given(DateTime time) {
        return time != null && !time.isNull();
    }

    private static CompletableFuture<HistoryReadResult> failed(int status) {
        return CompletableFuture.completedFuture(HistoryReadOperation.failed(status));
    }
}
