package dev.opcua.stack.server.subscriptions.items;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.MonitoringMode;
import dev.opcua.stack.core.types.structured.EventFieldList;
import dev.opcua.stack.core.types.structured.MonitoredItemNotification;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.server.subscriptions.ItemOwner;
import dev.opcua.stack.server.subscriptions.events.EventFilterEvaluator;
import dev.opcua.stack.server.subscriptions.events.EventListener;
import dev.opcua.stack.server.subscriptions.events.EventNotifierRegistry;
import dev.opcua.stack.server.subscriptions.events.UaEvent;
import java.util.List;

/**
 * An event monitored item (Part 4, 5.12.1 and 7.22.3): monitors the EventNotifier attribute of an
 * Object (or View) whose EventNotifier has SubscribeToEvents, receives the events reported on that
 * notifier and the notifiers below it from the {@link EventNotifierRegistry}, keeps those that pass
 * its EventFilter's where clause in a bounded {@link EventQueue} and publishes each as an
 * EventFieldList of its select clauses.
 *
 * <ul>
 *   <li>The filter is compiled once, at creation and on each ModifyMonitoredItems; the where clause
 *       runs on the reporting thread, the select clauses when the subscription publishes, with the
 *       filter in force then.</li>
 *   <li>Monitoring mode (5.12.1.3): Disabled cancels the registration and clears the queue, enabling
 *       registers again (events reported while disabled are lost, as the mode prescribes); Sampling
 *       queues without reporting, except what a triggering item releases (5.12.1.6).</li>
 *   <li>The sampling interval is always 0: events are queued as they are reported.</li>
 *   <li>Overflow (5.12.1.5): see {@link EventQueue}; the EventQueueOverflowEventType event bypasses
 *       the where clause, so that a client always learns that events were lost, and its fields are
 *       selected like those of any other event.</li>
 * </ul>
 *
 * <p>Locking as for {@link MonitoredItem}: the report and drain paths take only this item's monitor;
 * registering with the registry happens under the service-side lock. The owner and triggered items
 * are called with no lock held.
 */
public final class EventMonitoredItem extends MonitoredItemBase implements EventListener {

    /** EventQueueOverflowEventType (Part 5, 6.4.34). */
    public static final NodeId EVENT_QUEUE_OVERFLOW_EVENT_TYPE = NodeId.ns0(NodeIds.EventQueueOverflowEventType);
    /** The SourceName Part 5, 6.4.34 prescribes for overflow events. */
    public static final String OVERFLOW_SOURCE_NAME = "Internal/EventQueueOverflow";
    /** Medium: events were lost, nothing failed. */
    private static final int OVERFLOW_SEVERITY = 500;

    /** The where clause runs without the item's lock; service calls replace the evaluator. */
    private volatile EventFilterEvaluator filter;

    // guarded by this
    private long clientHandle;
    private boolean discardOldest;
    private final EventQueue queue;
    /**
     * The selected fields of events a durable subscription had queued before it was restored, oldest first:
     * published before {@link #queue}. They were selected with the filter of the record; the events themselves
     * are gone with the server that reported them.
     */
    private final java.util.ArrayDeque<dev.opcua.stack.core.types.builtin.Variant[]> restored =
            new java.util.ArrayDeque<>(0);

    // guarded by control
    private EventNotifierRegistry.Registration registration;

    EventMonitoredItem(long id, ItemOwner owner, ItemContext context, ReadValueId itemToMonitor, MonitoringMode mode,
            EventParameters parameters) {
        super(id, owner, context, itemToMonitor);
        this.mode = mode;
        this.clientHandle = parameters.clientHandle();
        this.discardOldest = parameters.discardOldest();
        this.filter = parameters.filter();
        this.queue = new EventQueue(parameters.queueSize());
    }

    @Override
    public synchronized long clientHandle() {
        return clientHandle;
    }

    @Override
    public synchronized MonitoringMode monitoringMode() {
        return mode;
    }

    /** Always 0: events are not sampled. */
    public double samplingInterval() {
        return 0;
    }

    @Override
    public synchronized int queueSize() {
        return queue.capacity();
    }

    @Override
    public synchronized boolean discardOldest() {
        return discardOldest;
    }

    @Override
    public synchronized int queuedNotifications() {
        return restored.size() + queue.size();
    }

    /** The compiled EventFilter in force. */
    public EventFilterEvaluator filter() {
        return filter;
    }

    /** Whether the item is registered with its notifier now (not Disabled, not deleted). */
    public boolean isSubscribed() {
        synchronized (control) {
            return registration != null;
        }
    }

