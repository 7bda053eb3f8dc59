package dev.opcua.stack.server.history;

import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.HistoryUpdateType;
import dev.opcua.stack.core.types.structured.ModificationInfo;
import dev.opcua.stack.server.history.events.EventKey;
import dev.opcua.stack.server.history.events.EventPage;
import dev.opcua.stack.server.history.events.EventQuery;
import dev.opcua.stack.server.history.events.EventSample;
import dev.opcua.stack.server.subscriptions.events.UaEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link HistoryStore} in memory, for tests and for servers that need no history across restarts:
 * one sorted map per node, each guarded by its own monitor, so nodes are read and written in
 * parallel. Every future is complete when returned.
 *
 * <p>Its size for {@link HistoryRetention#maxBytes()} is estimated at {@value #ESTIMATED_BYTES_PER_VALUE}
 * bytes per value (entry, key and a small DataValue), not measured; events count towards the age only.
 *
 * <p>Events: per notifier one sorted map by {@link EventKey} and an index from EventId to key, under the
 * notifier's monitor.
 */
public final class InMemoryHistoryStore implements HistoryStore {

    /** The estimated heap a value takes, for size retention. */
    public static final int ESTIMATED_BYTES_PER_VALUE = 160;

    private final Map<NodeId, NavigableMap<Long, DataValue>> series = new ConcurrentHashMap<>();
    private final Map<NodeId, EventHistory> events = new ConcurrentHashMap<>();
    /** Modified values per node, by time and sequence; guarded by itself, taken inside the node's values' monitor. */
    private final Map<NodeId, TreeSet<ModifiedValue>> modified = new ConcurrentHashMap<>();
    private volatile boolean closed;

    /** The events of one notifier; guarded by itself. */
    private static final class EventHistory {
        final NavigableMap<EventKey, UaEvent> byKey = new TreeMap<>();
        final Map<ByteString, EventKey> byId = new HashMap<>();
    }

    private NavigableMap<Long, DataValue> seriesOf(NodeId nodeId) {
        return series.computeIfAbsent(nodeId, id -> new TreeMap<>());
    }

    @Override
    public CompletableFuture<Void> append(List<HistorySample> samples) {
        checkOpen();
        for (HistorySample sample : samples) {
            NavigableMap<Long, DataValue> values = seriesOf(sample.nodeId());
            synchronized (values) {
                values.put(HistoryTime.ticksOf(sample.value()), sample.value());
            }
        }
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletableFuture<HistoryPage> read(HistoryQuery query) {
        checkOpen();
        NavigableMap<Long, DataValue> values = series.get(query.nodeId());
        if (values == null || query.isEmpty()) {
            return CompletableFuture.completedFuture(HistoryPage.EMPTY);
        }
        List<DataValue> found = new ArrayList<>();
        boolean more = false;
        synchronized (values) {
            NavigableMap<Long, DataValue> range = query.backward()
                    ? values.subMap(query.end(), false, query.start(), true).descendingMap()
                    : values.subMap(query.start(), true, query.end(), false);
            for (DataValue value : range.values()) {
                if (query.limit() > 0 && found.size() == query.limit()) {
                    more = true;
                    break;
                }
                found.add(value);
            }
        }
        return CompletableFuture.completedFuture(new HistoryPage(found, more));
    }

    @Override
    public CompletableFuture<List<UpdateOutcome>> update(NodeId nodeId, UpdateMode mode, List<DataValue> updates) {
        checkOpen();
        NavigableMap<Long, DataValue> values = seriesOf(nodeId);
        List<UpdateOutcome> outcomes = new ArrayList<>(updates.size());
        synchronized (values) {
            for (DataValue value : updates) {
                long time = HistoryTime.ticksOf(value);
                boolean exists = values.containsKey(time);
                if (exists && mode == UpdateMode.INSERT) {
                    outcomes.add(UpdateOutcome.ENTRY_EXISTS);
                } else if (!exists && mode == UpdateMode.REPLACE) {
                    outcomes.add(UpdateOutcome.NO_ENTRY_EXISTS);
                } else {
                    values.put(time, value);
                    outcomes.add(exists ? UpdateOutcome.REPLACED : UpdateOutcome.INSERTED);
                }
            }
        }
        return CompletableFuture.completedFuture(outcomes);
    }

    @Override
    public CompletableFuture<List<UpdateOutcome>> update(NodeId nodeId, UpdateMode mode, List<DataValue> updates,
            HistoryModification by) {
        checkOpen();
        NavigableMap<Long, DataValue> values = seriesOf(nodeId);
        TreeSet<ModifiedValue> changes = modifiedOf(nodeId);
        List<UpdateOutcome> outcomes = new ArrayList<>(updates.size());
        synchronized (values) {
            for (DataValue value : updates) {
                long time = HistoryTime.ticksOf(value);
                DataValue old = values.get(time);
                if (old != null && mode == UpdateMode.INSERT) {
                    outcomes.add(UpdateOutcome.ENTRY_EXISTS);
                } else if (old == null && mode == UpdateMode.REPLACE) {
                    outcomes.add(UpdateOutcome.NO_ENTRY_EXISTS);
                } else {
                    values.put(time, value);
                    outcomes.add(old != null ? UpdateOutcome.REPLACED : UpdateOutcome.INSERTED);
                    keep(changes, time, old != null ? old : value, mode.modificationType(old != null), by);
                }
            }
        }
        return CompletableFuture.completedFuture(outcomes);
    }

    private TreeSet<ModifiedValue> modifiedOf(NodeId nodeId) {
        return modified.computeIfAbsent(nodeId, id -> new TreeSet<>(ModifiedValue.ORDER));
    }

    /** Adds a modified value after those already kept at its time. */
    private static void keep(TreeSet<ModifiedValue> changes, long time, DataValue value, HistoryUpdateType type,
            HistoryModification by) {
        synchronized (changes) {
            ModifiedValue last = changes.lower(new ModifiedValue(time, Long.MAX_VALUE, PROBE, INFO_PROBE));
            long sequence = last != null && last.ticks() == time ? last.sequence() + 1 : 1;
            changes.add(new ModifiedValue(time, sequence, value, new ModificationInfo(by.time(), type, by.userName())));
        }
    }

    /** A value and info to build search keys of a time and sequence with. */
    private static final DataValue PROBE = DataValue.of(dev.opcua.stack.core.types.builtin.Variant.NULL);
    private static final ModificationInfo INFO_PROBE = new ModificationInfo(null, HistoryUpdateType.Insert, null);

    @Override
    public CompletableFuture<Long> delete(NodeId nodeId, long startTicks, long endTicks, HistoryModification by) {
        checkOpen();
        NavigableMap<Long, DataValue> values = series.get(nodeId);
        if (values == null || startTicks >= endTicks) {
            return CompletableFuture.completedFuture(0L);
        }
        TreeSet<ModifiedValue> changes = modifiedOf(nodeId);
        synchronized (values) {
            NavigableMap<Long, DataValue> range = values.subMap(startTicks, true, endTicks, false);
            long count = range.size();
            range.forEach((time, old) -> keep(changes, time, old, HistoryUpdateType.Delete, by));
            range.clear();
            return CompletableFuture.completedFuture(count);
        }
    }

    @Override
    public CompletableFuture<ModifiedPage> readModified(HistoryQuery query, ModifiedValue after) {
        checkOpen();
        TreeSet<ModifiedValue> changes = modified.get(query.nodeId());
        if (changes == null || query.isEmpty()) {
            return CompletableFuture.completedFuture(ModifiedPage.EMPTY);
        }
        List<ModifiedValue> found = new ArrayList<>();
        boolean more = false;
        synchronized (changes) {
            for (ModifiedValue value : query.backward() ? changes.descendingSet() : changes) {
                if (!query.contains(value.ticks()) || (after != null && !value.isAfter(after, query.backward()))) {
                    if (query.backward() ? value.ticks() <= query.end() : value.ticks() >= query.end()) {
                        break;
                    }
                    continue;
                }
                if (query.limit() > 0 && found.size() == query.limit()) {
                    more = true;
                    break;
                }
                found.add(value);
            }
        }
        return CompletableFuture.completedFuture(new ModifiedPage(found, more));
    }

    @Override
    public CompletableFuture<Long> delete(NodeId nodeId, long startTicks, long endTicks) {
        checkOpen();
        NavigableMap<Long, DataValue> values = series.get(nodeId);
        if (values == null || startTicks >= endTicks) {
            return CompletableFuture.completedFuture(0L);
        }
        synchronized (values) {
            NavigableMap<Long, DataValue> range = values.subMap(startTicks, true, endTicks, false);
            long count = range.size();
            range.clear();
            return CompletableFuture.completedFuture(count);
        }
    }

    @Override
    public CompletableFuture<Void> appendEvents(List<EventSample> samples) {
        checkOpen();
        for (EventSample sample : samples) {
            EventHistory history = events.computeIfAbsent(sample.notifier(), id -> new EventHistory());
            EventKey key = sample.key();
            synchronized (history) {
                EventKey previous = history.byId.put(key.eventId(), key);
                if (previous != null) {
                    history.byKey.remove(previous);
                }
                history.byKey.put(key, sample.event());
            }
        }
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletableFuture<EventPage> readEvents(EventQuery query) {
        checkOpen();
        EventHistory history = events.get(query.notifier());
        if (history == null || query.isEmpty()) {
            return CompletableFuture.completedFuture(EventPage.EMPTY);
        }
        List<UaEvent> found = new ArrayList<>();
        boolean more = false;
        synchronized (history) {
            Iterable<Map.Entry<EventKey, UaEvent>> walk = query.backward()
                    ? (query.start() == Long.MAX_VALUE ? history.byKey : history.byKey.headMap(
                            new EventKey(query.start() + 1, ByteString.EMPTY), false)).descendingMap().entrySet()
                    : history.byKey.tailMap(new EventKey(query.start(), ByteString.EMPTY), true).entrySet();
            for (Map.Entry<EventKey, UaEvent> entry : walk) {
                if (query.isPastEnd(entry.getKey())) {
                    break;
                }
                if (!query.contains(entry.getKey())) {
                    continue;
                }
                if (query.limit() > 0 && found.size() == query.limit()) {
                    more = true;
                    break;
                }
                found.add(entry.getValue());
            }
        }
        return CompletableFuture.completedFuture(new EventPage(found, more));
    }

    @Override
    public CompletableFuture<List<Boolean>> deleteEvents(NodeId notifier, List<ByteString> eventIds) {
        checkOpen();
        EventHistory history = events.get(notifier);
        List<Boolean> deleted = new ArrayList<>(eventIds.size());
        for (ByteString id : eventIds) {
            if (history == null || id == null) {
                deleted.add(false);
                continue;
            }
            synchronized (history) {
                EventKey key = history.byId.remove(id);
                deleted.add(key != null && history.byKey.remove(key) != null);
            }
        }
        return CompletableFuture.completedFuture(deleted);
    }

    @Override
    public CompletableFuture<Long> trim(HistoryRetention retention, long nowTicks) {
        checkOpen();
        long deleted = 0;
        long oldest = retention.oldestTicks(nowTicks);
        long total = 0;
        for (NavigableMap<Long, DataValue> values : series.values()) {
            synchronized (values) {
                if (oldest != Long.MIN_VALUE) {
                    NavigableMap<Long, DataValue> expired = values.headMap(oldest, false);
                    deleted += expired.size();
                    expired.clear();
                }
                total += values.size();
            }
        }
        if (oldest != Long.MIN_VALUE) {
            for (TreeSet<ModifiedValue> changes : modified.values()) {
                synchronized (changes) {
                    java.util.SortedSet<ModifiedValue> expired =
                            changes.headSet(new ModifiedValue(oldest, 0, PROBE, INFO_PROBE));
                    deleted += expired.size();
                    expired.clear();
                }
            }
            for (EventHistory history : events.values()) {
                synchronized (history) {
                    NavigableMap<EventKey, UaEvent> expired =
                            history.byKey.headMap(new EventKey(oldest, ByteString.EMPTY), false);
                    deleted += expired.size();
                    expired.keySet().forEach(key -> history.byId.remove(key.eventId()));
                    expired.clear();
                }
            }
        }
        if (retention.maxBytes() > 0) {
            long keep = retention.maxBytes() / ESTIMATED_BYTES_PER_VALUE;
            while (total > keep) {
                if (!removeOldest()) {
                    break;
                }
                total--;
                deleted++;
            }
        }
        return CompletableFuture.completedFuture(deleted);
    }

    /** Removes the oldest value of all nodes; false when none is left. */
    private boolean removeOldest() {
        NavigableMap<Long, DataValue> oldestSeries = null;
        long oldestTime = Long.MAX_VALUE;
        for (NavigableMap<Long, DataValue> values : series.values()) {
            synchronized (values) {
                if (!values.isEmpty() && values.firstKey() < oldestTime) {
                    oldestTime = values.firstKey();
                    oldestSeries = values;
                }
            }
        }
        if (oldestSeries == null) {
            return false;
        }
        synchronized (oldestSeries) {
            Iterator<Long> first = oldestSeries.keySet().iterator();
            if (first.hasNext()) {
                first.next();
                first.remove();
            }
        }
        return true;
    }

    /** How many values the store holds, all nodes together. */
    public long size() {
        long total = 0;
        for (NavigableMap<Long, DataValue> values : series.values()) {
            synchronized (values) {
                total += values.size();
            }
        }
        return total;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the history store is closed");
        }
    }

    @Override
    public void close() {
        closed = true;
        series.clear();
        events.clear();
        modified.clear();
    }
}
