package dev.opcua.stack.server.subscriptions.items;

import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.server.nodes.NodeManagers;
import dev.opcua.stack.server.nodes.OperationContext;
import dev.opcua.stack.server.subscriptions.sampling.SamplingScheduler;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Samples the enabled, polled items of all subscriptions on one {@link SamplingScheduler} (DESIGN.md
 * section 5): on each tick of an interval group, items whose manager gave a
 * {@link dev.opcua.stack.server.nodes.SampleSource} are sampled from it at once, and the others with
 * one batched {@link NodeManagers#read} (the managers get one call each), whose results are applied
 * to the items when the read completes.
 *
 * <p>The read is asynchronous, so a slow node manager holds no sampler thread; a group whose
 * previous read has not completed skips its tick (counted in {@link #skippedTicks()}) rather than
 * piling reads onto the manager.
 */
final class ItemSampler implements SamplingScheduler.BatchSampler<MonitoredItem>, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ItemSampler.class);

    private final NodeManagers managers;
    /** Null for a manual sampler (tests), whose groups tick only when {@link #tickAll()} is called. */
    private final SamplingScheduler<MonitoredItem> scheduler;
    private final ConcurrentHashMap<Long, Set<MonitoredItem>> manualGroups;
    /** Per interval group: whether its read is in flight. Groups are few (one per distinct interval). */
    private final ConcurrentHashMap<Long, AtomicBoolean> inFlight = new ConcurrentHashMap<>();
    private final LongAdder reads = new LongAdder();
    private final LongAdder skipped = new LongAdder();
    private final LongAdder sourced = new LongAdder();

    ItemSampler(NodeManagers managers, String threadName) {
        this.managers = managers;
        this.manualGroups = null;
        this.scheduler = new SamplingScheduler<>(threadName, this);
    }

    private ItemSampler(NodeManagers managers) {
        this.managers = managers;
        this.manualGroups = new ConcurrentHashMap<>();
        this.scheduler = null;
    }

    /** A sampler without thread whose groups tick when {@link #tickAll()} is called: deterministic tests. */
    static ItemSampler manual(NodeManagers managers) {
        return new ItemSampler(managers);
    }

    /** Samples the item every {@code intervalMillis} from the next tick of its group on. */
    SamplingScheduler.Registration add(double intervalMillis, MonitoredItem item) {
        long intervalNanos = Math.max(1L, Math.round(intervalMillis * 1_000_000d));
        if (scheduler != null) {
            return scheduler.add(intervalNanos, item);
        }
        Set<MonitoredItem> group = manualGroups.computeIfAbsent(intervalNanos, k -> ConcurrentHashMap.newKeySet());
        group.add(item);
        return new SamplingScheduler.Registration() {
            @Override
            public void cancel() {
                group.remove(item);
            }

            @Override
            public long intervalNanos() {
                return intervalNanos;
            }
        };
    }

    /** The scheduler; null for a manual sampler. */
    SamplingScheduler<MonitoredItem> scheduler() {
        return scheduler;
    }

    /** Items registered now. */
    long memberCount() {
        if (scheduler != null) {
            return scheduler.memberCount();
        }
        long count = 0;
        for (Set<MonitoredItem> group : manualGroups.values()) {
            count += group.size();
        }
        return count;
    }

    /** Manual sampler: one tick of every group now, in the calling thread. */
    void tickAll() {
        for (Map.Entry<Long, Set<MonitoredItem>> group : manualGroups.entrySet()) {
            if (!group.getValue().isEmpty()) {
                sample(group.getKey(), new ArrayList<>(group.getValue()), System.nanoTime());
            }
        }
    }

    /** Group reads started. */
    long reads() {
        return reads.sum();
    }

    /** Samples taken from the items' sample sources instead of a read. */
    long sourcedSamples() {
        return sourced.sum();
    }

    /** Group reads skipped because the group's previous read was still running. */
    long skippedTicks() {
        return skipped.sum();
    }

    @Override
    public void sample(long intervalNanos, List<MonitoredItem> members, long deadlineNanos) {
        if (members.isEmpty()) {
            return;
        }
        // items with a sample source are sampled here and now; the rest by one read of the group
        int n = members.size();
        DateTime tickTime = null;
        int toRead = 0;
        for (int i = 0; i < n; i++) {
            MonitoredItem item = members.get(i);
            if (item.sampleSource() != null) {
                if (tickTime == null) {
                    tickTime = DateTime.currentMillisecond();
                }
                sampleFromSource(item, tickTime);
            } else {
                toRead++;
            }
        }
        sourced.add(n - toRead);
        if (toRead == 0) {
            return;
        }
        AtomicBoolean busy = inFlight.computeIfAbsent(intervalNanos, k -> new AtomicBoolean());
        if (!busy.compareAndSet(false, true)) {
            skipped.increment();
            return;
        }
        // into arrays: the scheduler may reuse its list once this returns, and the read completes later
        MonitoredItem[] items = new MonitoredItem[toRead];
        ReadValueId[] reads = new ReadValueId[toRead];
        for (int i = 0, j = 0; j < toRead; i++) {
            MonitoredItem item = members.get(i);
            if (item.sampleSource() == null) {
                items[j] = item;
                reads[j++] = item.itemToMonitor();
            }
        }
        this.reads.increment();
        CompletableFuture<DataValue[]> read;
        try {
            read = managers.read(OperationContext.INTERNAL, reads, 0, TimestampsToReturn.Both);
        } catch (RuntimeException e) {
            busy.set(false);
            log.warn("sampling {} items of the {} ns group failed", items.length, intervalNanos, e);
            return;
        }
        read.whenComplete((values, failure) -> {
            try {
                if (values != null) {
                    apply(items, values);
                } else {
                    log.warn("sampling {} items of the {} ns group failed", items.length, intervalNanos, failure);
                }
            } finally {
                busy.set(false);
            }
        });
    }

    private static void sampleFromSource(MonitoredItem item, DateTime tickTime) {
        try {
            item.sampleFromSource(tickTime);
        } catch (RuntimeException e) { // one item's owner failing must not starve the others
            log.warn("sampling monitored item {} failed", item.id(), e);
        }
    }

    private static void apply(MonitoredItem[] items, DataValue[] values) {
        for (int i = 0; i < items.length; i++) {
            try {
                items[i].onSample(values[i]);
            } catch (RuntimeException e) { // one item's owner failing must not starve the others
                log.warn("applying a sample to monitored item {} failed", items[i].id(), e);
            }
        }
    }

    @Override
    public void close() {
        if (scheduler != null) {
            scheduler.close();
        }
    }
}
