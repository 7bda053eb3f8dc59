package dev.opcua.stack.server.subscriptions.items;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.enumerated.DeadbandType;
import dev.opcua.stack.core.types.enumerated.MonitoringMode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.EventFieldList;
import dev.opcua.stack.core.types.structured.MonitoredItemNotification;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.server.nodes.NumericRange;
import dev.opcua.stack.server.nodes.SampleSource;
import dev.opcua.stack.server.subscriptions.ItemOwner;
import dev.opcua.stack.server.subscriptions.sampling.SamplingScheduler;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A data-change monitored item (Part 4, 5.12.1): samples an attribute of a node, keeps the samples
 * that pass its DataChangeFilter (7.22.2) in a bounded queue (5.12.1.5) and hands them to its
 * subscription's publishing cycle.
 *
 * <ul>
 *   <li>Monitoring mode (5.12.1.3): Disabled is neither sampled nor queued (the queue is cleared);
 *       Sampling queues without reporting, except what a triggering item releases (5.12.1.6);
 *       Reporting reports. The first sample after creation or enabling is always queued.</li>
 *   <li>Samples come from the shared sampler (batched reads) or, for sampling interval 0 on a node
 *       whose manager pushes changes, from the {@link DataChangeBroker}.</li>
 *   <li>When the queue becomes reportable the item calls {@link ItemOwner#notificationsReady} once;
 *       a flag remembers that it did until {@link #drain} leaves nothing reportable, so the owner
 *       hears of each item once per batch of notifications, never per sample.</li>
 * </ul>
 *
 * <p>Locking: the sample path (sampler, broker, drain) takes only this item's monitor, briefly;
 * service calls (mode, parameters, links, delete) are serialized on a second per-item lock that the
 * sample path never takes, under which the item registers with the sampler or the broker. The
 * owner and triggered items are called with no lock held.
 */
public final class MonitoredItem extends MonitoredItemBase {

    private static final Logger log = LoggerFactory.getLogger(MonitoredItem.class);
    private static final DataValue FAILED_SAMPLE = DataValue.ofStatus(StatusCode.of(StatusCodes.BadInternalError));

    private final NumericRange indexRange;
    private final boolean valueAttribute;
    /** The node's manager when it wants to hear about monitoring (Value attribute only), else null. */
    private final MonitoringAware aware;
    /** Where the sampler reads the value directly; null: sampled through the managers' Read. */
    private final SampleSource sampleSource;

    // guarded by this
    private long clientHandle;
    private double samplingInterval;
    private boolean discardOldest;
    private ChangeFilter filter;
    private TimestampsToReturn timestamps;
    /**
     * The queue of size 1 (the usual one): its value, null when empty; unused while {@link #ring} is set. An item
     * of size 1 keeps no queue object of its own.
     */
    private DataValue single;
    /** The queue of a size above 1, else null. */
    private ValueQueue ring;
    /**
     * The last value queued, as sampled: what the filter compares with (Part 4, 7.22.2 "last cached value"). For
     * a value from the sample source the source's own instance (equal in value, status and source timestamp),
     * so that an idle item holds no copy of the value it last reported.
     */
    private DataValue lastQueued;
    /** The sample source's answer last tick: the same instance again means the same value. */
    private DataValue lastSourced;

    // guarded by control
    private SamplingScheduler.Registration registration;
    private boolean fedByBroker;
    private double monitoredInterval = -1;

    MonitoredItem(long id, ItemOwner owner, ItemContext context, ReadValueId itemToMonitor, NumericRange indexRange,
            MonitoringMode mode, ItemParameters parameters) {
        super(id, owner, context, context.withStoredNodeId(itemToMonitor));
        this.indexRange = indexRange;
        this.valueAttribute = itemToMonitor.attributeId() == AttributeIds.Value;
        this.aware = context.awareManagerOf(this.itemToMonitor.nodeId(), itemToMonitor.attributeId());
        this.sampleSource = context.sampleSourceOf(this.itemToMonitor);
        this.mode = mode;
        this.clientHandle = parameters.clientHandle();
        this.samplingInterval = parameters.samplingInterval();
        this.discardOldest = parameters.discardOldest();
        this.filter = parameters.filter();
        this.timestamps = parameters.timestamps();
        this.ring = parameters.queueSize() > 1 ? new ValueQueue(parameters.queueSize()) : null;
    }

    @Override
    public synchronized long clientHandle() {
        return clientHandle;
    }

    @Override
    public synchronized MonitoringMode monitoringMode() {
        return mode;
    }

    /** The revised sampling interval in ms; 0 when the node's manager pushes changes. */
    public synchronized double samplingInterval() {
        return samplingInterval;
    }

    @Override
    public synchronized int queueSize() {
        return ring == null ? 1 : ring.capacity();
    }

    @Override
    public synchronized boolean discardOldest() {
        return discardOldest;
    }

    public synchronized TimestampsToReturn timestampsToReturn() {
        return timestamps;
    }

    @Override
    public synchronized int queuedNotifications() {
        return ring != null ? ring.size() : single == null ? 0 : 1;
    }

    /** Whether the item is fed by its node manager's pushes instead of being sampled. */
    public boolean isFedByBroker() {
        synchronized (control) {
            return fedByBroker;
        }
    }

    synchronized ChangeFilter filter() {
        return filter;
    }

    /** The last value queued, as sampled; null before the first or after disabling. */
    synchronized DataValue lastSample() {
        return lastQueued;
    }

    @Override
    synchronized dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionRecord.Item snapshot() {
        return new dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionRecord.Item(id, clientHandle,
                itemToMonitor, mode, samplingInterval, queueSize(), discardOldest, requestedFilter, timestamps,
                false, ring != null ? ring.snapshot() : single == null ? List.of() : List.of(single), lastQueued,
                List.of());
    }

    /**
     * A restored durable item (Part 4, 6.8), before it is shared: its queued values, oldest first, and the
     * last value it queued, against which the first sample after the restart is compared by the filter.
     */
    synchronized void restoreQueue(List<DataValue> values, DataValue last) {
        for (DataValue value : values) {
            enqueue(value);
        }
        lastQueued = last;
    }

    /** Starts a restored item: reports its queue, then samples (no first read: see {@link #restoreQueue}). */
    void startRestored() {
        boolean signal;
        synchronized (this) {
            signal = isReportable() && signalOnce();
        }
        if (signal) {
            owner.notificationsReady(this);
        }
        synchronized (control) {
            boolean enabled;
            synchronized (this) {
                enabled = !deleted && mode != MonitoringMode.Disabled;
            }
            if (enabled && monitoredInterval < 0) {
                startSource();
            }
        }
    }

    MonitoringAware aware() {
        return aware;
    }

    // ---- sample path -------------------------------------------------------------------------

    /**
     * A new sample of the attribute (sampler thread, broker reporter or the read at creation):
     * queued when it passes the filter; may signal the owner and trigger linked items.
     */
    void onSample(DataValue sample) {
        if (sample != null) {
            offer(sample, sample);
        }
    }

    /**
     * {@link #onSample} of {@code sample}, keeping {@code kept} as the value the filter compares the next one with:
     * {@code sample} itself, or the source's instance it was made from (equal but for the server timestamp).
     */
    private void offer(DataValue sample, DataValue kept) {
        boolean signal;
        int dropped;
        synchronized (this) {
            if (deleted || mode == MonitoringMode.Disabled) {
                return;
            }
            if (lastQueued != null && !filter.isChange(lastQueued, sample)) {
                if (kept != sample && kept != lastQueued && filter.deadbandType() == DeadbandType.None) {
                    // equal for the filter: the source's instance replaces a copy (the create read's)
                    lastQueued = kept;
                }
                return;
            }
            lastQueued = kept;
            dropped = enqueue(stamp(sample));
            signal = isReportable() && signalOnce();
        }
        if (dropped > 0) {
            context.counters.notificationsDropped(dropped);
        }
        if (signal) {
            owner.notificationsReady(this);
        }
        triggerLinked();
    }

    /** The direct sample source, or null when the item is sampled through the managers' Read. */
    SampleSource sampleSource() {
        return sampleSource;
    }

    /**
     * A sampling tick through the {@link #sampleSource()} (sampler thread): a value the source
     * answered with last tick again (same instance) is unchanged and costs no filter; another gets
     * the tick's server timestamp, as a Read at that time would, and goes through {@link #onSample}.
     */
    void sampleFromSource(DateTime tickTime) {
        DataValue sourced;
        try {
            sourced = sampleSource.sample();
        } catch (RuntimeException e) { // against the contract; the item reports it as a Read would
            log.warn("sample source of monitored item {} failed", id, e);
            sourced = FAILED_SAMPLE;
        }
        if (sourced == null) {
            sourced = FAILED_SAMPLE;
        }
        synchronized (this) {
            if (sourced == lastSourced) {
                return;
            }
            lastSourced = sourced;
        }
        offer(DataValue.of(sourced.value(), sourced.statusCode(), sourced.sourceTimestamp(),
                sourced.sourcePicoseconds(), tickTime, 0), sourced);
    }

    /**
     * TransferSubscriptions with sendInitialValues (Part 4, 5.13.7): a reporting item with an empty
     * queue queues its last value again, so that the new session learns the current value.
     */
    void resendLastValue() {
        boolean signal;
        synchronized (this) {
            if (deleted || mode != MonitoringMode.Reporting || lastQueued == null || !queueEmpty()) {
                return;
            }
            enqueue(stamp(lastQueued));
            signal = signalOnce();
        }
        if (signal) {
            owner.notificationsReady(this);
        }
    }

    /** A value the node manager pushed through the broker: the item's index range applies. */
    void onPushedValue(DataValue value) {
        if (indexRange == null) {
            onSample(value);
            return;
        }
        DataValue selected;
        try {
            selected = DataValue.of(indexRange.select(value.value()), value.statusCode(), value.sourceTimestamp(),
                    value.sourcePicoseconds(), value.serverTimestamp(), value.serverPicoseconds());
        } catch (UaException e) {
            selected = DataValue.of(null, e.statusCode(), value.sourceTimestamp(), value.sourcePicoseconds(),
                    value.serverTimestamp(), value.serverPicoseconds());
        }
        onSample(selected);
    }

    @Override
    boolean queueEmpty() {
        return ring != null ? ring.isEmpty() : single == null;
    }

    /**
     * Queues a value; when full, discards one per the policy (size 1: the newest value replaces the one queued,
     * without the overflow bit, Part 4, 5.12.1.5). Guarded by this.
     *
     * @return how many values were discarded (0 or 1)
     */
    private int enqueue(DataValue value) {
        if (ring != null) {
            return ring.add(value, discardOldest);
        }
        int dropped = single == null ? 0 : 1;
        single = value;
        return dropped;
    }

    /** Removes and returns the oldest value, or null when empty. Guarded by this. */
    private DataValue dequeue() {
        if (ring != null) {
            return ring.poll();
        }
        DataValue value = single;
        single = null;
        return value;
    }

    /** A new queue size (ModifyMonitoredItems), discarding per the policy what no longer fits. Guarded by this. */
    private int resizeQueue(int size) {
        if (size == queueSize()) {
            return 0;
        }
        ValueQueue resized = ring;
        if (resized == null) {
            resized = new ValueQueue(1);
            if (single != null) {
                resized.add(single, discardOldest);
            }
        }
        int dropped = resized.resize(size, discardOldest);
        if (size > 1) {
            ring = resized;
            single = null;
        } else {
            ring = null;
            single = resized.poll();
        }
        return dropped;
    }

    /** Keeps the timestamps the client asked for (Part 4, 7.40); a source timestamp only for the Value attribute. */
    private DataValue stamp(DataValue sample) {
        TimestampsToReturn which = timestamps;
        boolean source = valueAttribute && (which == TimestampsToReturn.Source || which == TimestampsToReturn.Both);
        boolean server = which == TimestampsToReturn.Server || which == TimestampsToReturn.Both;
        boolean sourceOk = source || sample.sourceTimestamp() == null;
        boolean serverOk = server ? sample.serverTimestamp() != null : sample.serverTimestamp() == null;
        if (sourceOk && serverOk && (source || sample.sourcePicoseconds() == 0)) {
            return sample;
        }
        DateTime serverTime = !server ? null : sample.serverTimestamp() != null ? sample.serverTimestamp()
                : DateTime.currentMillisecond();
        return DataValue.of(sample.value(), sample.statusCode(), source ? sample.sourceTimestamp() : null,
                source ? sample.sourcePicoseconds() : 0, serverTime, server ? sample.serverPicoseconds() : 0);
    }

    @Override
    int moveQueued(List<MonitoredItemNotification> dataChanges, List<EventFieldList> events, int max) {
        int moved = 0;
        while (moved < max && !queueEmpty()) {
            dataChanges.add(new MonitoredItemNotification(clientHandle, dequeue()));
            moved++;
        }
        return moved;
    }

    // ---- service path ------------------------------------------------------------------------

    /** After the item was added to its container: the first sample (from the create read), then sampling. */
    void start(DataValue initial) {
        onSample(initial); // no lock held: it may call the owner
        synchronized (control) {
            boolean enabled;
            synchronized (this) {
                enabled = !deleted && mode != MonitoringMode.Disabled;
            }
            if (enabled && monitoredInterval < 0) {
                startSource();
            }
        }
    }

    /** ModifyMonitoredItems (Part 4, 5.12.3): new parameters; a new sampling interval moves the item to another group. */
    void modify(ItemParameters parameters) {
        synchronized (control) {
            int dropped;
            boolean moved;
            synchronized (this) {
                if (deleted) {
                    return;
                }
                clientHandle = parameters.clientHandle();
                discardOldest = parameters.discardOldest();
                filter = parameters.filter();
                timestamps = parameters.timestamps();
                moved = samplingInterval != parameters.samplingInterval() && mode != MonitoringMode.Disabled;
                samplingInterval = parameters.samplingInterval();
                dropped = resizeQueue(parameters.queueSize());
                if (!isReportable()) {
                    triggered = false;
                }
            }
            if (moved) {
                stopSource();
                startSource();
            }
            if (dropped > 0) {
                context.counters.notificationsDropped(dropped);
            }
        }
    }

    @Override
    void discardQueued() {
        if (ring != null) {
            ring.clear();
        }
        single = null;
        lastQueued = null; // the first sample after enabling is always reported
        lastSourced = null;
    }

    @Override
    boolean needsFirstSample() {
        return true;
    }

    /** Guarded by control: registers with the sampler, or with the broker for an interval of 0. */
    @Override
    void startSource() {
        double interval;
        synchronized (this) {
            interval = samplingInterval;
        }
        if (interval == 0) {
            context.broker.add(this);
            fedByBroker = true;
        } else {
            registration = context.sampler.add(interval, this);
        }
        monitoredInterval = interval;
        if (aware != null) {
            try {
                aware.monitoringStarted(nodeId(), interval);
            } catch (RuntimeException e) {
                log.warn("{}.monitoringStarted({}) failed", aware, nodeId(), e);
            }
        }
    }

    /** Guarded by control. */
    @Override
    void stopSource() {
        if (monitoredInterval < 0) {
            return;
        }
        if (registration != null) {
            registration.cancel();
            registration = null;
        }
        if (fedByBroker) {
            context.broker.remove(this);
            fedByBroker = false;
        }
        double interval = monitoredInterval;
        monitoredInterval = -1;
        if (aware != null) {
            try {
                aware.monitoringStopped(nodeId(), interval);
            } catch (RuntimeException e) {
                log.warn("{}.monitoringStopped({}) failed", aware, nodeId(), e);
            }
        }
    }

    @Override
    public String toString() {
        return "MonitoredItem[" + id + " " + itemToMonitor.nodeId() + " attribute "
                + AttributeIds.name((int) itemToMonitor.attributeId()) + "]";
    }
}
