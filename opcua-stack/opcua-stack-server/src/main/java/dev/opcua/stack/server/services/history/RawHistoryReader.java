package dev.opcua.stack.server.services.history;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.structured.HistoryModifiedData;
import dev.opcua.stack.core.types.structured.HistoryReadResult;
import dev.opcua.stack.core.types.structured.ModificationInfo;
import dev.opcua.stack.core.types.structured.ReadRawModifiedDetails;
import dev.opcua.stack.server.history.HistoryQuery;
import dev.opcua.stack.server.history.HistoryStore;
import dev.opcua.stack.server.history.HistoryTime;
import dev.opcua.stack.server.history.ModifiedValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Reads raw history (Part 11, 6.5.3.2 ReadRawModifiedDetails with isReadModified false) and modified values
 * (6.5.3.3, isReadModified true) from a {@link HistoryStore}.
 *
 * <ul>
 *   <li>Time domain (Part 11, 4.6): start and end given, start before end: forward over {@code start <= t <
 *       end}; end before start: backward over {@code end < t <= start}, newest first; start equal to end:
 *       the value at exactly that time. Only start and numValuesPerNode: forward from start; only end and
 *       numValuesPerNode: backward from end, end included. Neither time, or one time without
 *       numValuesPerNode: BadInvalidTimestampArgument (at least two of the three are needed).</li>
 *   <li>numValuesPerNode (0 = all) and the server's MaxReturnDataValues bound a response; the rest follows
 *       by a continuation point whose state is the time of the last value returned, since a node has one
 *       value per time (Part 11, 6.3).</li>
 *   <li>returnBounds (Part 11, 4.6): the value at or before the start and the one at or after the end
 *       (when reading backward: at or after the start, at or before the end) are returned with the
 *       values; a bound that does not exist is a value with BadBoundNotFound, no value and the start (end)
 *       time. With only one time given, only that time's bound is returned. Bounds count towards
 *       numValuesPerNode.</li>
 *   <li>isReadModified: the values HistoryUpdate inserted, replaced, updated or deleted in the same time domain
 *       ({@link HistoryStore#readModified}), all of them where a time was modified more than once, as
 *       HistoryModifiedData with a ModificationInfo per value (time, HistoryUpdateType, user name); the value of
 *       an insert is the new one, of any other modification the old one. returnBounds with it is
 *       BadInvalidArgument (Part 11, 6.5.3.3). Paged as raw values; a continuation point resumes after the last
 *       value's time and sequence.</li>
 *   <li>No value in the domain: GoodNoData.</li>
 * </ul>
 */
public final class RawHistoryReader implements HistoryReader<ReadRawModifiedDetails> {

    private final HistoryStore store;

    public RawHistoryReader(HistoryStore store) {
        this.store = store;
    }

    @Override
    public Class<ReadRawModifiedDetails> detailsType() {
        return ReadRawModifiedDetails.class;
    }

    /**
     * Where a read stands between responses: the rest of its query (null once exhausted), the missing end
     * bound still to return (or null), how many values it may still return in all (-1: no limit) and per
     * response.
     */
    private record Remaining(HistoryQuery query, DataValue pendingLast, long total, int pageSize) {
    }

    /** Where a read of modified values stands: its range, the last value returned (null at first), the counts. */
    private record ModifiedRemaining(HistoryQuery query, ModifiedValue after, long total, int pageSize) {
    }

    @Override
    public CompletableFuture<HistoryReadResult> read(HistoryReadOperation<ReadRawModifiedDetails> operation) {
        ReadRawModifiedDetails details = operation.details();
        if (details.isReadModified() && details.returnBounds()) {
            return CompletableFuture.completedFuture(HistoryReadOperation.failed(StatusCodes.BadInvalidArgument));
        }
        boolean hasStart = given(details.startTime());
        boolean hasEnd = given(details.endTime());
        long count = details.numValuesPerNode();
        if ((!hasStart && !hasEnd) || ((!hasStart || !hasEnd) && count == 0)) {
            return CompletableFuture.completedFuture(
                    HistoryReadOperation.failed(StatusCodes.BadInvalidTimestampArgument));
        }
        NodeId node = operation.nodeId();
        long start = hasStart ? details.startTime().utcTicks() : 0;
        long end = hasEnd ? details.endTime().utcTicks() : 0;
        // Part 11, 6.5.3.2: with both times, numValuesPerNode is the size of each response and a continuation
        // point follows; with one time, it is the number of values to return in all
        int clamped = (int) Math.min(count, Integer.MAX_VALUE);
        long total = hasStart && hasEnd || count == 0 ? -1 : count;
        int pageSize = hasStart && hasEnd && count > 0 ? clamped : Integer.MAX_VALUE;
        boolean backward = !hasStart || (hasEnd && end < start);
        long from = hasStart ? start : end;
        long to = hasStart && hasEnd ? (start == end ? start + 1 : end) : backward ? Long.MIN_VALUE : Long.MAX_VALUE;
        if (details.isReadModified()) {
            HistoryQuery query = backward ? HistoryQuery.backward(node, from, to, 0) : HistoryQuery.forward(node, from, to, 0);
            return modifiedPage(operation, new ModifiedRemaining(query, null, total, pageSize));
        }
        if (!details.returnBounds()) {
            HistoryQuery query = backward ? HistoryQuery.backward(node, from, to, 0) : HistoryQuery.forward(node, from, to, 0);
            return page(operation, new Remaining(query, null, total, pageSize), null);
        }
        boolean endBound = hasStart && hasEnd;
        CompletableFuture<Optional<DataValue>> first = backward
                ? store.earliestAtOrAfter(node, from) : store.latestAtOrBefore(node, from);
        CompletableFuture<Optional<DataValue>> last = !endBound ? CompletableFuture.completedFuture(Optional.empty())
                : backward ? store.latestAtOrBefore(node, to) : store.earliestAtOrAfter(node, to);
        return first.thenCombine(last, (firstBound, lastBound) -> {
            long queryFrom = firstBound.map(HistoryTime::ticksOf).orElse(from);
            long queryTo = to;
            DataValue missingLast = null;
            if (endBound) {
                if (lastBound.isPresent()) {
                    long bound = HistoryTime.ticksOf(lastBound.get());
                    queryTo = backward ? bound - 1 : bound + 1;
                } else {
                    missingLast = boundNotFound(to);
                }
            }
            HistoryQuery query = backward ? HistoryQuery.backward(node, queryFrom, queryTo, 0)
                    : HistoryQuery.forward(node, queryFrom, queryTo, 0);
            return new Object[] {new Remaining(query, missingLast, total, pageSize),
                    firstBound.isPresent() ? null : boundNotFound(from)};
        }).thenCompose(prepared -> page(operation, (Remaining) prepared[0], (DataValue) prepared[1]));
    }

    @Override
    public CompletableFuture<HistoryReadResult> resume(HistoryReadOperation<ReadRawModifiedDetails> operation,
            Object state) {
        return state instanceof ModifiedRemaining modified ? modifiedPage(operation, modified)
                : page(operation, (Remaining) state, null);
    }

    /** One response of modified values, with a continuation point while more remain and the total allows. */
    private CompletableFuture<HistoryReadResult> modifiedPage(HistoryReadOperation<ReadRawModifiedDetails> operation,
            ModifiedRemaining remaining) {
        long room = Math.min(remaining.pageSize, operation.maxReturnDataValues());
        int limit = (int) (remaining.total < 0 ? room : Math.min(room, remaining.total));
        return store.readModified(remaining.query.withLimit(limit), remaining.after).thenApply(found -> {
            List<ModifiedValue> values = found.values();
            DataValue[] out = new DataValue[values.size()];
            ModificationInfo[] infos = new ModificationInfo[values.size()];
            for (int i = 0; i < out.length; i++) {
                out[i] = operation.shape(values.get(i).value());
                infos[i] = values.get(i).info();
            }
            long total = less(remaining.total, out.length);
            boolean more = found.more() && total != 0;
            Object continuation = more ? new ModifiedRemaining(remaining.query, values.get(values.size() - 1), total,
                    remaining.pageSize) : null;
            int status = out.length == 0 && continuation == null ? StatusCodes.GoodNoData : StatusCodes.Good;
            return operation.result(StatusCode.of(status), new HistoryModifiedData(out, infos), continuation);
        });
    }

    /** One response's values: {@code leading} (a missing start bound), the store's page, the missing end bound. */
    private CompletableFuture<HistoryReadResult> page(HistoryReadOperation<ReadRawModifiedDetails> operation,
            Remaining remaining, DataValue leading) {
        int room = room(operation, remaining);
        List<DataValue> values = new ArrayList<>();
        if (leading != null && room > 0) {
            values.add(leading);
            room--;
        }
        if (remaining.query == null || room == 0) {
            return CompletableFuture.completedFuture(finish(operation, values,
                    new Remaining(remaining.query, remaining.pendingLast, less(remaining.total, values.size()),
                            remaining.pageSize)));
        }
        return store.read(remaining.query.withLimit(room)).thenApply(found -> {
            values.addAll(found.values());
            HistoryQuery rest = found.more() ? remaining.query.after(found.lastTicks()) : null;
            return finish(operation, values, new Remaining(rest, remaining.pendingLast,
                    less(remaining.total, values.size()), remaining.pageSize));
        });
    }

    /** The most values this response may carry: per response, the server's maximum, the total left. */
    private static int room(HistoryReadOperation<ReadRawModifiedDetails> operation, Remaining remaining) {
        long room = Math.min(remaining.pageSize, operation.maxReturnDataValues());
        return (int) (remaining.total < 0 ? room : Math.min(room, remaining.total));
    }

    private static long less(long total, int returned) {
        return total < 0 ? -1 : total - returned;
    }

    /**
     * Adds the pending end bound when the query is exhausted and the response has room; continues when
     * anything remains and the total allows it.
     */
    private static HistoryReadResult finish(HistoryReadOperation<ReadRawModifiedDetails> operation,
            List<DataValue> values, Remaining after) {
        DataValue pendingLast = after.pendingLast;
        long total = after.total;
        int responseRoom = (int) Math.min(after.pageSize, operation.maxReturnDataValues()) - values.size();
        if (after.query == null && pendingLast != null && responseRoom > 0 && total != 0) {
            values.add(pendingLast);
            pendingLast = null;
            total = less(total, 1);
        }
        boolean more = (after.query != null || pendingLast != null) && total != 0;
        return operation.result(values, more ? new Remaining(after.query, pendingLast, total, after.pageSize) : null);
    }

    private static boolean given(DateTime time) {
        return time != null && !time.isNull();
    }

    /** Part 11, 4.6: the tuple returned for a bound that has no value: no value, BadBoundNotFound, the bound's time. */
    private static DataValue boundNotFound(long ticks) {
        DateTime time = DateTime.ofTicks(ticks);
        return DataValue.of(Variant.NULL, StatusCode.of(StatusCodes.BadBoundNotFound), time, 0, time, 0);
    }
}
