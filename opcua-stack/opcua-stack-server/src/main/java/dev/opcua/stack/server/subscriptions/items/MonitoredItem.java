package dev.opcua.stack.server.subscriptions.items;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.StatusCode;
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
    private final ValueQueue queue;
    /** The last value queued, as sampled: what the filter compares with (Part 4, 7.22.2 "last cached value"). */
    private DataValue lastQueued;
    /** The sample source's answer last tick: the same instance again means the same value. */
    private DataValue lastSourced;

    // guarded by control
    private SamplingScheduler.Registration registration;
    private boolean fedByBroker;
    private double monitoredInterval = -1;

    MonitoredItem(long id, ItemOwner owner, ItemContext context, ReadValueId itemToMonitor, NumericRange indexRange,
            MonitoringMode mode, ItemParameters parameters) {
        super(id, owner, context, itemToMonitor);
        this.indexRange = indexRange;
        this.valueAttribute = itemToMonitor.attributeId() == AttributeIds.Value;
        this.aware = context.awareManagerOf(itemToMonitor.nodeId(), itemToMonitor.attributeId());
        this.sampleSource = context.sampleSourceOf(itemToMonitor);
        this.mode = mode;
        this.clientHandle = parameters.clientHandle();
        this.samplingInterval = parameters.samplingInterval();
        this.discardOldest = parameters.discardOldest();
        this.filter = parameters.filter();
        this.timestamps = parameters.timestamps();
        this.queue = new ValueQueue(parameters.queueSize());
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
        return queue.capacity();
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
        return queue.size();
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
                itemToMonitor, mode, samplingInterval, queue.capacity(), discardOldest, requestedFilter, timestamps,
                false, queue.snapshot(), lastQueued, List.of());
    }

    /**
     * A restored durable item (Part 4, 6.8), before it is shared: its queued values, oldest first, and the
     * last value it queued, against which the first sample after the restart is compared by the filter.
     */
    synchronized void restoreQueue(List<DataValue> values, DataValue last) {
        for (DataValue value : values) {
            queue.add(value, discardOldest);
        }
        lastQueued = last;
    }

    /** Starts a restored item: reports its queue, then samples (no first read: see {@link #restoreQueue}). */
    void startRestored() {
        boolean signal;
        synchronized (this) {
            signal = isReportable() && signalled.compareAndSet(false, true);
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
        if (sample == null) {
            return;
        }
        boolean signal;
        int dropped;
        synchronized (this) {
            if (deleted || mode == MonitoringMode.Disabled) {
                return;
            }
            if (lastQueued != null && !filter.isChange(lastQueued, sample)) {
                return;
            }
            lastQueued = sample;
            dropped = queue.add(stamp(sample), discardOldest);
            signal = isReportable() && signalled.compareAndSet(false, true);
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
        onSample(DataValue.of(sourced.value(), sourced.statusCode(), sourced.sourceTimestamp(),
                sourced.sourcePicoseconds(), tickTime, 0));
    }

    /**
     * TransferSubscriptions with sendInitialValues (Part 4, 5.13.7): a reporting item with an empty
     * queue queues its last value again, so that the new session learns the current value.
     */
    void resendLastValue() {
        boolean signal;
        synchronized (this) {
            if (deleted || mode != MonitoringMode.Reporting || lastQueued == null || !queue.isEmpty()) {
                return;
            }
            queue.add(stamp(lastQueued), discardOldest);
            signal = signalled.compareAndSet(false, true);
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
        return queue.isEmpty();
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
        while (moved < max && !queue.isEmpty()) {
            dataChanges.add(new MonitoredItemNotification(clientHandle, queue.poll()));
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
                dropped = queue.capacity() == parameters.queueSize() ? 0
                        : queue.resize(parameters.queueSize(), discardOldest);
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
        queue.clear();
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
