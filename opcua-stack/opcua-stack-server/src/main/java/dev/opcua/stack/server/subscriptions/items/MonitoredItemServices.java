package dev.opcua.stack.server.subscriptions.items;

import dev.opcua.stack.server.subscriptions.SessionResolver;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.server.transport.uasc.ResponseHeaders;
import dev.opcua.stack.server.transport.uasc.ServerSecureChannel;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.CreateMonitoredItemsRequest;
import dev.opcua.stack.core.types.structured.CreateMonitoredItemsResponse;
import dev.opcua.stack.core.types.structured.DeleteMonitoredItemsRequest;
import dev.opcua.stack.core.types.structured.DeleteMonitoredItemsResponse;
import dev.opcua.stack.core.types.structured.ModifyMonitoredItemsRequest;
import dev.opcua.stack.core.types.structured.ModifyMonitoredItemsResponse;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.core.types.structured.SetMonitoringModeRequest;
import dev.opcua.stack.core.types.structured.SetMonitoringModeResponse;
import dev.opcua.stack.core.types.structured.SetTriggeringRequest;
import dev.opcua.stack.core.types.structured.SetTriggeringResponse;
import dev.opcua.stack.server.nodes.OperationContext;
import dev.opcua.stack.server.services.OperationLimits;
import dev.opcua.stack.server.services.ServiceDispatcher;
import dev.opcua.stack.server.session.Session;
import dev.opcua.stack.server.subscriptions.ItemContainer;
import dev.opcua.stack.server.subscriptions.ItemOwner;
import dev.opcua.stack.server.subscriptions.SubscriptionLookup;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * The MonitoredItem service set (Part 4, 5.12): CreateMonitoredItems, ModifyMonitoredItems,
 * SetMonitoringMode, SetTriggering and DeleteMonitoredItems, on data-change and event items.
 *
 * <p>Request-level faults, in this order: the session's (from the {@link SessionResolver}); no
 * operations BadNothingToDo, more than MaxMonitoredItemsPerCall BadTooManyOperations; an invalid
 * TimestampsToReturn BadTimestampsToReturnInvalid; a missing MonitoringMode
 * BadMonitoringModeInvalid; a subscription the session does not have BadSubscriptionIdInvalid
 * (from the {@link SubscriptionLookup}); for SetTriggering an unknown triggering item
 * BadMonitoredItemIdInvalid.
 *
 * <p>Operation-level statuses (Part 4, 5.12.2.4 and 5.12.3.4): an unknown item
 * BadMonitoredItemIdInvalid; a missing monitoring mode BadMonitoringModeInvalid; a null NodeId
 * BadNodeIdInvalid; a node the validating read does not find BadNodeIdUnknown, an attribute it
 * lacks BadAttributeIdInvalid, a malformed index range BadIndexRangeInvalid, an encoding it refuses
 * BadDataEncodingInvalid / BadDataEncodingUnsupported; no capacity left in the subscription or
 * the server BadTooManyMonitoredItems; an unknown deadband type, a negative deadband or a percent
 * above 100 BadDeadbandFilterInvalid; an EventFilter on an attribute other than EventNotifier, a
 * DataChangeFilter or AggregateFilter on EventNotifier, a deadband on another attribute than Value,
 * on a value that is not a number, or a percent deadband without a usable EURange
 * BadFilterNotAllowed; AggregateFilter, unknown filter encodings, and event items on a server built
 * without events BadMonitoredItemFilterUnsupported; a filter body that is no MonitoringFilter
 * BadMonitoredItemFilterInvalid.
 *
 * <p>Event items (attributeId EventNotifier, Part 4, 5.12.1 and 7.22.3): no EventFilter, one without
 * select clauses or with an invalid where clause BadEventFilterInvalid, with the EventFilterResult
 * that names each rejected clause and operand; rejected select clauses alone leave the item Good
 * with that result; an index range BadIndexRangeInvalid; a node without an EventNotifier attribute
 * BadAttributeIdInvalid, one whose EventNotifier lacks SubscribeToEvents BadNotSupported. The
 * revised sampling interval of an event item is 0.
 */
public final class MonitoredItemServices {

    private final SessionResolver sessions;
    private final SubscriptionLookup subscriptions;
    private final int maxMonitoredItemsPerCall;

    /**
     * @param sessions finds the request's activated session, normally {@code SessionManager::resolve}
     * @param subscriptions finds the session's subscription (the subscription engine)
     * @param maxMonitoredItemsPerCall operation limit of every service of the set, 0 for none
     */
    public MonitoredItemServices(SessionResolver sessions, SubscriptionLookup subscriptions,
            int maxMonitoredItemsPerCall) {
        this.sessions = Objects.requireNonNull(sessions, "sessions");
        this.subscriptions = Objects.requireNonNull(subscriptions, "subscriptions");
        if (maxMonitoredItemsPerCall < 0) {
            throw new IllegalArgumentException("maxMonitoredItemsPerCall must be >= 0 (0 = no limit), was "
                    + maxMonitoredItemsPerCall);
        }
        this.maxMonitoredItemsPerCall = maxMonitoredItemsPerCall;
    }

    /** Registers the five services with a dispatcher. */
    public ServiceDispatcher.Builder registerWith(ServiceDispatcher.Builder dispatcher) {
        return dispatcher.register(CreateMonitoredItemsRequest.class, this::createMonitoredItems)
                .register(ModifyMonitoredItemsRequest.class, this::modifyMonitoredItems)
                .register(SetMonitoringModeRequest.class, this::setMonitoringMode)
                .registerSync(SetTriggeringRequest.class, this::setTriggering)
                .registerSync(DeleteMonitoredItemsRequest.class, this::deleteMonitoredItems);
    }

