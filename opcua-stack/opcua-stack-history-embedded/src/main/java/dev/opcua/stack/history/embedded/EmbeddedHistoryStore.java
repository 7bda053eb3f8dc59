package dev.opcua.stack.history.embedded;

import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.HistoryUpdateType;
import dev.opcua.stack.core.types.structured.ModificationInfo;
import dev.opcua.stack.server.history.DataValueBytes;
import dev.opcua.stack.server.history.HistoryModification;
import dev.opcua.stack.server.history.HistoryPage;
import dev.opcua.stack.server.history.HistoryQuery;
import dev.opcua.stack.server.history.HistoryRetention;
import dev.opcua.stack.server.history.HistorySample;
import dev.opcua.stack.server.history.HistoryStore;
import dev.opcua.stack.server.history.HistoryTime;
import dev.opcua.stack.server.history.ModifiedPage;
import dev.opcua.stack.server.history.ModifiedValue;
import dev.opcua.stack.server.history.UpdateMode;
import dev.opcua.stack.server.history.UpdateOutcome;
import dev.opcua.stack.server.history.events.EventKey;
import dev.opcua.stack.server.history.events.EventPage;
import dev.opcua.stack.server.history.events.EventQuery;
import dev.opcua.stack.server.history.events.EventSample;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.h2.mvstore.Cursor;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The default {@link HistoryStore}: one file, {@value #FILE_NAME}, under a directory, that needs no setup,
 * keeps history across restarts and loses nothing it acknowledged when the process is killed.
 *
 * <p>Storage: H2's MVStore, used as a key-value store (no SQL): one B-tree map per node, from the time in
 * ticks to the value's UA Binary encoding. MVStore never overwrites live data: a commit appends a chunk
 * of changed pages with a header and footer that carry its length, version and checksum, and names the
 * new root; on open it takes the newest complete chunk, so a chunk torn by a crash is ignored and the
 * state of the previous commit is found intact.
 *
 * <p>Writes (append, update, delete, trim) run on one thread, {@code opcua-history-store-1}, which takes
 * every operation waiting, applies them, commits once and (with {@link SyncPolicy#EVERY_COMMIT}) forces the
 * file to the disk before completing their futures: a future completes only when its change is in a
 * committed chunk (group commit; one commit per batch, not per operation). Reads run on the caller's
 * thread against the last committed or applied state, without a lock.
 *
 * <p>Events ({@link EventMaps}) are written by the same thread and commits as values.
 *
 * <p>Modified values (read-modified, Part 11, 6.5.3.3): per node a map {@code modified:<node>} from the time (as
 * {@link EventKey#sortableTicks}) and a 16 hex digit sequence to the value and its ModificationInfo ({@link
 * ModifiedValueBytes}), written in the same change as the update or delete that made them.
 *
 * <p>Appends are applied in the order of the calls. A value later than every value of its node (what recording
 * produces) goes through MVStore's append buffer ({@link MVMap#append}, the maps are opened single-writer): up to
 * a page of keys is collected per map and becomes one leaf, instead of a copy of the leaf and its path per value
 * that {@link MVMap#put} makes (MVStore never changes a page in place). Any other value is put.
 *
 * <p>Retention by size measures the file; MVStore reuses the space of deleted values and this store
 * compacts the file after trimming, so the file shrinks within a few trims.
 */
public final class EmbeddedHistoryStore implements HistoryStore {

    /** The file under the directory. */
    public static final String FILE_NAME = "history.mv.db";

    private static final Logger log = LoggerFactory.getLogger(EmbeddedHistoryStore.class);
    private static final String MAP_PREFIX = "values:";
    private static final String MODIFIED_PREFIX = "modified:";
    private static final HexFormat HEX = HexFormat.of();

    private final Path file;
    private final SyncPolicy sync;
    private final MVStore store;
    private final Map<NodeId, MVMap<Long, byte[]>> maps = new ConcurrentHashMap<>();
    private final BlockingQueue<Write<?>> writes = new LinkedBlockingQueue<>();
    private final Thread writer;
    private final Map<NodeId, MVMap<String, byte[]>> modifiedMaps = new ConcurrentHashMap<>();
    private final EventMaps events;
    private final DataValueBytes bytes = new DataValueBytes(); // writer thread only
    /** Per map, the newest time the writer put in it, so that a later time is appended; writer thread only. */
    private final Map<MVMap<Long, byte[]>, long[]> newestTimes = new IdentityHashMap<>();
    private volatile boolean closed;

    /** A change queued for the writer thread, and who waits for it. */
    private record Write<T>(Supplier<T> change, CompletableFuture<T> done) {
    }

    private static final Write<Void> STOP = new Write<>(() -> null, new CompletableFuture<>());

    private EmbeddedHistoryStore(Path directory, SyncPolicy sync) {
        this.sync = Objects.requireNonNull(sync, "sync");
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new UncheckedIOException("the history directory " + directory + " cannot be created", e);
        }
        this.file = directory.resolve(FILE_NAME);
        boolean existed = Files.exists(file);
        try {
            this.store = new MVStore.Builder().fileName(file.toString()).autoCommitDisabled().open();
        } catch (RuntimeException e) {
            throw new IllegalStateException("the history file " + file + " cannot be opened: " + e.getMessage(), e);
        }
        this.events = new EventMaps(store);
        for (String name : store.getMapNames()) {
            if (name.startsWith(MAP_PREFIX)) {
                NodeId nodeId = NodeId.parse(name.substring(MAP_PREFIX.length()));
                maps.put(nodeId, store.openMap(name, valuesMap()));
            } else if (name.startsWith(MODIFIED_PREFIX)) {
                modifiedMaps.put(NodeId.parse(name.substring(MODIFIED_PREFIX.length())), store.openMap(name));
            } else {
                events.openExisting(name);
            }
        }
        this.writer = new Thread(this::writeLoop, "opcua-history-store-1");
        writer.start();
        log.info("history store {} {}: {} nodes, sync {}", file, existed ? "opened" : "created", maps.size(), sync);
    }

    /** Opens (or creates) the store in {@code directory}, forcing every commit to the disk. */
    public static EmbeddedHistoryStore open(Path directory) {
        return open(directory, SyncPolicy.EVERY_COMMIT);
    }

    /** Opens (or creates) the store in {@code directory} with the given sync policy. */
    public static EmbeddedHistoryStore open(Path directory, SyncPolicy sync) {
        return new EmbeddedHistoryStore(directory, sync);
    }

    /** The store's file. */
    public Path file() {
        return file;
    }

    private MVMap<Long, byte[]> mapOf(NodeId nodeId) {
        MVMap<Long, byte[]> map = maps.get(nodeId); // no capturing lambda per value once the map exists
        return map != null ? map : maps.computeIfAbsent(nodeId, id -> store.openMap(MAP_PREFIX + id, valuesMap()));
    }

    /** A node's map: keys and values as before (no type given), written by one thread only: appends allowed. */
    private static MVMap.Builder<Long, byte[]> valuesMap() {
        return new MVMap.Builder<Long, byte[]>().singleWriter();
    }

    private <T> CompletableFuture<T> submit(Supplier<T> change) {
        if (closed) {
            return CompletableFuture.failedFuture(new IllegalStateException("the history store is closed"));
        }
        CompletableFuture<T> done = new CompletableFuture<>();
        writes.add(new Write<>(change, done));
        return done;
    }

    /** The writer thread: applies every waiting change, commits once, syncs per policy, then answers them. */
    private void writeLoop() {
        List<Write<?>> batch = new ArrayList<>();
        List<Object> results = new ArrayList<>();
        boolean stopping = false;
        while (!stopping) {
            try {
                batch.add(writes.take());
            } catch (InterruptedException e) {
                break;
            }
            writes.drainTo(batch);
            results.clear();
            for (Write<?> write : batch) {
                if (write == STOP) {
                    stopping = true;
                    results.add(null);
                    continue;
                }
                try {
                    results.add(write.change.get());
                } catch (RuntimeException e) {
                    results.add(e);
                }
            }
            RuntimeException commitFailure = null;
            try {
                store.commit();
                if (sync == SyncPolicy.EVERY_COMMIT) {
                    store.sync();
                }
            } catch (RuntimeException e) {
                commitFailure = e;
                log.error("history store {}: commit failed", file, e);
            }
            for (int i = 0; i < batch.size(); i++) {
                complete(batch.get(i), results.get(i), commitFailure);
            }
            batch.clear();
        }
        // submitted while closing: never applied
        List<Write<?>> late = new ArrayList<>();
        writes.drainTo(late);
        for (Write<?> write : late) {
            write.done.completeExceptionally(new IllegalStateException("the history store is closed"));
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> void complete(Write<T> write, Object result, RuntimeException commitFailure) {
        if (commitFailure != null) {
            write.done.completeExceptionally(commitFailure);
        } else if (result instanceof RuntimeException e) {
            write.done.completeExceptionally(e);
        } else {
            write.done.complete((T) result);
        }
    }

    @Override
    public CompletableFuture<Void> append(List<HistorySample> samples) {
        List<HistorySample> copy = List.copyOf(samples);
        return submit(() -> {
            for (HistorySample sample : copy) {
                MVMap<Long, byte[]> map = mapOf(sample.nodeId());
                long time = HistoryTime.ticksOf(sample.value());
                byte[] value = bytes.encode(sample.value());
                long[] newest = newestTimes.computeIfAbsent(map, EmbeddedHistoryStore::newestTime);
                if (time > newest[0]) {
                    map.append(time, value);
                    newest[0] = time;
                } else {
                    map.put(time, value); // at or before the newest: a replace or an insert in the middle
                }
            }
            return null;
        });
    }

    @Override
    public CompletableFuture<HistoryPage> read(HistoryQuery query) {
        if (closed) {
            return CompletableFuture.failedFuture(new IllegalStateException("the history store is closed"));
        }
        MVMap<Long, byte[]> map = maps.get(query.nodeId());
        if (map == null || query.isEmpty()) {
            return CompletableFuture.completedFuture(HistoryPage.EMPTY);
        }
        try {
            List<DataValue> values = new ArrayList<>();
            boolean more = false;
            Cursor<Long, byte[]> cursor = map.cursor(query.start(), null, query.backward());
            while (cursor.hasNext()) {
                long time = cursor.next();
                if (!query.contains(time)) {
                    break;
                }
                if (query.limit() > 0 && values.size() == query.limit()) {
                    more = true;
                    break;
                }
                values.add(DataValueBytes.decode(cursor.getValue()));
            }
            return CompletableFuture.completedFuture(new HistoryPage(values, more));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** The newest time in a map, Long.MIN_VALUE when empty. */
    private static long[] newestTime(MVMap<Long, byte[]> map) {
        Long last = map.lastKey();
        return new long[] {last == null ? Long.MIN_VALUE : last};
    }

    @Override
    public CompletableFuture<List<UpdateOutcome>> update(NodeId nodeId, UpdateMode mode, List<DataValue> values) {
        return update(nodeId, mode, values, null);
    }

    /** With {@code by} null nothing is kept for read-modified (the three-argument update). */
    @Override
    public CompletableFuture<List<UpdateOutcome>> update(NodeId nodeId, UpdateMode mode, List<DataValue> values,
            HistoryModification by) {
        List<DataValue> copy = List.copyOf(values);
        return submit(() -> {
            MVMap<Long, byte[]> map = mapOf(nodeId);
            newestTimes.remove(map); // may add a newer time: MVMap.append must never see an older one
            MVMap<String, byte[]> changes = by == null ? null : modifiedMapOf(nodeId);
            List<UpdateOutcome> outcomes = new ArrayList<>(copy.size());
            for (DataValue value : copy) {
                long time = HistoryTime.ticksOf(value);
                byte[] old = map.get(time);
                if (old != null && mode == UpdateMode.INSERT) {
                    outcomes.add(UpdateOutcome.ENTRY_EXISTS);
                } else if (old == null && mode == UpdateMode.REPLACE) {
                    outcomes.add(UpdateOutcome.NO_ENTRY_EXISTS);
                } else {
                    map.put(time, bytes.encode(value));
                    outcomes.add(old != null ? UpdateOutcome.REPLACED : UpdateOutcome.INSERTED);
                    if (changes != null) {
                        keep(changes, time, old != null ? DataValueBytes.decode(old) : value,
                                mode.modificationType(old != null), by);
                    }
                }
            }
            return outcomes;
        });
    }

    private MVMap<String, byte[]> modifiedMapOf(NodeId nodeId) {
        return modifiedMaps.computeIfAbsent(nodeId, id -> store.openMap(MODIFIED_PREFIX + id));
    }

    /** Adds a modified value after those kept at its time already (writer thread). */
    private static void keep(MVMap<String, byte[]> changes, long time, DataValue value, HistoryUpdateType type,
            HistoryModification by) {
        String prefix = EventKey.sortableTicks(time);
        String last = changes.lowerKey(time == Long.MAX_VALUE ? prefix + "g" : EventKey.sortableTicks(time + 1));
        long sequence = last != null && last.startsWith(prefix) ? HexFormat.fromHexDigitsToLong(last, 16, 32) + 1 : 1;
        changes.put(prefix + HEX.toHexDigits(sequence),
                ModifiedValueBytes.encode(value, new ModificationInfo(by.time(), type, by.userName())));
    }

    @Override
    public CompletableFuture<Long> delete(NodeId nodeId, long startTicks, long endTicks, HistoryModification by) {
        return submit(() -> {
            MVMap<Long, byte[]> map = maps.get(nodeId);
            if (map == null || startTicks >= endTicks) {
                return 0L;
            }
            newestTimes.remove(map); // may delete the newest time
            MVMap<String, byte[]> changes = modifiedMapOf(nodeId);
            List<Long> doomed = new ArrayList<>();
            Iterator<Long> keys = map.keyIterator(startTicks);
            while (keys.hasNext()) {
                long key = keys.next();
                if (key >= endTicks) {
                    break;
                }
                doomed.add(key);
            }
            for (Long key : doomed) {
                keep(changes, key, DataValueBytes.decode(map.remove(key)), HistoryUpdateType.Delete, by);
            }
            return (long) doomed.size();
        });
    }

    @Override
    public CompletableFuture<ModifiedPage> readModified(HistoryQuery query, ModifiedValue after) {
        if (closed) {
            return CompletableFuture.failedFuture(new IllegalStateException("the history store is closed"));
        }
        MVMap<String, byte[]> changes = modifiedMaps.get(query.nodeId());
        if (changes == null || query.isEmpty()) {
            return CompletableFuture.completedFuture(ModifiedPage.EMPTY);
        }
        try {
            String from = query.backward()
                    ? (query.start() == Long.MAX_VALUE ? null : EventKey.sortableTicks(query.start() + 1))
                    : EventKey.sortableTicks(query.start());
            List<ModifiedValue> found = new ArrayList<>();
            boolean more = false;
            Cursor<String, byte[]> cursor = changes.cursor(from, null, query.backward());
            while (cursor.hasNext()) {
                String key = cursor.next();
                long ticks = HexFormat.fromHexDigitsToLong(key, 0, 16) ^ Long.MIN_VALUE;
                if (query.backward() ? ticks <= query.end() : ticks >= query.end()) {
                    break;
                }
                Object[] decoded = ModifiedValueBytes.decode(cursor.getValue());
                ModifiedValue value = new ModifiedValue(ticks, HexFormat.fromHexDigitsToLong(key, 16, 32),
                        (DataValue) decoded[0], (ModificationInfo) decoded[1]);
                if (!query.contains(ticks) || (after != null && !value.isAfter(after, query.backward()))) {
                    continue;
                }
                if (query.limit() > 0 && found.size() == query.limit()) {
                    more = true;
                    break;
                }
                found.add(value);
            }
            return CompletableFuture.completedFuture(new ModifiedPage(found, more));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public CompletableFuture<Long> delete(NodeId nodeId, long startTicks, long endTicks) {
        return submit(() -> {
            MVMap<Long, byte[]> map = maps.get(nodeId);
            newestTimes.remove(map); // may delete the newest time
            return map == null || startTicks >= endTicks ? 0L : deleteRange(map, startTicks, endTicks);
        });
    }

    /** Deletes the keys in [start, end) of a map; the keys are collected first, then removed. */
    private static long deleteRange(MVMap<Long, byte[]> map, long start, long end) {
        List<Long> doomed = new ArrayList<>();
        Iterator<Long> keys = map.keyIterator(start);
        while (keys.hasNext()) {
            long key = keys.next();
            if (key >= end) {
                break;
            }
            doomed.add(key);
        }
        for (Long key : doomed) {
            map.remove(key);
        }
        return doomed.size();
    }

    @Override
    public CompletableFuture<Void> appendEvents(List<EventSample> samples) {
        List<EventSample> copy = List.copyOf(samples);
        return submit(() -> {
            events.append(copy);
            return null;
        });
    }

    @Override
    public CompletableFuture<EventPage> readEvents(EventQuery query) {
        if (closed) {
            return CompletableFuture.failedFuture(new IllegalStateException("the history store is closed"));
        }
        try {
            return CompletableFuture.completedFuture(events.read(query));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public CompletableFuture<List<Boolean>> deleteEvents(NodeId notifier, List<ByteString> eventIds) {
        List<ByteString> copy = List.copyOf(eventIds);
        return submit(() -> events.delete(notifier, copy));
    }

    @Override
    public CompletableFuture<Long> trim(HistoryRetention retention, long nowTicks) {
        return submit(() -> {
            newestTimes.clear(); // may delete every value of a node
            long deleted = 0;
            long oldest = retention.oldestTicks(nowTicks);
            if (oldest != Long.MIN_VALUE) {
                for (MVMap<Long, byte[]> map : maps.values()) {
                    deleted += deleteRange(map, Long.MIN_VALUE, oldest);
                }
                deleted += events.trim(oldest);
                String end = EventKey.sortableTicks(oldest);
                for (MVMap<String, byte[]> changes : modifiedMaps.values()) {
                    List<String> doomed = new ArrayList<>();
                    Iterator<String> keys = changes.keyIterator(null);
                    while (keys.hasNext()) {
                        String key = keys.next();
                        if (key.compareTo(end) >= 0) {
                            break;
                        }
                        doomed.add(key);
                    }
                    doomed.forEach(changes::remove);
                    deleted += doomed.size();
                }
            }
            if (retention.maxBytes() > 0) {
                deleted += trimToSize(retention.maxBytes());
            }
            return deleted;
        });
    }

    /**
     * While the file is larger than {@code maxBytes}, deletes the oldest share of every node's values that
     * the excess stands for, then commits and compacts so that the file can shrink.
     */
    private long trimToSize(long maxBytes) {
        long deleted = 0;
        for (int round = 0; round < 4; round++) {
            store.commit();
            store.compactFile(1_000);
            long size = store.getFileStore().size();
            if (size <= maxBytes) {
                break;
            }
            // share of values to drop: the excess plus a margin, since pages are not freed one by one
            double share = Math.min(1.0, (size - maxBytes) / (double) size + 0.05);
            for (MVMap<Long, byte[]> map : maps.values()) {
                long count = (long) Math.ceil(map.sizeAsLong() * share);
                if (count > 0) {
                    Long cut = map.getKey(Math.min(count, map.sizeAsLong()) - 1);
                    deleted += deleteRange(map, Long.MIN_VALUE, cut + 1);
                }
            }
        }
        return deleted;
    }

    /** How many values the store holds, all nodes together. */
    public long size() {
        long total = 0;
        for (MVMap<Long, byte[]> map : maps.values()) {
            total += map.sizeAsLong();
        }
        return total;
    }

    /** Finishes the queued changes, commits, and closes the file. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        writes.add(STOP);
        try {
            writer.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        store.close();
        log.info("history store {} closed", file);
    }
}
