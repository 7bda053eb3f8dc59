package dev.opcua.stack.client.subscriptions;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.enumerated.MonitoringMode;
import dev.opcua.stack.core.types.structured.DataChangeFilter;
import dev.opcua.stack.core.types.structured.MonitoredItemCreateRequest;
import dev.opcua.stack.core.types.structured.MonitoredItemCreateResult;
import dev.opcua.stack.core.types.structured.MonitoredItemModifyResult;
import dev.opcua.stack.core.types.structured.MonitoringFilter;
import dev.opcua.stack.core.types.structured.MonitoringParameters;
import dev.opcua.stack.core.types.structured.ReadValueId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A monitored item (Part 4, 5.12) as the client records it: what was asked for (node, attribute,
 * index range, sampling interval, queue, filter, monitoring mode, the items it triggers), what the
 * server revised, the server's id and the client handle that routes its notifications to the
 * listener. The record outlives the server's item: when the subscription is recreated the same
 * object, with the same client handle and listener, is created again.
 */
public final class ClientMonitoredItem {

    private final ClientSubscription subscription;
    private final int clientHandle;
    private final ReadValueId itemToMonitor;
    private final boolean eventItem;
    /**
     * The items this one triggers, in the order linked, without repeats; replaced whole on a change (SetTriggering
     * is rare), so that an item that triggers none, nearly every item, holds no collection of its own.
     */
    private volatile List<ClientMonitoredItem> triggeredItems = List.of();
    private volatile double samplingInterval;
    private volatile long queueSize;
    private volatile boolean discardOldest;
    private volatile MonitoringFilter filter;
    private volatile MonitoringMode monitoringMode;
    private volatile DataChangeListener dataChangeListener;
    private volatile EventListener eventListener;
    private volatile long serverId;
    private volatile double revisedSamplingInterval;
    private volatile long revisedQueueSize;
    private volatile ExtensionObject filterResult = ExtensionObject.NULL;
    private volatile StatusCode status = StatusCode.of(StatusCodes.BadWaitingForInitialData);
    /** Source time (UTC ticks) of the newest value handed to the data-change listener; 0 before any. */
    private volatile long deliveredSourceTicks;
    /**
     * After a Hot takeover: values whose source time is not after this reached the listener from the old
     * server already; 0 when not filtering. Guarded by the subscription's sequencer.
     */
    long takeoverWatermark;

    ClientMonitoredItem(ClientSubscription subscription, int clientHandle, DataItemRequest request) {
        this.subscription = subscription;
        this.clientHandle = clientHandle;
        this.itemToMonitor = new ReadValueId(request.node(), request.attributeId(), request.indexRange(),
                QualifiedName.NULL);
        this.eventItem = false;
        this.samplingInterval = request.samplingInterval();
        this.queueSize = request.queueSize();
        this.discardOldest = request.discardOldest();
        this.filter = request.filter();
        this.monitoringMode = request.monitoringMode();
        this.dataChangeListener = request.listener();
    }

    ClientMonitoredItem(ClientSubscription subscription, int clientHandle, EventItemRequest request) {
        this.subscription = subscription;
        this.clientHandle = clientHandle;
        this.itemToMonitor = new ReadValueId(request.notifier(), AttributeIds.EventNotifier, null, QualifiedName.NULL);
        this.eventItem = true;
        this.samplingInterval = 0;
        this.queueSize = request.queueSize();
        this.discardOldest = request.discardOldest();
        this.filter = request.filter();
        this.monitoringMode = request.monitoringMode();
        this.eventListener = request.listener();
    }

    /** A Hot-redundancy mirror of {@code original} on {@code subscription}: same handle and request, no listener. */
    ClientMonitoredItem(ClientSubscription subscription, ClientMonitoredItem original) {
        this.subscription = subscription;
        this.clientHandle = original.clientHandle;
        this.itemToMonitor = original.itemToMonitor;
        this.eventItem = original.eventItem;
        this.samplingInterval = original.samplingInterval;
        this.queueSize = original.queueSize;
        this.discardOldest = original.discardOldest;
        this.filter = original.filter;
        this.monitoringMode = original.monitoringMode;
    }

    public ClientSubscription subscription() {
        return subscription;
    }

    /** The handle the client chose; notifications carry it (unique among the client's items). */
    public int clientHandle() {
        return clientHandle;
    }

    /** The server's MonitoredItemId; changes when the subscription is recreated, 0 before creation. */
    public long serverId() {
        return serverId;
    }

    public NodeId node() {
        return itemToMonitor.nodeId();
    }

    public long attributeId() {
        return itemToMonitor.attributeId();
    }

    public String indexRange() {
        return itemToMonitor.indexRange();
    }

    public boolean isEventItem() {
        return eventItem;
    }

    /** The sampling interval asked for, in ms. */
    public double samplingInterval() {
        return samplingInterval;
    }

    public double revisedSamplingInterval() {
        return revisedSamplingInterval;
    }

    public long queueSize() {
        return queueSize;
    }

    public long revisedQueueSize() {
        return revisedQueueSize;
    }

    public boolean discardOldest() {
        return discardOldest;
    }

    /** The DataChangeFilter or EventFilter asked for, or null. */
    public MonitoringFilter filter() {
        return filter;
    }

    /** The server's filter result (EventFilterResult for event items), or ExtensionObject.NULL. */
    public ExtensionObject filterResult() {
        return filterResult;
    }

    public MonitoringMode monitoringMode() {
        return monitoringMode;
    }

    /** The status of the last create, modify or monitoring mode change (Good once created). */
    public StatusCode status() {
        return status;
    }

    /** The items this one triggers (SetTriggering, Part 4, 5.12.5), kept to be restored. */
    public List<ClientMonitoredItem> triggeredItems() {
        return new ArrayList<>(triggeredItems);
    }