    public CompletableFuture<CreateMonitoredItemsResponse> createMonitoredItems(ServerSecureChannel channel,
            CreateMonitoredItemsRequest request) {
        RequestHeader header = request.requestHeader();
        Session session = sessions.resolve(channel, header);
        OperationLimits.check(length(request.itemsToCreate()), maxMonitoredItemsPerCall, "monitored items to create");
        checkTimestamps(request.timestampsToReturn());
        MonitoredItemContainer items = containerOf(session, request.subscriptionId());
        return items.create(new OperationContext(channel, session), request.timestampsToReturn(), request.itemsToCreate())
                .thenApply(results -> new CreateMonitoredItemsResponse(ResponseHeaders.good(header.requestHandle()),
                        results, null));
    }

    public CompletableFuture<ModifyMonitoredItemsResponse> modifyMonitoredItems(ServerSecureChannel channel,
            ModifyMonitoredItemsRequest request) {
        RequestHeader header = request.requestHeader();
        Session session = sessions.resolve(channel, header);
        OperationLimits.check(length(request.itemsToModify()), maxMonitoredItemsPerCall, "monitored items to modify");
        checkTimestamps(request.timestampsToReturn());
        MonitoredItemContainer items = containerOf(session, request.subscriptionId());
        return items.modify(new OperationContext(channel, session), request.timestampsToReturn(), request.itemsToModify())
                .thenApply(results -> new ModifyMonitoredItemsResponse(ResponseHeaders.good(header.requestHandle()),
                        results, null));
    }

    public CompletableFuture<SetMonitoringModeResponse> setMonitoringMode(ServerSecureChannel channel,
            SetMonitoringModeRequest request) {
        RequestHeader header = request.requestHeader();
        Session session = sessions.resolve(channel, header);
        OperationLimits.check(length(request.monitoredItemIds()), maxMonitoredItemsPerCall, "monitored item ids");
        if (request.monitoringMode() == null) {
            throw new UaException(StatusCodes.BadMonitoringModeInvalid, "the request has no monitoring mode");
        }
        MonitoredItemContainer items = containerOf(session, request.subscriptionId());
        return items.setMonitoringMode(new OperationContext(channel, session), request.monitoringMode(),
                        request.monitoredItemIds())
                .thenApply(results -> new SetMonitoringModeResponse(ResponseHeaders.good(header.requestHandle()),
                        results, null));
    }

    public SetTriggeringResponse setTriggering(ServerSecureChannel channel, SetTriggeringRequest request) {
        RequestHeader header = request.requestHeader();
        Session session = sessions.resolve(channel, header);
        long[] add = request.linksToAdd() == null ? new long[0] : request.linksToAdd();
        long[] remove = request.linksToRemove() == null ? new long[0] : request.linksToRemove();
        if (add.length == 0 && remove.length == 0) {
            throw new UaException(StatusCodes.BadNothingToDo, "the request has no links to add or remove");
        }
        // the limit applies to each list (the .NET and Milo servers do the same)
        OperationLimits.check(Math.max(add.length, remove.length), maxMonitoredItemsPerCall, "links in a list");
        MonitoredItemContainer items = containerOf(session, request.subscriptionId());
        MonitoredItemContainer.TriggeringResults results =
                items.setTriggering(request.triggeringItemId(), add, remove);
        return new SetTriggeringResponse(ResponseHeaders.good(header.requestHandle()), results.addResults(), null,
                results.removeResults(), null);
    }

    public DeleteMonitoredItemsResponse deleteMonitoredItems(ServerSecureChannel channel,
            DeleteMonitoredItemsRequest request) {
        RequestHeader header = request.requestHeader();
        Session session = sessions.resolve(channel, header);
        OperationLimits.check(length(request.monitoredItemIds()), maxMonitoredItemsPerCall, "monitored item ids");
        MonitoredItemContainer items = containerOf(session, request.subscriptionId());
        return new DeleteMonitoredItemsResponse(ResponseHeaders.good(header.requestHandle()),
                items.delete(request.monitoredItemIds()), null);
    }

    private static void checkTimestamps(TimestampsToReturn timestamps) {
        if (timestamps == null || timestamps == TimestampsToReturn.Invalid) {
            throw new UaException(StatusCodes.BadTimestampsToReturnInvalid,
                    "timestampsToReturn is " + timestamps + ", not Source, Server, Both or Neither");
        }
    }

    private MonitoredItemContainer containerOf(Session session, long subscriptionId) {
        ItemOwner owner = subscriptions.find(session, subscriptionId);
        if (owner == null) {
            throw new UaException(StatusCodes.BadSubscriptionIdInvalid,
                    "the session has no subscription " + subscriptionId);
        }
        ItemContainer items = owner.items();
        if (!(items instanceof MonitoredItemContainer container)) {
            throw new UaException(StatusCodes.BadInternalError, "subscription " + subscriptionId
                    + " holds " + items + ", not items of a MonitoredItemContainerFactory");
        }
        return container;
    }

    private static int length(Object[] array) {
        return array == null ? 0 : array.length;
    }

    private static int length(long[] array) {
        return array == null ? 0 : array.length;
    }
}
