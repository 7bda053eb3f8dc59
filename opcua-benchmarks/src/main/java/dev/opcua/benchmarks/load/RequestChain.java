package dev.opcua.benchmarks.load;

import dev.opcua.benchmarks.server.BenchAddressSpace;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.BrowseDirection;
import dev.opcua.stack.core.types.enumerated.BrowseResultMask;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.BrowseDescription;
import dev.opcua.stack.core.types.structured.BrowseRequest;
import dev.opcua.stack.core.types.structured.BrowseResponse;
import dev.opcua.stack.core.types.structured.BrowseResult;
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadResponse;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.ResponseHeader;
import dev.opcua.stack.core.types.structured.ViewDescription;
import dev.opcua.stack.core.types.structured.WriteRequest;
import dev.opcua.stack.core.types.structured.WriteResponse;
import dev.opcua.stack.core.types.structured.WriteValue;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.LongAdder;

/**
 * One closed-loop request slot of a session: sends a Read or Write (Part 4, 5.11.2 and 5.11.4) or a
 * Browse (Part 4, 5.9.2) of the Server object and the Objects folder, and on its response sends the next. Its histogram is touched by one request at a time, so it
 * needs no lock; the harness reads it only after {@link #stopped()} has counted down.
 */
final class RequestChain {

    /**
     * Phases shared by all chains: warmup (not recorded), measuring, stopping; the {@code sub}
     * scenario drains between measuring and stopping (late notifications of values written in the
     * window are still matched, nothing else is recorded).
     */
    static final class Phase {
        volatile int value;
        static final int WARMUP = 0;
        static final int MEASURE = 1;
        static final int STOP = 2;
        static final int DRAIN = 3;
    }

    /** Forward hierarchical references with subtypes, every node class, every result field. */
    private static final BrowseDescription[] BROWSE = {browse(NodeId.ns0(NodeIds.Server)),
        browse(NodeId.ns0(NodeIds.ObjectsFolder))};
    private static final ViewDescription NO_VIEW = new ViewDescription(NodeId.NULL, DateTime.MIN_VALUE, 0);

    private final LoadSession session;
    private final String scenario;
    private final int values;
    private final int nodes;
    private final NodeId[] nodeIds;
    private final BrowseDescription[] browse;
    private final Phase phase;
    private final LongAdder ops;
    private final ConcurrentHashMap<String, LongAdder> errors;
    private final Executor executor;
    private final CountDownLatch stopped;
    private final LatencyHistogram histogram = new LatencyHistogram();
    private int next;

    RequestChain(LoadSession session, String scenario, int values, NodeId[] nodeIds, int start, Phase phase,
            LongAdder ops, ConcurrentHashMap<String, LongAdder> errors, Executor executor, CountDownLatch stopped) {
        this(session, scenario, values, nodeIds, BROWSE, start, phase, ops, errors, executor, stopped);
    }

    RequestChain(LoadSession session, String scenario, int values, NodeId[] nodeIds, BrowseDescription[] browse,
            int start, Phase phase, LongAdder ops, ConcurrentHashMap<String, LongAdder> errors, Executor executor,
            CountDownLatch stopped) {
        this.browse = browse;
        this.session = session;
        this.scenario = scenario;
        this.values = values;
        this.nodes = nodeIds.length;
        this.nodeIds = nodeIds;
        this.next = start % nodes;
        this.phase = phase;
        this.ops = ops;
        this.errors = errors;
        this.executor = executor;
        this.stopped = stopped;
    }

    LatencyHistogram histogram() {
        return histogram;
    }

    /** Sends the next request, or counts down {@code stopped} once the run is over. */
    void issue() {
        if (phase.value == Phase.STOP || !session.channel().isOpen()) {
            stopped.countDown();
            return;
        }
        long start = System.nanoTime();
        if (scenario.equals("browse")) {
            session.channel().request(new BrowseRequest(session.header(), NO_VIEW, 0, browse), BrowseResponse.class)
                    .whenComplete((r, e) -> complete(start, r == null ? null : r.responseHeader(),
                            r == null ? null : browseStatuses(r.results()), e));
        } else if (scenario.equals("write")) {
            WriteValue[] items = new WriteValue[values];
            for (int i = 0; i < values; i++) {
                int n = nextNode();
                items[i] = new WriteValue(nodeIds[n], AttributeIds.Value, null,
                        DataValue.of(Variant.ofDouble(start + i)));
            }
            session.channel().request(new WriteRequest(session.header(), items), WriteResponse.class)
                    .whenComplete((r, e) -> complete(start, r == null ? null : r.responseHeader(),
                            r == null ? null : r.results(), e));
        } else {
            ReadValueId[] items = new ReadValueId[values];
            for (int i = 0; i < values; i++) {
                items[i] = new ReadValueId(nodeIds[nextNode()], AttributeIds.Value, null, QualifiedName.NULL);
            }
            session.channel().request(new ReadRequest(session.header(), 0, TimestampsToReturn.Neither, items),
                    ReadResponse.class).whenComplete((r, e) -> complete(start, r == null ? null : r.responseHeader(),
                            r == null ? null : statuses(r.results()), e));
        }
    }

    private int nextNode() {
        int n = next;
        next = n + 1 == nodes ? 0 : n + 1;
        return n;
    }

    /** The Browse of {@code --browse}: the Server object and the Objects folder, or the bench namespace's Bench folder. */
    static BrowseDescription[] browseOf(boolean bench, NodeId[] nodeIds) {
        return bench ? new BrowseDescription[] {browse(NodeId.string(nodeIds[0].namespaceIndex(),
                BenchAddressSpace.BENCH))} : BROWSE;
    }

    private static BrowseDescription browse(NodeId nodeId) {
        return new BrowseDescription(nodeId, BrowseDirection.Forward,
                NodeId.ns0(NodeIds.HierarchicalReferences), true, 0, BrowseResultMask.All.value());
    }

    private static StatusCode[] browseStatuses(BrowseResult[] results) {
        if (results == null) {
            return null;
        }
        StatusCode[] codes = new StatusCode[results.length];
        for (int i = 0; i < results.length; i++) {
            codes[i] = results[i].statusCode();
        }
        return codes;
    }

    static StatusCode[] statuses(DataValue[] results) {
        if (results == null) {
            return null;
        }
        StatusCode[] codes = new StatusCode[results.length];
        for (int i = 0; i < results.length; i++) {
            codes[i] = results[i].statusCode();
        }
        return codes;
    }

    private void complete(long start, ResponseHeader header, StatusCode[] results, Throwable failure) {
        long elapsed = System.nanoTime() - start;
        String error = error(header, results, failure);
        if (phase.value == Phase.MEASURE) {
            if (error == null) {
                ops.increment();
                histogram.record(elapsed);
            } else {
                errors.computeIfAbsent(error, k -> new LongAdder()).increment();
            }
        }
        if (failure != null) {
            // a failed future may complete on the calling thread: hop to the executor, no recursion
            executor.execute(this::issue);
        } else {
            issue();
        }
    }

    /** null for a good response, else the first bad status (service result, then per item), or the exception. */
    static String error(ResponseHeader header, StatusCode[] results, Throwable failure) {
        if (failure != null) {
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            if (cause instanceof UaException ua) {
                return ua.statusCode().toString();
            }
            return cause.getClass().getSimpleName();
        }
        if (header != null && !header.serviceResult().isGood()) {
            return header.serviceResult().toString();
        }
        if (results != null) {
            for (StatusCode code : results) {
                if (code != null && !code.isGood()) {
                    return code.toString();
                }
            }
        }
        return null;
    }
}
