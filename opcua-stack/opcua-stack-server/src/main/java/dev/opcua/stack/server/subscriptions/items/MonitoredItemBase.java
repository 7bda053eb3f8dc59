package dev.opcua.stack.server.subscriptions.items;

import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.MonitoringMode;
import dev.opcua.stack.core.types.structured.EventFieldList;
import dev.opcua.stack.core.types.structured.MonitoredItemNotification;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.server.subscriptions.ItemOwner;
import dev.opcua.stack.server.subscriptions.NotificationProducer;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a monitored item of either kind, data change or event (Part 4, 5.12.1), shares: its ids and
 * owner, the service-side lock, the flag that the owner was told of its notifications, and the
 * links of triggering (5.12.1.6), which may join items of both kinds.
 *
 * <p>Locking: the notification path (samples, events, drain) takes only the item's monitor; service
 * calls are serialized on {@link #control}, which that path never takes. Links are concurrent sets
 * created on first use, so an item that is never linked costs two null fields.
 */
abstract sealed class MonitoredItemBase implements NotificationProducer permits MonitoredItem, EventMonitoredItem {

    final long id;
    final ItemOwner owner;
    final ItemContext context;
    final ReadValueId itemToMonitor;
    /** Serializes service-side changes; never taken by the notification path. */
    final Object control = new Object();

    // guarded by this (the notification lock of the subclass's queue)
    MonitoringMode mode;
    /** The filter as the client gave it (Create/ModifyMonitoredItems), kept for durable snapshots. */
    volatile dev.opcua.stack.core.types.builtin.ExtensionObject requestedFilter =
            dev.opcua.stack.core.types.builtin.ExtensionObject.NULL;
    /** A triggering item released the queue of this Sampling item (Part 4, 5.12.1.6). */
    boolean triggered;
    boolean deleted;
    /** Whether the owner was told of reportable notifications not drained since. */
    private boolean signalled;

    /** Items this one triggers, and items that trigger this one; created on first use. */
    private volatile Set<MonitoredItemBase> links;
    private volatile Set<MonitoredItemBase> triggeredBy;

    MonitoredItemBase(long id, ItemOwner owner, ItemContext context, ReadValueId itemToMonitor) {
        this.id = id;
        this.owner = owner;
        this.context = context;
        this.itemToMonitor = itemToMonitor;
    }

    /** The server-assigned MonitoredItemId (Part 4, 7.19 IntegerId): never 0. */
    public long id() {
        return id;
    }

    public ItemOwner owner() {
        return owner;
    }

    /** The node, attribute, index range and data encoding monitored. */
    public ReadValueId itemToMonitor() {
        return itemToMonitor;
    }

    public NodeId nodeId() {
        return itemToMonitor.nodeId();
    }

    public abstract long clientHandle();

    public abstract MonitoringMode monitoringMode();

    /** The revised queue size. */
    public abstract int queueSize();

    public abstract boolean discardOldest();

    /** Notifications queued now, reportable or not. */
    public abstract int queuedNotifications();

    final boolean isDeleted() {
        synchronized (this) {
            return deleted;
        }
    }

    /** Whether the queue is empty. Guarded by this. */
    abstract boolean queueEmpty();

    /**
     * Moves up to {@code max} queued notifications into the list of the item's kind, oldest first;
     * called with this held and the item reportable.
     */
    abstract int moveQueued(List<MonitoredItemNotification> dataChanges, List<EventFieldList> events, int max);

    /** Notifications queued and reported: mode Reporting, or Sampling released by a trigger. Guarded by this. */
    final boolean isReportable() {
        return !queueEmpty() && (mode == MonitoringMode.Reporting || mode == MonitoringMode.Sampling && triggered);
    }

    @Override
    public final int drain(List<MonitoredItemNotification> dataChanges, List<EventFieldList> events, int max) {
        synchronized (this) {
            int moved = isReportable() ? moveQueued(dataChanges, events, max) : 0;
            if (!isReportable()) {
                triggered = false;
                signalled = false; // the next reportable notification signals again
            }
            return moved;
        }
    }

    @Override
    public final synchronized boolean hasNotifications() {
        return isReportable();
    }

    /**
     * Whether the owner is to be told now of reportable notifications: true once until {@link #drain} leaves
     * nothing reportable, so that the owner hears of the item once per batch. Guarded by this.
     */
    final boolean signalOnce() {
        if (signalled) {
            return false;
        }
        signalled = true;
        return true;
    }

    /** A triggering item queued a notification: a Sampling item reports what it has queued (Part 4, 5.12.1.6). */
    final void trigger() {
        boolean signal;
        synchronized (this) {
            if (deleted || mode != MonitoringMode.Sampling || queueEmpty()) {
                return;
            }
            triggered = true;
            signal = signalOnce();
        }
        if (signal) {
            owner.notificationsReady(this);
        }
    }

    /**
     * SetMonitoringMode (Part 4, 5.12.4): Disabled empties the queue and stops the source; leaving
     * Disabled starts it again; Reporting reports what is queued.
     *
     * @return whether the item needs its first sample now (a data item enabled from Disabled)
     */
    final boolean setMode(MonitoringMode newMode) {
        MonitoringMode old;
        boolean signal = false;
        synchronized (control) {
            synchronized (this) {
                if (deleted || mode == newMode) {
                    return false;
                }
                old = mode;
                mode = newMode;
                if (newMode == MonitoringMode.Disabled) {
                    discardQueued();
                    triggered = false;
                } else if (newMode == MonitoringMode.Reporting) {
                    signal = isReportable() && signalOnce();
                }
            }
            if (newMode == MonitoringMode.Disabled) {
                stopSource();
            } else if (old == MonitoringMode.Disabled) {
                startSource();
            }
        }
        if (signal) { // no lock held
            owner.notificationsReady(this);
        }
        return old == MonitoringMode.Disabled && needsFirstSample();
    }

    /** DeleteMonitoredItems or the end of the subscription: stops monitoring, frees the queue, drops links. */
    final void delete() {
        synchronized (control) {
            synchronized (this) {
                if (deleted) {
                    return;
                }
                deleted = true;
                discardQueued();
            }
            stopSource();
            unlinkAll();
        }
    }

    /** Empties the queue and what the next notification is compared with. Guarded by this. */
    abstract void discardQueued();

    /** Starts sampling or listening to the notifier. Guarded by control. */
    abstract void startSource();

    /** Stops sampling or listening to the notifier; idempotent. Guarded by control. */
    abstract void stopSource();

    /** Whether an item enabled from Disabled needs a sample at once: data items do, event items do not. */
    abstract boolean needsFirstSample();

    /** Triggers the linked items; called with no lock held after this item queued a notification. */
    final void triggerLinked() {
        Set<MonitoredItemBase> linked = links;
        if (linked != null) {
            for (MonitoredItemBase item : linked) {
                item.trigger();
            }
        }
    }

    /** Part of {@link #delete()}: removes the links in both directions. */
    final void unlinkAll() {
        Set<MonitoredItemBase> out = links;
        if (out != null) {
            for (MonitoredItemBase target : out) {
                target.triggeredByRemove(this);
            }
            out.clear();
        }
        Set<MonitoredItemBase> in = triggeredBy;
        if (in != null) {
            for (MonitoredItemBase source : in) {
                source.linksRemove(this);
            }
            in.clear();
        }
    }

    /** SetTriggering linksToAdd: this item triggers {@code target} (adding an existing link is no error). */
    final void addLink(MonitoredItemBase target) {
        linksCreate().add(target);
        target.triggeredByCreate().add(this);
        if (target.isDeleted() || isDeleted()) { // deleted meanwhile: its delete may have missed the new link
            linksRemove(target);
            target.triggeredByRemove(this);
        }
    }

    /** SetTriggering linksToRemove: false when there was no such link. */
    final boolean removeLink(MonitoredItemBase target) {
        Set<MonitoredItemBase> out = links;
        if (out == null || !out.remove(target)) {
            return false;
        }
        target.triggeredByRemove(this);
        return true;
    }

    /** Items this one triggers, for tests and diagnostics. */
    final Set<MonitoredItemBase> linkedItems() {
        Set<MonitoredItemBase> out = links;
        return out == null ? Set.of() : Set.copyOf(out);
    }

    private Set<MonitoredItemBase> linksCreate() {
        Set<MonitoredItemBase> out = links;
        if (out == null) {
            synchronized (control) {
                out = links;
                if (out == null) {
                    links = out = ConcurrentHashMap.newKeySet();
                }
            }
        }
        return out;
    }

    private Set<MonitoredItemBase> triggeredByCreate() {
        Set<MonitoredItemBase> in = triggeredBy;
        if (in == null) {
            synchronized (control) {
                in = triggeredBy;
                if (in == null) {
                    triggeredBy = in = ConcurrentHashMap.newKeySet();
                }
            }
        }
        return in;
    }

    private void linksRemove(MonitoredItemBase target) {
        Set<MonitoredItemBase> out = links;
        if (out != null) {
            out.remove(target);
        }
    }

    private void triggeredByRemove(MonitoredItemBase source) {
        Set<MonitoredItemBase> in = triggeredBy;
        if (in != null) {
            in.remove(source);
        }
    }

    /**
     * The item and its queued notifications now, under its monitor, for a durable subscription's store
     * (Part 4, 6.8); the queue is unchanged.
     */
    abstract dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionRecord.Item snapshot();
}
