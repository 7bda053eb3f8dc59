package dev.opcua.stack.server.services.history;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.structured.HistoryEvent;
import dev.opcua.stack.core.types.structured.HistoryEventFieldList;
import dev.opcua.stack.core.types.structured.HistoryReadResult;
import dev.opcua.stack.core.types.structured.ReadEventDetails;
import dev.opcua.stack.server.history.HistoryStore;
import dev.opcua.stack.server.history.events.EventKey;
import dev.opcua.stack.server.history.events.EventQuery;
import dev.opcua.stack.server.subscriptions.events.EventFilterEvaluator;
import dev.opcua.stack.server.subscriptions.events.EventTypeTree;
import dev.opcua.stack.server.subscriptions.events.UaEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * Reads event history (Part 11, 6.5.2 ReadEventDetails) of a notifier from a {@link HistoryStore}.
 *
 * <ul>
 *   <li>Time domain, on the events' Time field (Part 11, 6.5.2.2 and 4.6), as {@link RawHistoryReader} reads values:
 *       start before end forward over {@code start <= Time < end}; end before start backward, newest first; equal
 *       times the events at exactly that time; one time with numValuesPerNode that many events from it (forward
 *       from the start, backward from the end); neither time, or one without numValuesPerNode,
 *       BadInvalidTimestampArgument.</li>
 *   <li>The filter: compiled and applied by the server's {@link EventFilterEvaluator}, the one event monitored items
 *       use (Part 4, 7.22.3): its where clause chooses the events, its select clauses the fields returned, one
 *       {@link HistoryEventFieldList} per event. A missing filter, one without select clauses or with an invalid
 *       where clause is BadEventFilterInvalid (Part 11, 6.5.2.1: the filter shall be specified with at least one
 *       field). A select clause the server refuses gives null in that field, as for monitored items.</li>
 *   <li>numValuesPerNode (0 = all) and the server's MaxReturnDataValues bound a response; the rest follows by a
 *       continuation point whose state is the position (Time, EventId) of the last event examined (Part 11,
 *       6.3). The client sends the same filter again with it.</li>
 *   <li>No event in the domain: GoodNoData.</li>
 * </ul>
 */
public final class EventHistoryReader implements HistoryReader<ReadEventDetails> {

    /** Events the store returns per read while the where clause filters them. */
    private static final int SCAN_BATCH = 1_000;

    private final HistoryStore store;
    private final EventTypeTree types;

    public EventHistoryReader(HistoryStore store, EventTypeTree types) {
        this.store = Objects.requireNonNull(store, "store");
        this.types = Objects.requireNonNull(types, "types");
    }

    @Override
    public Class<ReadEventDetails> detailsType() {
        return ReadEventDetails.class;
    }

    @Override
    public boolean readsEvents() {
        return true;
    }

    /** Where a read stands: the rest of its query (null once exhausted), events still allowed in all (-1 none), per response. */
    private record Remaining(EventQuery query, long total, int pageSize) {
    }

    @Override
    public CompletableFuture<HistoryReadResult> read(HistoryReadOperation<ReadEventDetails> operation) {
        ReadEventDetails details = operation.details();
        EventFilterEvaluator filter = EventFilterEvaluator.compile(details.filter(), types);
        if (!filter.isValid()) {
            return failed(StatusCodes.BadEventFilterInvalid);
        }
        boolean hasStart = given(details.startTime());
        boolean hasEnd = given(details.endTime());
        long count = details.numValuesPerNode();
        if ((!hasStart && !hasEnd) || ((!hasStart || !hasEnd) && count == 0)) {
            return failed(StatusCodes.BadInvalidTimestampArgument);
        }
        long start = hasStart ? details.startTime().utcTicks() : 0;
        long end = hasEnd ? details.endTime().utcTicks() : 0;
        // as for raw values (Part 11, 6.5.2.2): both times, numValuesPerNode sizes each response; one time, it is all
        long total = hasStart && hasEnd || count == 0 ? -1 : count;
        int pageSize = hasStart && hasEnd && count > 0 ? (int) Math.min(count, Integer.MAX_VALUE) : Integer.MAX_VALUE;
        boolean backward = !hasStart || (hasEnd && end < start);
        long from = hasStart ? start : end;
        long to = hasStart && hasEnd ? (start == end ? start + 1 : end) : backward ? Long.MIN_VALUE : Long.MAX_VALUE;
        NodeId notifier = operation.nodeId();
        EventQuery query = backward ? EventQuery.backward(notifier, from, to, 0) : EventQuery.forward(notifier, from, to, 0);
        return page(operation, filter, new Remaining(query, total, pageSize));
    }

    @Override
    public CompletableFuture<HistoryReadResult> resume(HistoryReadOperation<ReadEventDetails> operation, Object state) {
        EventFilterEvaluator filter = EventFilterEvaluator.compile(operation.details().filter(), types);
        if (!filter.isValid()) {
            return failed(StatusCodes.BadEventFilterInvalid);
        }
        return page(operation, filter, (Remaining) state);
    }

    private CompletableFuture<HistoryReadResult> page(HistoryReadOperation<ReadEventDetails> operation,
            EventFilterEvaluator filter, Remaining remaining) {
        long room = Math.min(remaining.pageSize, operation.maxReturnDataValues());
        int limit = (int) (remaining.total < 0 ? room : Math.min(room, remaining.total));
        return scan(filter, remaining.query, limit, new ArrayList<>()).thenApply(scanned -> {
            List<HistoryEventFieldList> found = scanned.fields;
            long total = remaining.total < 0 ? -1 : remaining.total - found.size();
            boolean more = scanned.rest != null && total != 0;
            Object continuation = more ? new Remaining(scanned.rest, total, remaining.pageSize) : null;
            int status = found.isEmpty() && continuation == null ? StatusCodes.GoodNoData : StatusCodes.Good;
            return operation.result(StatusCode.of(status),
                    new HistoryEvent(found.toArray(new HistoryEventFieldList[0])), continuation);
        });
    }

    /** The fields of the events that pass, and the query left after the last event examined (null when none is left). */
    private record Scanned(List<HistoryEventFieldList> fields, EventQuery rest) {
    }

    /** Reads the store in batches until {@code limit} events passed the where clause or the range is read. */
    private CompletableFuture<Scanned> scan(EventFilterEvaluator filter, EventQuery query, int limit,
            List<HistoryEventFieldList> found) {
        int batch = filter.hasWhereClause() ? SCAN_BATCH : limit - found.size();
        return store.readEvents(query.withLimit(batch)).thenCompose(page -> {
            List<UaEvent> events = page.events();
            for (int i = 0; i < events.size(); i++) {
                Variant[] fields = filter.evaluate(events.get(i));
                if (fields != null) {
                    found.add(new HistoryEventFieldList(fields));
                }
                if (found.size() == limit) {
                    boolean rest = i < events.size() - 1 || page.more();
                    return CompletableFuture.completedFuture(new Scanned(found,
                            rest ? query.after(EventKey.of(events.get(i))) : null));
                }
            }
            if (!page.more()) {
                return CompletableFuture.completedFuture(new Scanned(found, null));
            }
            return scan(filter, query.after(page.lastKey()), limit, found);
        });
    }

    private static boolean given(DateTime time) {
        return time != null && !time.isNull();
    }

    private static CompletableFuture<HistoryReadResult> failed(int status) {
        return CompletableFuture.completedFuture(HistoryReadOperation.failed(status));
    }
}
