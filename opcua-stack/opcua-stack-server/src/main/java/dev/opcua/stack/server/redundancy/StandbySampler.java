package dev.opcua.stack.server.redundancy;

import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.MonitoringMode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.server.subscriptions.ItemContainer;
import dev.opcua.stack.server.subscriptions.ItemContainerFactory;
import dev.opcua.stack.server.subscriptions.ItemOwner;
import dev.opcua.stack.server.subscriptions.NotificationProducer;
import dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Standby sampling of a HotAndMirrored server (Part 4, 6.6.2.4.5: every server of the set is active): for each
 * subscription of a session that a partner serves, this server keeps sampling-only copies of its data items, so
 * that the values that change between the partner's last write of the session and this server's takeover are not
 * sampled by nobody.
 *
 * <ul>
 *   <li>Every {@link #REFRESH} (and at start) the {@code opcua-standby-sampler} thread reads the subscription
 *       definitions of the sessions other servers own ({@link SessionStateStore#definitionsOwnedByOthers}) and
 *       keeps, per partner subscription, a standby set: the items of its definition (same MonitoredItemIds,
 *       node, attribute, sampling interval, filter) in monitoring mode as defined (Disabled ones left out),
 *       attached to no session, publishing nothing, each queueing with both timestamps its last values, as
 *       many as {@link #valuesPerItem} (the window at its sampling interval, at most its queue size), discarding
 *       the oldest. A definition that changed is replaced,
 *       one that left the store (or whose session this server owns now) is dropped with its items.</li>
 *   <li>At a takeover {@link #complete} appends per item the standby values newer than the stored ones
 *       ({@link StandbyValues}) and {@link #drop} then deletes the session's standby sets.</li>
 * </ul>
 *
 * Memory: at most {@link #valuesPerItem} DataValues per standby item, never more than its queue size nor
 * {@link #MAX_VALUES_PER_ITEM} (about 100 bytes each for a scalar number).
 * Owned by the {@link SessionMirror}, which starts and closes it.
 */
final class StandbySampler implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(StandbySampler.class);

    /** How often the partners' definitions are read. */
    static final Duration REFRESH = Duration.ofSeconds(1);
    /** The most values a standby item keeps, whatever the window and the sampling interval. */
    static final int MAX_VALUES_PER_ITEM = 1_000;
    /** The thread's name. */
    static final String THREAD = "opcua-standby-sampler";

    private record Key(NodeId sessionId, long subscriptionId) {
    }

    /** One partner subscription's standby items: an {@link ItemOwner} with no session, whose items never report. */
    private static final class Standby implements ItemOwner {

        final byte[] definition;
        final DurableSubscriptionRecord record;
        ItemContainer items;

        Standby(byte[] definition, DurableSubscriptionRecord record) {
            this.definition = definition;
            this.record = record;
        }

        @Override
        public long subscriptionId() {
            return record.subscriptionId();
        }

        @Override
        public double publishingIntervalMillis() {
            return record.publishingInterval();
        }

        @Override
        public void notificationsReady(NotificationProducer item) {
            // nothing is published: the values stay queued until a takeover or until they are discarded
        }

        @Override
        public ItemContainer items() {
            return items;
        }

        @Override
        public int durableQueueSizeLimit() {
            return MAX_VALUES_PER_ITEM;
        }

        @Override
        public int remainingItemCapacity() {
            return 0; // no CreateMonitoredItems on a standby set
        }
    }

    private final SessionStateStore store;
    private final String owner;
    private final ItemContainerFactory containers;
    private final Duration window;
    private final ScheduledExecutorService thread;

    // guarded by this
    private final Map<Key, Standby> standing = new HashMap<>();
    /** Sessions taken over here whose store rows may still name their former owner in a refresh under way. */
    private final Set<NodeId> takenOver = new HashSet<>();
    private boolean closed;

    private volatile String readFailure;
    private final AtomicLong appendedValues = new AtomicLong();
    private volatile int standbyItems;

    /**
     * @param owner this server's ServerUri: its own sessions are not shadowed
     * @param window how long a standby item's values should reach back, at its sampling interval
     */
    StandbySampler(SessionStateStore store, String owner, ItemContainerFactory containers, Duration window) {
        this.store = Objects.requireNonNull(store, "store");
        this.owner = Objects.requireNonNull(owner, "owner");
        this.containers = Objects.requireNonNull(containers, "containers");
        this.window = Objects.requireNonNull(window, "window");
        this.thread = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread t = new Thread(task, THREAD);
            t.setDaemon(true);
            return t;
        });
    }

    void start() {
        thread.scheduleWithFixedDelay(this::refresh, 0, REFRESH.toMillis(), TimeUnit.MILLISECONDS);
        log.info("{} samples the items of its partners' sessions while standing by, {} ms of values per item"
                + " (at most {})", owner, window.toMillis(), MAX_VALUES_PER_ITEM);
    }

    /**
     * The values a standby item keeps: enough for the window at the item's sampling interval, one more for the
     * value current at its start; no more than the item's queue size (a takeover keeps no more of them), nor
     * {@link #MAX_VALUES_PER_ITEM}. Items fed by their node manager's pushes (interval 0) keep their queue size.
     */
    int valuesPerItem(double samplingIntervalMillis, int queueSize) {
        int bound = Math.max(1, Math.min(MAX_VALUES_PER_ITEM, queueSize));
        if (samplingIntervalMillis <= 0) {
            return bound;
        }
        double values = Math.ceil(window.toMillis() / samplingIntervalMillis) + 1;
        return (int) Math.max(1, Math.min(bound, values));
    }

    private void refresh() {
        List<MirroredDefinition> definitions;
        try {
            definitions = store.definitionsOwnedByOthers(owner);
        } catch (RuntimeException e) {
            if (readFailure == null) {
                log.warn("{} cannot read its partners' subscriptions from {} ({}): its standby items stay as they"
                        + " were", owner, store, e.getMessage());
            }
            readFailure = e.getMessage() == null ? e.toString() : e.getMessage();
            return;
        }
        if (readFailure != null) {
            log.info("{} reads its partners' subscriptions from {} again", owner, store);
            readFailure = null;
        }
        try {
            apply(definitions);
        } catch (RuntimeException e) { // never let the periodic task die
            log.warn("standby sampling of the partners' subscriptions failed", e);
        }
    }

    private synchronized void apply(List<MirroredDefinition> definitions) {
        if (closed) {
            return;
        }
        Set<NodeId> listedSessions = new HashSet<>();
        Set<Key> listed = new HashSet<>();
        int created = 0;
        for (MirroredDefinition d : definitions) {
            listedSessions.add(d.sessionId());
            if (takenOver.contains(d.sessionId())) {
                continue;
            }
            Key key = new Key(d.sessionId(), d.subscriptionId());
            listed.add(key);
            Standby existing = standing.get(key);
            if (existing != null && Arrays.equals(existing.definition, d.definition())) {
                continue;
            }
            if (existing != null) {
                existing.items.deleteAll();
            }
            Standby standby = create(d);
            if (standby == null) {
                standing.remove(key);
            } else {
                standing.put(key, standby);
                created++;
            }
        }
        takenOver.retainAll(listedSessions);
        int dropped = 0;
        for (Iterator<Map.Entry<Key, Standby>> it = standing.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Key, Standby> entry = it.next();
            if (!listed.contains(entry.getKey())) {
                entry.getValue().items.deleteAll();
                it.remove();
                dropped++;
            }
        }
        if (created > 0 || dropped > 0) {
            countItems();
            log.info("{} stands by for {} partner subscriptions ({} new or changed, {} dropped), {} items sampled",
                    owner, standing.size(), created, dropped, standbyItems);
        }
    }

    /** The standby set of a partner subscription, its items started; null (logged) when it cannot be made. */
    private Standby create(MirroredDefinition d) {
        DurableSubscriptionRecord record;
        try {
            record = MirroredSubscriptionCodec.decodeDefinition(d.definition());
        } catch (RuntimeException e) {
            log.warn("subscription {} of partner session {} cannot be read: it is not sampled here ({})",
                    d.subscriptionId(), d.sessionId(), e.getMessage());
            return null;
        }
        List<DurableSubscriptionRecord.Item> items = new ArrayList<>(record.items().size());
        for (DurableSubscriptionRecord.Item i : record.items()) {
            if (i.event() || i.mode() == MonitoringMode.Disabled) {
                continue; // events are not sampled; a disabled item samples nothing on the partner either
            }
            items.add(new DurableSubscriptionRecord.Item(i.monitoredItemId(), i.clientHandle(), i.itemToMonitor(),
                    i.mode(), i.samplingInterval(), valuesPerItem(i.samplingInterval(), i.queueSize()), true, i.filter(),
                    TimestampsToReturn.Both, false, List.of(), null, List.of()));
        }
        Standby standby = new Standby(d.definition(), record);
        standby.items = Objects.requireNonNull(containers.create(standby), "the item container factory returned null");
        standby.items.restore(items);
        return standby;
    }

    private void countItems() {
        int count = 0;
        for (Standby standby : standing.values()) {
            count += standby.items.size();
        }
        standbyItems = count;
    }

    /**
     * The subscriptions of a session being taken over, their items' queues completed with what the standby items
     * sampled after the stored state's newest values ({@link StandbyValues}); records without a standby set are
     * returned as stored.
     */
    synchronized List<DurableSubscriptionRecord> complete(NodeId sessionId, List<DurableSubscriptionRecord> stored) {
        List<DurableSubscriptionRecord> completed = new ArrayList<>(stored.size());
        int appended = 0;
        for (DurableSubscriptionRecord record : stored) {
            Standby standby = standing.get(new Key(sessionId, record.subscriptionId()));
            if (standby == null) {
                completed.add(record);
                continue;
            }
            StandbyValues.Completed c = StandbyValues.append(record, standby.items.snapshot());
            completed.add(c.record());
            appended += c.appended();
        }
        appendedValues.addAndGet(appended);
        if (appended > 0) {
            log.info("session {} taken over with {} values sampled here while standing by", sessionId, appended);
        }
        return completed;
    }

    /** Deletes the standby sets of a session this server now serves. */
    synchronized void drop(NodeId sessionId) {
        takenOver.add(sessionId);
        boolean any = standing.entrySet().removeIf(entry -> {
            if (!entry.getKey().sessionId().equals(sessionId)) {
                return false;
            }
            entry.getValue().items.deleteAll();
            return true;
        });
        if (any) {
            countItems();
        }
    }

    /** Partner subscriptions with a standby set now. */
    synchronized int standbySubscriptions() {
        return standing.size();
    }

    /** Items sampled for the partners' sessions now. */
    int standbyItems() {
        return standbyItems;
    }

    /** Values appended at takeovers since the start. */
    long appendedValues() {
        return appendedValues.get();
    }

    /** Stops the thread and deletes every standby item. */
    @Override
    public void close() {
        thread.shutdownNow();
        synchronized (this) {
            closed = true;
            standing.values().forEach(standby -> standby.items.deleteAll());
            standing.clear();
            standbyItems = 0;
        }
    }
}
