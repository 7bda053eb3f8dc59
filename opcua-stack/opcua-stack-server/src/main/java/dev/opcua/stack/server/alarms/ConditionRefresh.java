package dev.opcua.stack.server.alarms;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.nodes.CallOperation;
import dev.opcua.stack.server.nodes.OperationContext;
import dev.opcua.stack.server.subscriptions.ItemOwner;
import dev.opcua.stack.server.subscriptions.SubscriptionLookup;
import dev.opcua.stack.server.subscriptions.events.EventNotifierRegistry;
import dev.opcua.stack.server.subscriptions.events.UaEvent;
import dev.opcua.stack.server.subscriptions.items.EventMonitoredItem;
import dev.opcua.stack.server.subscriptions.items.MonitoredItemContainer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * ConditionRefresh and ConditionRefresh2 (Part 9, 5.5.7 and 5.5.8), methods of ConditionType called
 * with the ConditionType (i=2782) as object: each event item of the caller's subscription (or the one
 * item named) receives a RefreshStartEventType event (Part 9, 5.11.2), the last event of every
 * retained condition whose source reports to the item's notifier, unchanged (same EventId), and a
 * RefreshEndEventType event (Part 9, 5.11.3). The events go to those items only, through their
 * filters; events reported meanwhile still reach every item.
 *
 * <p>Refusals: a subscription that is not the calling session's is BadSubscriptionIdInvalid, a
 * subscription without event items BadNothingToDo, an item not in it (ConditionRefresh2)
 * BadMonitoredItemIdInvalid, an object other than ConditionType BadMethodInvalid, a call without a
 * session (from inside the server) BadSessionIdInvalid.
 */
public final class ConditionRefresh {

    public static final NodeId CONDITION_REFRESH = NodeId.ns0(NodeIds.ConditionType_ConditionRefresh);
    public static final NodeId CONDITION_REFRESH_2 = NodeId.ns0(NodeIds.ConditionType_ConditionRefresh2);
    public static final NodeId REFRESH_START_EVENT_TYPE = NodeId.ns0(NodeIds.RefreshStartEventType);
    public static final NodeId REFRESH_END_EVENT_TYPE = NodeId.ns0(NodeIds.RefreshEndEventType);
    /** Refresh markers are bookkeeping, not news: the lowest severity. */
    private static final int MARKER_SEVERITY = 1;

    private final SubscriptionLookup subscriptions;
    private final EventNotifierRegistry notifiers;
    private final Supplier<Collection<Condition>> conditions;

    /**
     * @param conditions every condition of the server, asked on each refresh
     */
    public ConditionRefresh(SubscriptionLookup subscriptions, EventNotifierRegistry notifiers,
            Supplier<Collection<Condition>> conditions) {
        this.subscriptions = Objects.requireNonNull(subscriptions, "subscriptions");
        this.notifiers = Objects.requireNonNull(notifiers, "notifiers");
        this.conditions = Objects.requireNonNull(conditions, "conditions");
    }

    /** Whether the method is ConditionRefresh or ConditionRefresh2. */
    public static boolean handles(NodeId methodId) {
        return CONDITION_REFRESH.equals(methodId) || CONDITION_REFRESH_2.equals(methodId);
    }

    /** Answers one call of ConditionRefresh or ConditionRefresh2. */
    public void call(OperationContext context, CallOperation operation) {
        if (!Condition.CONDITION_TYPE.equals(operation.objectId())) {
            operation.fail(StatusCodes.BadMethodInvalid);
            return;
        }
        boolean second = CONDITION_REFRESH_2.equals(operation.methodId());
        if (!operation.requireUInt32Arguments(second ? 2 : 1)) {
            return;
        }
        Variant[] inputs = operation.inputArguments();
        if (context.session() == null) {
            operation.fail(StatusCodes.BadSessionIdInvalid);
            return;
        }
        try {
            ItemOwner subscription = subscriptions.find(context.session(), (Long) inputs[0].value());
            List<EventMonitoredItem> items = items(subscription, second ? (Long) inputs[1].value() : null);
            for (EventMonitoredItem item : items) {
                refresh(item);
            }
            operation.complete(new Variant[0]);
        } catch (UaException e) {
            operation.fail(e.statusCode().value());
        }
    }

    private static List<EventMonitoredItem> items(ItemOwner subscription, Long monitoredItemId) {
        if (!(subscription.items() instanceof MonitoredItemContainer container)) {
            throw new UaException(StatusCodes.BadNothingToDo, "the subscription has no event items");
        }
        if (monitoredItemId != null) {
            EventMonitoredItem item = container.eventItem(monitoredItemId);
            if (item == null) {
                throw new UaException(StatusCodes.BadMonitoredItemIdInvalid, "the subscription has no event item "
                        + monitoredItemId);
            }
            return List.of(item);
        }
        List<EventMonitoredItem> items = container.eventItems();
        if (items.isEmpty()) {
            throw new UaException(StatusCodes.BadNothingToDo, "the subscription has no event items");
        }
        return items;
    }

    /** RefreshStart, the retained conditions that reach the item's notifier, RefreshEnd. */
    private void refresh(EventMonitoredItem item) {
        NodeId notifier = item.nodeId();
        item.onEvent(notifier, marker(REFRESH_START_EVENT_TYPE, "ConditionRefresh started"));
        List<UaEvent> retained = new ArrayList<>();
        for (Condition condition : conditions.get()) {
            UaEvent last = condition.lastEvent();
            NodeId source = condition.identity().sourceNode();
            if (last != null && condition.isRetained() && notifiers.reaches(source, notifier)) {
                retained.add(last);
            }
        }
        for (UaEvent event : retained) {
            item.onEvent(event.sourceNode(), event);
        }
        item.onEvent(notifier, marker(REFRESH_END_EVENT_TYPE, "ConditionRefresh ended"));
    }

    private static UaEvent marker(NodeId type, String message) {
        return UaEvent.builder(type)
                .sourceNode(EventNotifierRegistry.SERVER_OBJECT)
                .sourceName("Server")
                .message(message)
                .severity(MARKER_SEVERITY)
                .build();
    }
}
