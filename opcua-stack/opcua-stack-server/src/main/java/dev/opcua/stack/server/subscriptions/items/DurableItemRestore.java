package dev.opcua.stack.server.subscriptions.items;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.structured.DataChangeFilter;
import dev.opcua.stack.core.types.structured.Range;
import dev.opcua.stack.server.nodes.OperationContext;
import dev.opcua.stack.server.subscriptions.ItemOwner;
import dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionRecord;
import dev.opcua.stack.server.subscriptions.events.EventFilterEvaluator;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Re-creates the monitored items of a restored durable subscription (Part 4, 6.8) or of a session taken over
 * from a partner (Part 4, 6.6.2.4.5) from their records, with their MonitoredItemIds, parameters and queues,
 * and starts them. What the server checked at CreateMonitoredItems is checked again against this server:
 *
 * <ul>
 *   <li>an event item's EventFilter is compiled again against this server's event types (Part 4, 7.22.3); its
 *       queued events come back as the fields its select clauses chose, published before new events;</li>
 *   <li>a percent deadband is a share of the variable's EURange (Part 8, 6.2, AnalogItemType 5.3.2): the EURange
 *       is looked up again here, as CreateMonitoredItems does, since the restored server may have changed it;
 *       an item whose variable has no usable EURange now is not restored (CreateMonitoredItems would answer
 *       BadFilterNotAllowed).</li>
 * </ul>
 *
 * Items that cannot be restored are logged and skipped; the others are unaffected.
 */
final class DurableItemRestore {

    private static final Logger log = LoggerFactory.getLogger(DurableItemRestore.class);

    private final MonitoredItemContainer container;
    private final ItemOwner owner;
    private final ItemContext context;

    DurableItemRestore(MonitoredItemContainer container, ItemOwner owner, ItemContext context) {
        this.container = container;
        this.owner = owner;
        this.context = context;
    }

    /**
     * Restores the items. Items with a percent deadband are added once their EURanges are known: at once when the
     * node managers answer at once (the usual case), else a moment later.
     *
     * @return the items restored by the time this returns
     */
    int restore(List<DurableSubscriptionRecord.Item> records) {
        List<MonitoredItemBase> restored = new ArrayList<>(records.size());
        List<DurableSubscriptionRecord.Item> percent = new ArrayList<>();
        List<DataChangeFilter> percentFilters = new ArrayList<>();
        DataChangeFilter[] filter = new DataChangeFilter[1];
        for (DurableSubscriptionRecord.Item r : records) {
            if (r.event()) {
                add(eventItem(r), restored);
                continue;
            }
            int status = ItemChecks.checkFilter(r.filter(), r.itemToMonitor().attributeId(), filter);
            if (status != StatusCodes.Good) {
                skip(r, "its filter is refused (" + StatusCodes.name(status) + ")");
            } else if (ItemChecks.needsEuRange(filter[0])) {
                percent.add(r);
                percentFilters.add(filter[0]);
            } else {
                add(dataItem(r, ItemChecks.compile(filter[0], null)), restored);
            }
        }
        start(restored);
        return restored.size() + restorePercent(percent, percentFilters);
    }

    /** One EURange lookup for all percent-deadband items; the count of those added before this returns. */
    private int restorePercent(List<DurableSubscriptionRecord.Item> records, List<DataChangeFilter> filters) {
        if (records.isEmpty()) {
            return 0;
        }
        NodeId[] variables = new NodeId[records.size()];
        for (int k = 0; k < variables.length; k++) {
            variables[k] = records.get(k).itemToMonitor().nodeId();
        }
        AtomicInteger added = new AtomicInteger();
        CompletableFuture<Range[]> ranges = EuRangeLookup.lookup(context.managers, OperationContext.INTERNAL,
                variables);
        ranges.whenComplete((found, failure) -> {
            List<MonitoredItemBase> restored = new ArrayList<>(records.size());
            for (int k = 0; k < records.size(); k++) {
                DurableSubscriptionRecord.Item r = records.get(k);
                Range range = failure == null ? found[k] : null;
                if (range == null) {
                    skip(r, "its percent deadband needs an EURange and the variable has no usable one"
                            + (failure == null ? "" : " (" + failure + ")"));
                } else {
                    add(dataItem(r, ItemChecks.compile(filters.get(k), range)), restored);
                }
            }
            start(restored);
            added.set(restored.size());
        });
        return added.get();
    }

    private MonitoredItem dataItem(DurableSubscriptionRecord.Item r, ChangeFilter filter) {
        ItemParameters parameters = new ItemParameters(r.clientHandle(), r.samplingInterval(), r.queueSize(),
                r.discardOldest(), filter, r.timestamps());
        MonitoredItem item = new MonitoredItem(r.monitoredItemId(), owner, context, r.itemToMonitor(),
                ItemChecks.indexRange(r.itemToMonitor()), r.mode(), parameters);
        item.requestedFilter = r.filter();
        item.restoreQueue(r.queuedValues(), r.lastValue());
        return item;
    }

    /** The event item of the record, or null (logged) when this server cannot monitor it as before. */
    private EventMonitoredItem eventItem(DurableSubscriptionRecord.Item r) {
        if (!container.isEventItem(r.itemToMonitor())) {
            skip(r, "this server serves no events");
            return null;
        }
        EventFilterEvaluator[] compiled = new EventFilterEvaluator[1];
        int status = container.compileEventFilter(r.filter(), r.itemToMonitor(), compiled);
        if (status != StatusCodes.Good) {
            skip(r, "its EventFilter is refused (" + StatusCodes.name(status) + ")");
            return null;
        }
        EventMonitoredItem item = new EventMonitoredItem(r.monitoredItemId(), owner, context, r.itemToMonitor(),
                r.mode(), new EventParameters(r.clientHandle(), r.queueSize(), r.discardOldest(), compiled[0]));
        item.requestedFilter = r.filter();
        item.restoreQueue(r.queuedEvents());
        return item;
    }

    private void add(MonitoredItemBase item, List<MonitoredItemBase> restored) {
        if (item == null) {
            return;
        }
        if (!container.addRestored(item)) {
            log.warn("subscription {}: item {} is not restored: its id is taken", owner.subscriptionId(), item.id());
            return;
        }
        restored.add(item);
    }

    private void start(List<MonitoredItemBase> restored) {
        if (restored.isEmpty()) {
            return;
        }
        context.counters.itemsAdded(restored.size());
        for (MonitoredItemBase item : restored) {
            if (item instanceof MonitoredItem data) {
                data.startRestored();
            } else if (item instanceof EventMonitoredItem events) {
                events.startRestored();
            }
        }
    }

    private void skip(DurableSubscriptionRecord.Item r, String why) {
        log.warn("subscription {}: item {} on {} is not restored: {}", owner.subscriptionId(), r.monitoredItemId(),
                r.itemToMonitor().nodeId(), why);
    }
}
