package dev.opcua.stack.server.subscriptions.items;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.enumerated.MonitoringMode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.DataChangeFilter;
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
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The monitored items of one subscription (Part 4, 5.12), by MonitoredItemId: adding, finding and
 * removing an item is O(1), so creating 100,000 items is linear. The operations of the
 * MonitoredItem service set on one subscription ({@link MonitoredItemServices} calls them after
 * its request-level checks) give one result per operation; all the address-space work of a
 * request is batched: one read validates every new item (and gives its first sample), one lookup
 * finds the EURanges of all percent deadbands.
 *
 * <p>Thread-safe: requests of one session may run concurrently on several workers.
 */
public final class MonitoredItemContainer implements ItemContainer {

    private static final ExtensionObject NO_FILTER_RESULT = ExtensionObject.NULL;

    private final ItemOwner owner;
    private final ItemContext context;
    private final ConcurrentHashMap<Long, MonitoredItem> items = new ConcurrentHashMap<>();

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

    /** The item with this MonitoredItemId, or null. */
    public MonitoredItem item(long monitoredItemId) {
        return items.get(monitoredItemId);
    }

    @Override
    public void deleteAll() {
        int removed = 0;
        for (Iterator<MonitoredItem> it = items.values().iterator(); it.hasNext(); ) {
            MonitoredItem item = it.next();
            it.remove();
            item.delete();
            removed++;
        }
        if (removed > 0) {
            context.counters.itemsRemoved(removed);
        }
    }

    /** One operation of Create- or ModifyMonitoredItems on its way through the checks. */
    private static final class Pending {
        final int index;
        final ReadValueId itemToMonitor;
        final MonitoringMode mode;
        final MonitoringParameters parameters;
        final DataChangeFilter filter;
        final MonitoredItem existing;
        int status = StatusCodes.Good;
        DataValue current;
        Range euRange;

        Pending(int index, ReadValueId itemToMonitor, MonitoringMode mode, MonitoringParameters parameters,
                DataChangeFilter filter, MonitoredItem existing) {
            this.index = index;
            this.itemToMonitor = itemToMonitor;
            this.mode = mode;
            this.parameters = parameters;
            this.filter = filter;
            this.existing = existing;
        }
    }

    // ---- CreateMonitoredItems (Part 4, 5.12.2) -----------------------------------------------