    // ---- report path -------------------------------------------------------------------------

    /** An event reported on the item's notifier or one below it: queued when it passes the where clause. */
    @Override
    public void onEvent(NodeId notifier, UaEvent event) {
        if (!filter.matches(event)) {
            return;
        }
        boolean signal;
        int dropped;
        synchronized (this) {
            if (deleted || mode == MonitoringMode.Disabled) {
                return;
            }
            dropped = queue.add(event, discardOldest, this::overflowEvent);
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

    private UaEvent overflowEvent() {
        return UaEvent.builder(EVENT_QUEUE_OVERFLOW_EVENT_TYPE)
                .sourceNode(EventNotifierRegistry.SERVER_OBJECT)
                .sourceName(OVERFLOW_SOURCE_NAME)
                .message("events were lost: the queue of monitored item " + id + " (size " + queue.capacity()
                        + ") overflowed")
                .severity(OVERFLOW_SEVERITY)
                .build();
    }

    @Override
    boolean queueEmpty() {
        return restored.isEmpty() && queue.isEmpty();
    }

    @Override
    synchronized dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionRecord.Item snapshot() {
        EventFilterEvaluator selects = filter;
        List<dev.opcua.stack.core.types.builtin.Variant[]> fields = new java.util.ArrayList<>(restored);
        for (dev.opcua.stack.server.subscriptions.events.UaEvent event : queue.snapshot()) {
            fields.add(selects.select(event));
        }
        return new dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionRecord.Item(id, clientHandle,
                itemToMonitor, mode, 0, queue.capacity(), discardOldest, requestedFilter, null, true, List.of(), null,
                fields);
    }

    @Override
    int moveQueued(List<MonitoredItemNotification> dataChanges, List<EventFieldList> events, int max) {
        EventFilterEvaluator selects = filter;
        int moved = 0;
        while (moved < max && !restored.isEmpty()) {
            events.add(new EventFieldList(clientHandle, restored.poll()));
            moved++;
        }
        while (moved < max && !queue.isEmpty()) {
            events.add(new EventFieldList(clientHandle, selects.select(queue.poll())));
            moved++;
        }
        return moved;
    }

    // ---- service path ------------------------------------------------------------------------

    /**
     * A restored durable event item (Part 4, 6.8), before it is shared: the selected fields of the events it had
     * queued, oldest first, published before anything reported after the restart.
     */
    synchronized void restoreQueue(List<dev.opcua.stack.core.types.builtin.Variant[]> fields) {
        restored.addAll(fields);
    }

    /** Starts a restored item: reports what it had queued, then listens to its notifier. */
    void startRestored() {
        boolean signal;
        synchronized (this) {
            signal = !restored.isEmpty() && isReportable() && signalOnce();
        }
        if (signal) {
            owner.notificationsReady(this);
        }
        start();
    }

    /** After the item was added to its container: registers with its notifier unless Disabled. */
    void start() {
        synchronized (control) {
            boolean enabled;
            synchronized (this) {
                enabled = !deleted && mode != MonitoringMode.Disabled;
            }
            if (enabled) {
                startSource();
            }
        }
    }

    /** ModifyMonitoredItems (Part 4, 5.12.3): new handle, queue size, policy and filter for what follows. */
    void modify(EventParameters parameters) {
        synchronized (control) {
            int dropped;
            synchronized (this) {
                if (deleted) {
                    return;
                }
                clientHandle = parameters.clientHandle();
                discardOldest = parameters.discardOldest();
                filter = parameters.filter();
                dropped = queue.capacity() == parameters.queueSize() ? 0
                        : queue.resize(parameters.queueSize(), discardOldest, this::overflowEvent);
                if (!isReportable()) {
                    triggered = false;
                }
            }
            if (dropped > 0) {
                context.counters.notificationsDropped(dropped);
            }
        }
    }

    @Override
    void discardQueued() {
        restored.clear();
        queue.clear();
    }

    /** Listens to the item's notifier. */
    @Override
    void startSource() {
        if (registration == null) {
            registration = context.notifiers.subscribe(nodeId(), this);
        }
    }

    @Override
    void stopSource() {
        if (registration != null) {
            registration.cancel();
            registration = null;
        }
    }

    /** An event item never needs a first sample: it reports events as they come. */
    @Override
    boolean needsFirstSample() {
        return false;
    }

    @Override
    public String toString() {
        return "EventMonitoredItem[" + id + " notifier " + nodeId() + "]";
    }
}