    public DataChangeListener dataChangeListener() {
        return dataChangeListener;
    }

    public EventListener eventListener() {
        return eventListener;
    }

    public void setDataChangeListener(DataChangeListener listener) {
        this.dataChangeListener = listener;
    }

    public void setEventListener(EventListener listener) {
        this.eventListener = listener;
    }

    /** SetMonitoringMode (Part 4, 5.12.4) of this item; see {@link ClientSubscription#setMonitoringMode}. */
    public CompletableFuture<StatusCode> setMonitoringMode(MonitoringMode mode) {
        return subscription.setMonitoringMode(mode, List.of(this)).thenApply(results -> results.get(0));
    }

    /**
     * ModifyMonitoredItems (Part 4, 5.12.3) of this item; the record keeps the new values.
     *
     * @param filter the new filter, null for none
     * @return the status of the item's modification
     */
    public CompletableFuture<StatusCode> modify(double samplingInterval, long queueSize, boolean discardOldest,
            MonitoringFilter filter) {
        return subscription.modifyItem(this, samplingInterval, queueSize, discardOldest, filter);
    }

    /** DeleteMonitoredItems (Part 4, 5.12.6) of this item; it leaves the record. */
    public CompletableFuture<Void> delete() {
        return subscription.deleteItems(List.of(this));
    }

    // ---- the record ------------------------------------------------------------------------------

    MonitoredItemCreateRequest createRequest() {
        MonitoringFilter f = filter;
        return new MonitoredItemCreateRequest(itemToMonitor, monitoringMode, parameters(samplingInterval, queueSize,
                discardOldest, f));
    }

    MonitoringParameters parameters(double samplingInterval, long queueSize, boolean discardOldest,
            MonitoringFilter filter) {
        return new MonitoringParameters(clientHandle, samplingInterval,
                filter == null ? ExtensionObject.NULL : ExtensionObject.of(filter), queueSize, discardOldest);
    }

    void created(MonitoredItemCreateResult result) {
        StatusCode code = result.statusCode();
        this.status = code;
        if (code.isGood()) {
            this.serverId = result.monitoredItemId();
            this.revisedSamplingInterval = result.revisedSamplingInterval();
            this.revisedQueueSize = result.revisedQueueSize();
            this.filterResult = result.filterResult() == null ? ExtensionObject.NULL : result.filterResult();
        }
    }

    void modified(MonitoredItemModifyResult result, double samplingInterval, long queueSize, boolean discardOldest,
            MonitoringFilter filter) {
        this.status = result.statusCode();
        if (result.statusCode().isGood()) {
            this.samplingInterval = samplingInterval;
            this.queueSize = queueSize;
            this.discardOldest = discardOldest;
            this.filter = filter;
            this.revisedSamplingInterval = result.revisedSamplingInterval();
            this.revisedQueueSize = result.revisedQueueSize();
            this.filterResult = result.filterResult() == null ? ExtensionObject.NULL : result.filterResult();
        }
    }

    void monitoringModeSet(MonitoringMode mode) {
        this.monitoringMode = mode;
    }

    void failed(StatusCode code) {
        this.status = code;
    }

    /** Takes over the server's item of a Hot mirror (its subscription was transferred to this one's session). */
    void adopt(ClientMonitoredItem mirror) {
        this.serverId = mirror.serverId;
        this.revisedSamplingInterval = mirror.revisedSamplingInterval;
        this.revisedQueueSize = mirror.revisedQueueSize;
        this.filterResult = mirror.filterResult;
        this.status = mirror.status;
    }

    /**
     * A resumed subscription's item (see {@link ClientSubscriptions#resume}): the server's item with this
     * MonitoredItemId reports with this one's client handle. The revised values are not known: the server
     * does not tell them again.
     */
    void resumed(long monitoredItemId) {
        this.serverId = monitoredItemId;
        this.status = StatusCode.GOOD;
    }

    /** What {@link ResumeToken} keeps of a data item. */
    ResumeToken.Item resumeTokenItem() {
        return new ResumeToken.Item(clientHandle, itemToMonitor.nodeId(), itemToMonitor.attributeId(),
                itemToMonitor.indexRange(), samplingInterval, queueSize, discardOldest,
                filter instanceof DataChangeFilter f ? f : null, monitoringMode);
    }

    /** A value is handed to the data-change listener: its source time is the newest delivered when newer. */
    void delivered(DataValue value) {
        DateTime source = value == null ? null : value.sourceTimestamp();
        if (source != null && !source.isNull() && source.utcTicks() > deliveredSourceTicks) {
            deliveredSourceTicks = source.utcTicks();
        }
    }

    /**
     * Source time of the newest value the listener received, the watermark below which a taken-over Hot
     * mirror's queued values are ones it had; 0 before any value.
     */
    long deliveredSourceTicks() {
        return deliveredSourceTicks;
    }

    /** Forgets the server's item (before a recreate). */
    void serverItemLost() {
        this.serverId = 0;
    }

    synchronized void linkTriggered(ClientMonitoredItem triggered, boolean add) {
        List<ClientMonitoredItem> links = new ArrayList<>(triggeredItems);
        boolean changed = add ? !links.contains(triggered) && links.add(triggered) : links.remove(triggered);
        if (changed) {
            triggeredItems = List.copyOf(links);
        }
    }

    @Override
    public String toString() {
        return "ClientMonitoredItem[handle=" + clientHandle + ", id=" + serverId + ", " + itemToMonitor.nodeId()
                + (eventItem ? " events" : " attribute " + itemToMonitor.attributeId()) + ", " + monitoringMode + ", "
                + status + "]";
    }
}