    CompletableFuture<MonitoredItemCreateResult[]> create(OperationContext operationContext,
            TimestampsToReturn timestamps, MonitoredItemCreateRequest[] requests) {
        MonitoredItemCreateResult[] results = new MonitoredItemCreateResult[requests.length];
        List<Pending> pending = new ArrayList<>(requests.length);
        DataChangeFilter[] filter = new DataChangeFilter[1];
        for (int i = 0; i < requests.length; i++) {
            MonitoredItemCreateRequest request = requests[i];
            int status = request == null ? StatusCodes.BadNodeIdInvalid
                    : request.monitoringMode() == null ? StatusCodes.BadMonitoringModeInvalid
                    : ItemChecks.checkItemToMonitor(request.itemToMonitor());
            if (status == StatusCodes.Good) {
                status = request.requestedParameters() == null ? StatusCodes.BadInvalidArgument
                        : ItemChecks.checkFilter(request.requestedParameters().filter(),
                                request.itemToMonitor().attributeId(), filter);
            }
            if (status != StatusCodes.Good) {
                results[i] = createFailed(status);
            } else {
                pending.add(new Pending(i, request.itemToMonitor(), request.monitoringMode(),
                        request.requestedParameters(), filter[0], null));
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
        List<Pending> created = new ArrayList<>(pending.size());
        List<MonitoredItem> createdItems = new ArrayList<>(pending.size());
        for (Pending p : pending) {
            if (p.status != StatusCodes.Good) {
                results[p.index] = createFailed(p.status);
                continue;
            }
            if (remaining <= 0) {
                results[p.index] = createFailed(StatusCodes.BadTooManyMonitoredItems);
                continue;
            }
            remaining--;
            MonitoredItem item = newItem(p, timestamps);
            created.add(p);
            createdItems.add(item);
            results[p.index] = new MonitoredItemCreateResult(StatusCode.GOOD, item.id(), item.samplingInterval(),
                    item.queueSize(), NO_FILTER_RESULT);
        }
        if (!createdItems.isEmpty()) {
            context.counters.itemsAdded(createdItems.size());
        }
        for (int k = 0; k < createdItems.size(); k++) {
            createdItems.get(k).start(created.get(k).current);
        }
        return results;
    }

    private MonitoredItem newItem(Pending p, TimestampsToReturn timestamps) {
        MonitoringAware aware = context.awareManagerOf(p.itemToMonitor.nodeId(), p.itemToMonitor.attributeId());
        ItemParameters parameters = revise(p, aware, timestamps);
        while (true) {
            MonitoredItem item = new MonitoredItem(context.nextItemId(), owner, context, p.itemToMonitor,
                    ItemChecks.indexRange(p.itemToMonitor), p.mode, parameters);
            if (items.putIfAbsent(item.id(), item) == null) { // taken only after 2^32 ids
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
                settings.reviseQueueSize(requested.queueSize()), requested.discardOldest(),
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

    private static MonitoredItemCreateResult createFailed(int status) {
        return new MonitoredItemCreateResult(StatusCode.of(status), 0, 0, 0, NO_FILTER_RESULT);
    }

    // ---- ModifyMonitoredItems (Part 4, 5.12.3) -----------------------------------------------

    CompletableFuture<MonitoredItemModifyResult[]> modify(OperationContext operationContext,
            TimestampsToReturn timestamps, MonitoredItemModifyRequest[] requests) {
        MonitoredItemModifyResult[] results = new MonitoredItemModifyResult[requests.length];
        List<Pending> pending = new ArrayList<>(requests.length);
        DataChangeFilter[] filter = new DataChangeFilter[1];
        for (int i = 0; i < requests.length; i++) {
            MonitoredItemModifyRequest request = requests[i];
            MonitoredItem item = request == null ? null : items.get(request.monitoredItemId());
            int status;
            if (item == null) {
                status = StatusCodes.BadMonitoredItemIdInvalid;
            } else if (request.requestedParameters() == null) {
                status = StatusCodes.BadInvalidArgument;
            } else {
                status = ItemChecks.checkFilter(request.requestedParameters().filter(),
                        item.itemToMonitor().attributeId(), filter);
                if (status == StatusCodes.Good) {
                    status = ItemChecks.checkDeadbandValue(filter[0], item.lastSample());
                }
            }
            if (status != StatusCodes.Good) {
                results[i] = modifyFailed(status);
            } else {
                pending.add(new Pending(i, item.itemToMonitor(), null, request.requestedParameters(), filter[0],
                        item));
            }
        }
        return resolveEuRanges(operationContext, pending).thenApply(ignored -> {
            for (Pending p : pending) {
                MonitoredItem item = p.existing;
                if (p.status != StatusCodes.Good) {
                    results[p.index] = modifyFailed(p.status);
                } else if (items.get(item.id()) != item) { // deleted meanwhile
                    results[p.index] = modifyFailed(StatusCodes.BadMonitoredItemIdInvalid);
                } else {
                    ItemParameters parameters = revise(p, item.aware(), timestamps);
                    item.modify(parameters);
                    results[p.index] = new MonitoredItemModifyResult(StatusCode.GOOD, parameters.samplingInterval(),
                            parameters.queueSize(), NO_FILTER_RESULT);
                }
            }
            return results;
        });
    }

    private static MonitoredItemModifyResult modifyFailed(int status) {
        return new MonitoredItemModifyResult(StatusCode.of(status), 0, 0, NO_FILTER_RESULT);
    }

    // ---- DeleteMonitoredItems (Part 4, 5.12.6) -----------------------------------------------

    StatusCode[] delete(long[] monitoredItemIds) {
        StatusCode[] results = new StatusCode[monitoredItemIds.length];
        int removed = 0;
        for (int i = 0; i < monitoredItemIds.length; i++) {
            MonitoredItem item = items.remove(monitoredItemIds[i]);
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
            MonitoredItem item = items.get(monitoredItemIds[i]);
            if (item == null) {
                results[i] = StatusCode.of(StatusCodes.BadMonitoredItemIdInvalid);
                continue;
            }
            if (item.setMode(mode)) {
                enabled.add(item);
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
        MonitoredItem triggering = items.get(triggeringItemId);
        if (triggering == null) {
            throw new UaException(StatusCodes.BadMonitoredItemIdInvalid,
                    "the subscription has no monitored item " + triggeringItemId + " to trigger from");
        }
        StatusCode[] removeResults = new StatusCode[linksToRemove.length];
        for (int i = 0; i < linksToRemove.length; i++) {
            MonitoredItem linked = items.get(linksToRemove[i]);
            removeResults[i] = linked != null && triggering.removeLink(linked) ? StatusCode.GOOD
                    : StatusCode.of(StatusCodes.BadMonitoredItemIdInvalid);
        }
        StatusCode[] addResults = new StatusCode[linksToAdd.length];
        for (int i = 0; i < linksToAdd.length; i++) {
            MonitoredItem linked = items.get(linksToAdd[i]);
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
