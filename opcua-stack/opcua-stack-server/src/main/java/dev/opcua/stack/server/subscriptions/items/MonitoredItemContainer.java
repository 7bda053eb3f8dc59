package dev.opcua.stack.server.subscriptions.items;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.enumerated.MonitoringMode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.DataChangeFilter;
import dev.opcua.stack.core.types.structured.EventFilter;
import dev.opcua.stack.core.types.structured.MonitoredItemCreateRequest;
import dev.opcua.stack.core.types.structured.MonitoredItemCreateResult;
import dev.opcua.stack.core.types.structured.MonitoredItemModifyRequest;
import dev.opcua.stack.core.types.structured.MonitoredItemModifyResult;
import dev.opcua.stack.core.types.structured.MonitoringParameters;
import dev.opcua.stack.core.types.structured.Range;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.server.nodes.OperationContext;
import dev.opcua.stack.server.subscriptions.ItemContainer;
import dev.opcua.stack.server.subscriptions.ItemOwner;
import dev.opcua.stack.server.subscriptions.events.EventFilterEvaluator;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The monitored items of one subscription (Part 4, 5.12), data-change and event items, by
 * MonitoredItemId: adding, finding and removing an item is O(1), so creating 100,000 items is
 * linear. The operations of the MonitoredItem service set on one subscription
 * ({@link MonitoredItemServices} calls them after its request-level checks) give one result per
 * operation; all the address-space work of a request is batched: one read validates every new item
 * (and gives a data item its first sample, an event item its node's EventNotifier), one lookup finds
 * the EURanges of all percent deadbands. An event item's EventFilter is compiled once, before the
 * read; its EventFilterResult comes back in the result whenever a clause was rejected (Part 4,
 * 5.12.2.2 and 7.22.3).
 *
 * <p>Thread-safe: requests of one session may run concurrently on several workers.
 */
public final class MonitoredItemContainer implements ItemContainer {

    private static final Logger log = LoggerFactory.getLogger(MonitoredItemContainer.class);
    private static final ExtensionObject NO_FILTER_RESULT = ExtensionObject.NULL;

    private final ItemOwner owner;
    private final ItemContext context;
    private final ItemsById items = new ItemsById();

    MonitoredItemContainer(ItemOwner owner, ItemContext context) {
        this.owner = owner;
        this.context = context;
    }

    public ItemOwner owner() {
        return owner;
    }

    @Override
    public int size() {
        return items.size();
    }

    /** The data-change item with this MonitoredItemId, or null (also when it is an event item). */
    public MonitoredItem item(long monitoredItemId) {
        return items.find(monitoredItemId) instanceof MonitoredItem item ? item : null;
    }

    /** The event item with this MonitoredItemId, or null (also when it is a data-change item). */
    public EventMonitoredItem eventItem(long monitoredItemId) {
        return items.find(monitoredItemId) instanceof EventMonitoredItem item ? item : null;
    }

    /** The event items of the subscription now (ConditionRefresh, Part 9, 5.5.7). */
    public java.util.List<EventMonitoredItem> eventItems() {
        java.util.List<EventMonitoredItem> events = new java.util.ArrayList<>();
        for (MonitoredItemBase item : items.all()) {
            if (item instanceof EventMonitoredItem eventItem) {
                events.add(eventItem);
            }
        }
        return events;
    }

    @Override
    public SortedMap<Long, Long> clientHandles() {
        SortedMap<Long, Long> handles = new TreeMap<>();
        for (MonitoredItemBase item : items.all()) {
            handles.put(item.id(), item.clientHandle());
        }
        return handles;
    }

    @Override
    public void resendLastValues() {
        for (MonitoredItemBase item : items.all()) {
            if (item instanceof MonitoredItem dataItem) {
                dataItem.resendLastValue();
            }
        }
    }

    @Override
    public List<dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionRecord.Item> snapshot() {
        List<MonitoredItemBase> current = items.all();
        List<dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionRecord.Item> all =
                new ArrayList<>(current.size());
        for (MonitoredItemBase item : current) {
            all.add(item.snapshot());
        }
        all.sort(java.util.Comparator.comparingLong(
                dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionRecord.Item::monitoredItemId));
        return all;
    }

    @Override
    public int restore(List<dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionRecord.Item> records) {
        return new DurableItemRestore(this, owner, context).restore(records);
    }

    /** Adds a restored item under its own MonitoredItemId; false (nothing added) when the id is taken. */
    boolean addRestored(MonitoredItemBase item) {
        return items.putNew(item);
    }

    @Override
    public void deleteAll() {
        List<MonitoredItemBase> removed = items.removeAll();
        for (MonitoredItemBase item : removed) {
            item.delete();
        }
        if (!removed.isEmpty()) {
            context.counters.itemsRemoved(removed.size());
        }
    }


    /** One operation of Create- or ModifyMonitoredItems on its way through the checks. */
    private static final class Pending {
        final int index;
        final ReadValueId itemToMonitor;
        final MonitoringMode mode;
        final MonitoringParameters parameters;
        final DataChangeFilter filter;
        /** The compiled EventFilter of an event item, else null. */
        final EventFilterEvaluator eventFilter;
        final MonitoredItemBase existing;
        int status = StatusCodes.Good;
        DataValue current;
        Range euRange;

        Pending(int index, ReadValueId itemToMonitor, MonitoringMode mode, MonitoringParameters parameters,
                DataChangeFilter filter, EventFilterEvaluator eventFilter, MonitoredItemBase existing) {
            this.index = index;
            this.itemToMonitor = itemToMonitor;
            this.mode = mode;
            this.parameters = parameters;
            this.filter = filter;
            this.eventFilter = eventFilter;
            this.existing = existing;
        }

        boolean isEvent() {
            return eventFilter != null;
        }

        /** The EventFilterResult when the item's EventFilter has rejected clauses, else null. */
        ExtensionObject filterResult() {
            return eventFilter == null ? NO_FILTER_RESULT : filterResultOf(eventFilter);
        }
    }

    private static ExtensionObject filterOf(Pending p) {
        ExtensionObject filter = p.parameters == null ? null : p.parameters.filter();
        return filter == null ? ExtensionObject.NULL : filter;
    }

    /** The EventFilterResult to return: only when a clause was rejected (Part 4, 5.12.2.2). */
    private static ExtensionObject filterResultOf(EventFilterEvaluator filter) {
        return filter.hasErrors() ? ExtensionObject.of(filter.result()) : NO_FILTER_RESULT;
    }

    /** Whether the item monitors events, on a server that serves them. */
    boolean isEventItem(ReadValueId item) {
        return item.attributeId() == AttributeIds.EventNotifier && context.servesEvents();
    }

    /**
     * Checks and compiles the filter of an event item.
     *
     * @param out receives the compiled filter when its status is Good, or when the compiler refused it
     * @return Good or the status of the operation
     */
    int compileEventFilter(ExtensionObject filter, ReadValueId item, EventFilterEvaluator[] out) {
        out[0] = null;
        EventFilter[] body = new EventFilter[1];
        int status = ItemChecks.checkEventFilter(filter, item, body);
        if (status != StatusCodes.Good) {
            return status;
        }
        EventFilterEvaluator compiled = EventFilterEvaluator.compile(body[0], context.eventTypes);
        out[0] = compiled;
        if (!compiled.isValid() && log.isDebugEnabled()) {
            log.debug("EventFilter of an item on {} refused: {}", item.nodeId(), compiled.problems());
        }
        return compiled.status().value();
    }

    // ---- CreateMonitoredItems (Part 4, 5.12.2) -----------------------------------------------

    CompletableFuture<MonitoredItemCreateResult[]> create(OperationContext operationContext,
            TimestampsToReturn timestamps, MonitoredItemCreateRequest[] requests) {
        MonitoredItemCreateResult[] results = new MonitoredItemCreateResult[requests.length];
        List<Pending> pending = new ArrayList<>(requests.length);
        DataChangeFilter[] filter = new DataChangeFilter[1];
        EventFilterEvaluator[] eventFilter = new EventFilterEvaluator[1];
        for (int i = 0; i < requests.length; i++) {
            MonitoredItemCreateRequest request = requests[i];
            filter[0] = null;
            eventFilter[0] = null;
            int status = request == null ? StatusCodes.BadNodeIdInvalid
                    : request.monitoringMode() == null ? StatusCodes.BadMonitoringModeInvalid
                    : ItemChecks.checkItemToMonitor(request.itemToMonitor());
            if (status == StatusCodes.Good) {
                ExtensionObject requested = request.requestedParameters() == null ? null
                        : request.requestedParameters().filter();
                status = request.requestedParameters() == null ? StatusCodes.BadInvalidArgument
                        : isEventItem(request.itemToMonitor())
                        ? compileEventFilter(requested, request.itemToMonitor(), eventFilter)
                        : ItemChecks.checkFilter(requested, request.itemToMonitor().attributeId(), filter);
            }
            if (status != StatusCodes.Good) {
                results[i] = createFailed(status,
                        eventFilter[0] == null ? NO_FILTER_RESULT : filterResultOf(eventFilter[0]));
            } else {
                pending.add(new Pending(i, request.itemToMonitor(), request.monitoringMode(),
                        request.requestedParameters(), filter[0], eventFilter[0], null));
            }
        }
        if (pending.isEmpty()) {
            return CompletableFuture.completedFuture(results);
        }
        ReadValueId[] reads = new ReadValueId[pending.size()];
        for (int k = 0; k < reads.length; k++) {
            reads[k] = pending.get(k).itemToMonitor;
        }
        return context.managers.read(operationContext, reads, 0, TimestampsToReturn.Both)
                .thenCompose(values -> {
                    for (int k = 0; k < values.length; k++) {
                        Pending p = pending.get(k);
                        p.current = values[k];
                        if (p.isEvent()) {
                            p.status = ItemChecks.checkNotifier(values[k]);
                            continue;
                        }
                        p.status = ItemChecks.checkRead(values[k]);
                        if (p.status == StatusCodes.Good) {
                            p.status = ItemChecks.checkDeadbandValue(p.filter, values[k]);
                        }
                    }
                    return resolveEuRanges(operationContext, pending);
                })
                .thenApply(ignored -> add(pending, timestamps, results));
    }

    private MonitoredItemCreateResult[] add(List<Pending> pending, TimestampsToReturn timestamps,
            MonitoredItemCreateResult[] results) {
        int remaining = owner.remainingItemCapacity();
        int rejected = 0;
        List<Pending> created = new ArrayList<>(pending.size());
        List<MonitoredItemBase> createdItems = new ArrayList<>(pending.size());
        for (Pending p : pending) {
            if (p.status != StatusCodes.Good) {
                results[p.index] = createFailed(p.status, p.filterResult());
                continue;
            }
            if (remaining <= 0) {
                results[p.index] = createFailed(StatusCodes.BadTooManyMonitoredItems, p.filterResult());
                rejected++;
                continue;
            }
            remaining--;
            if (p.isEvent()) {
                EventMonitoredItem item = newEventItem(p);
                item.requestedFilter = filterOf(p);
                created.add(p);
                createdItems.add(item);
                results[p.index] = new MonitoredItemCreateResult(StatusCode.GOOD, item.id(), 0, item.queueSize(),
                        p.filterResult());
            } else {
                MonitoredItem item = newItem(p, timestamps);
                item.requestedFilter = filterOf(p);
                created.add(p);
                createdItems.add(item);
                results[p.index] = new MonitoredItemCreateResult(StatusCode.GOOD, item.id(),
                        item.samplingInterval(), item.queueSize(), NO_FILTER_RESULT);
            }
        }
        if (!createdItems.isEmpty()) {
            context.counters.itemsAdded(createdItems.size());
        }
        if (rejected > 0) {
            context.counters.itemsRejected(rejected);
        }
        for (int k = 0; k < createdItems.size(); k++) {
            MonitoredItemBase item = createdItems.get(k);
            if (item instanceof MonitoredItem data) {
                data.start(created.get(k).current);
            } else if (item instanceof EventMonitoredItem events) {
                events.start();
            }
        }
        return results;
    }

    private EventMonitoredItem newEventItem(Pending p) {
        EventParameters parameters = reviseEvent(p);
        while (true) {
            EventMonitoredItem item = new EventMonitoredItem(context.nextItemId(), owner, context, p.itemToMonitor,
                    p.mode, parameters);
            if (items.putNew(item)) { // taken only after 2^32 ids
                return item;
            }
        }
    }

    private EventParameters reviseEvent(Pending p) {
        MonitoringParameters requested = p.parameters;
        return new EventParameters(requested.clientHandle(),
                context.settings.reviseEventQueueSize(requested.queueSize(), owner.durableQueueSizeLimit()),
                requested.discardOldest(),
                p.eventFilter);
    }

    private MonitoredItem newItem(Pending p, TimestampsToReturn timestamps) {
        MonitoringAware aware = context.awareManagerOf(p.itemToMonitor.nodeId(), p.itemToMonitor.attributeId());
        ItemParameters parameters = revise(p, aware, timestamps);
        while (true) {
            MonitoredItem item = new MonitoredItem(context.nextItemId(), owner, context, p.itemToMonitor,
                    ItemChecks.indexRange(p.itemToMonitor), p.mode, parameters);
            if (items.putNew(item)) { // taken only after 2^32 ids
                return item;
            }
        }
    }

    private ItemParameters revise(Pending p, MonitoringAware aware, TimestampsToReturn timestamps) {
        MonitoringParameters requested = p.parameters;
        NodeId node = p.itemToMonitor.nodeId();
        boolean pushed = aware != null && aware.pushesValueChanges(node);
        MonitoredItemSettings settings = context.settings;
        return new ItemParameters(requested.clientHandle(),
                settings.reviseSamplingInterval(requested.samplingInterval(), owner.publishingIntervalMillis(), pushed),
                settings.reviseQueueSize(requested.queueSize(), owner.durableQueueSizeLimit()), requested.discardOldest(),
                ItemChecks.compile(p.filter, p.euRange), timestamps);
    }

    /** One batched lookup for every operation with a percent deadband; no usable EURange is BadFilterNotAllowed. */
    private CompletableFuture<Void> resolveEuRanges(OperationContext operationContext, List<Pending> pending) {
        List<Pending> percent = new ArrayList<>();
        for (Pending p : pending) {
            if (p.status == StatusCodes.Good && ItemChecks.needsEuRange(p.filter)) {
                percent.add(p);
            }
        }
        if (percent.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        NodeId[] nodes = new NodeId[percent.size()];
        for (int k = 0; k < nodes.length; k++) {
            nodes[k] = percent.get(k).itemToMonitor.nodeId();
        }
        return EuRangeLookup.lookup(context.managers, operationContext, nodes).thenAccept(ranges -> {
            for (int k = 0; k < ranges.length; k++) {
                Pending p = percent.get(k);
                p.euRange = ranges[k];
                if (ranges[k] == null) {
                    p.status = StatusCodes.BadFilterNotAllowed;
                }
            }
        });
    }

    private static MonitoredItemCreateResult createFailed(int status, ExtensionObject filterResult) {
        return new MonitoredItemCreateResult(StatusCode.of(status), 0, 0, 0, filterResult);
    }

    // ---- ModifyMonitoredItems (Part 4, 5.12.3) -----------------------------------------------

    CompletableFuture<MonitoredItemModifyResult[]> modify(OperationContext operationContext,
            TimestampsToReturn timestamps, MonitoredItemModifyRequest[] requests) {
        MonitoredItemModifyResult[] results = new MonitoredItemModifyResult[requests.length];
        List<Pending> pending = new ArrayList<>(requests.length);
        DataChangeFilter[] filter = new DataChangeFilter[1];
        EventFilterEvaluator[] eventFilter = new EventFilterEvaluator[1];
        for (int i = 0; i < requests.length; i++) {
            MonitoredItemModifyRequest request = requests[i];
            MonitoredItemBase item = request == null ? null : items.find(request.monitoredItemId());
            filter[0] = null;
            eventFilter[0] = null;
            int status;
            if (item == null) {
                status = StatusCodes.BadMonitoredItemIdInvalid;
            } else if (request.requestedParameters() == null) {
                status = StatusCodes.BadInvalidArgument;
            } else if (item instanceof EventMonitoredItem) {
                status = compileEventFilter(request.requestedParameters().filter(), item.itemToMonitor(),
                        eventFilter);
            } else {
                status = ItemChecks.checkFilter(request.requestedParameters().filter(),
                        item.itemToMonitor().attributeId(), filter);
                if (status == StatusCodes.Good) {
                    status = ItemChecks.checkDeadbandValue(filter[0], ((MonitoredItem) item).lastSample());
                }
            }
            if (status != StatusCodes.Good) {
                results[i] = modifyFailed(status,
                        eventFilter[0] == null ? NO_FILTER_RESULT : filterResultOf(eventFilter[0]));
            } else {
                pending.add(new Pending(i, item.itemToMonitor(), null, request.requestedParameters(), filter[0],
                        eventFilter[0], item));
            }
        }
        return resolveEuRanges(operationContext, pending).thenApply(ignored -> {
            for (Pending p : pending) {
                MonitoredItemBase existing = p.existing;
                if (p.status != StatusCodes.Good) {
                    results[p.index] = modifyFailed(p.status, NO_FILTER_RESULT);
                } else if (items.find(existing.id()) != existing) { // deleted meanwhile
                    results[p.index] = modifyFailed(StatusCodes.BadMonitoredItemIdInvalid, p.filterResult());
                } else if (existing instanceof EventMonitoredItem item) {
                    EventParameters parameters = reviseEvent(p);
                    item.modify(parameters);
                    item.requestedFilter = filterOf(p);
                    results[p.index] = new MonitoredItemModifyResult(StatusCode.GOOD, 0, parameters.queueSize(),
                            p.filterResult());
                } else {
                    MonitoredItem item = (MonitoredItem) existing;
                    ItemParameters parameters = revise(p, item.aware(), timestamps);
                    item.modify(parameters);
                    item.requestedFilter = filterOf(p);
                    results[p.index] = new MonitoredItemModifyResult(StatusCode.GOOD, parameters.samplingInterval(),
                            parameters.queueSize(), NO_FILTER_RESULT);
                }
            }
            return results;
        });
    }

    private static MonitoredItemModifyResult modifyFailed(int status, ExtensionObject filterResult) {
        return new MonitoredItemModifyResult(StatusCode.of(status), 0, 0, filterResult);
    }

    // ---- DeleteMonitoredItems (Part 4, 5.12.6) -----------------------------------------------

    StatusCode[] delete(long[] monitoredItemIds) {
        StatusCode[] results = new StatusCode[monitoredItemIds.length];
        int removed = 0;
        for (int i = 0; i < monitoredItemIds.length; i++) {
            MonitoredItemBase item = items.remove(monitoredItemIds[i]);
            if (item == null) {
                results[i] = StatusCode.of(StatusCodes.BadMonitoredItemIdInvalid);
            } else {
                item.delete();
                removed++;
                results[i] = StatusCode.GOOD;
            }
        }
        if (removed > 0) {
            context.counters.itemsRemoved(removed);
        }
        return results;
    }

    // ---- SetMonitoringMode (Part 4, 5.12.4) --------------------------------------------------

    /**
     * Sets the mode of each item; items enabled from Disabled get their first sample at once, from
     * one batched read (Part 4, 5.12.1.3: "report the first sample as soon as possible").
     */
    CompletableFuture<StatusCode[]> setMonitoringMode(OperationContext operationContext, MonitoringMode mode,
            long[] monitoredItemIds) {
        StatusCode[] results = new StatusCode[monitoredItemIds.length];
        List<MonitoredItem> enabled = new ArrayList<>();
        for (int i = 0; i < monitoredItemIds.length; i++) {
            MonitoredItemBase item = items.find(monitoredItemIds[i]);
            if (item == null) {
                results[i] = StatusCode.of(StatusCodes.BadMonitoredItemIdInvalid);
                continue;
            }
            if (item.setMode(mode) && item instanceof MonitoredItem data) { // event items need no first sample
                enabled.add(data);
            }
            results[i] = StatusCode.GOOD;
        }
        if (enabled.isEmpty()) {
            return CompletableFuture.completedFuture(results);
        }
        ReadValueId[] reads = new ReadValueId[enabled.size()];
        for (int k = 0; k < reads.length; k++) {
            reads[k] = enabled.get(k).itemToMonitor();
        }
        return context.managers.read(operationContext, reads, 0, TimestampsToReturn.Both).thenApply(values -> {
            for (int k = 0; k < values.length; k++) {
                enabled.get(k).onSample(values[k]);
            }
            return results;
        });
    }

    // ---- SetTriggering (Part 4, 5.12.5) ------------------------------------------------------

    /** The results of SetTriggering, one per link to add and per link to remove. */
    record TriggeringResults(StatusCode[] addResults, StatusCode[] removeResults) {
    }

    /**
     * Removes, then adds links from the triggering item (removing first lets one call replace a
     * link set). A link to an unknown item, or the removal of a link that does not exist, is
     * BadMonitoredItemIdInvalid.
     *
     * @throws UaException BadMonitoredItemIdInvalid when the triggering item does not exist
     */
    TriggeringResults setTriggering(long triggeringItemId, long[] linksToAdd, long[] linksToRemove) {
        MonitoredItemBase triggering = items.find(triggeringItemId);
        if (triggering == null) {
            throw new UaException(StatusCodes.BadMonitoredItemIdInvalid,
                    "the subscription has no monitored item " + triggeringItemId + " to trigger from");
        }
        StatusCode[] removeResults = new StatusCode[linksToRemove.length];
        for (int i = 0; i < linksToRemove.length; i++) {
            MonitoredItemBase linked = items.find(linksToRemove[i]);
            removeResults[i] = linked != null && triggering.removeLink(linked) ? StatusCode.GOOD
                    : StatusCode.of(StatusCodes.BadMonitoredItemIdInvalid);
        }
        StatusCode[] addResults = new StatusCode[linksToAdd.length];
        for (int i = 0; i < linksToAdd.length; i++) {
            MonitoredItemBase linked = items.find(linksToAdd[i]);
            if (linked == null) {
                addResults[i] = StatusCode.of(StatusCodes.BadMonitoredItemIdInvalid);
            } else {
                triggering.addLink(linked);
                addResults[i] = StatusCode.GOOD;
            }
        }
        return new TriggeringResults(addResults, removeResults);
    }
}
