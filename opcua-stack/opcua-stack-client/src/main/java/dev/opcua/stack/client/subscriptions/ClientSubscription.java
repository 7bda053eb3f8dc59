package dev.opcua.stack.client.subscriptions;

import dev.opcua.stack.core.Failures;
import dev.opcua.stack.client.services.ServiceInvoker;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.structured.CallMethodRequest;
import dev.opcua.stack.core.types.structured.CallMethodResult;
import dev.opcua.stack.core.types.structured.CallRequest;
import dev.opcua.stack.core.types.structured.CallResponse;
import dev.opcua.stack.core.types.enumerated.MonitoringMode;
import dev.opcua.stack.core.types.structured.CreateMonitoredItemsRequest;
import dev.opcua.stack.core.types.structured.CreateMonitoredItemsResponse;
import dev.opcua.stack.core.types.structured.CreateSubscriptionRequest;
import dev.opcua.stack.core.types.structured.CreateSubscriptionResponse;
import dev.opcua.stack.core.types.structured.DeleteMonitoredItemsRequest;
import dev.opcua.stack.core.types.structured.DeleteMonitoredItemsResponse;
import dev.opcua.stack.core.types.structured.ModifyMonitoredItemsRequest;
import dev.opcua.stack.core.types.structured.ModifyMonitoredItemsResponse;
import dev.opcua.stack.core.types.structured.ModifySubscriptionRequest;
import dev.opcua.stack.core.types.structured.ModifySubscriptionResponse;
import dev.opcua.stack.core.types.structured.MonitoredItemCreateRequest;
import dev.opcua.stack.core.types.structured.MonitoredItemCreateResult;
import dev.opcua.stack.core.types.structured.MonitoredItemModifyRequest;
import dev.opcua.stack.core.types.structured.MonitoringFilter;
import dev.opcua.stack.core.types.structured.SetMonitoringModeRequest;
import dev.opcua.stack.core.types.structured.SetMonitoringModeResponse;
import dev.opcua.stack.core.types.structured.SetPublishingModeRequest;
import dev.opcua.stack.core.types.structured.SetPublishingModeResponse;
import dev.opcua.stack.core.types.structured.SetTriggeringRequest;
import dev.opcua.stack.core.types.structured.SetTriggeringResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A subscription (Part 4, 5.13) as the client records it: the parameters asked for and those the
 * server revised, its monitored items and their triggering links, so that it can be created again
 * on another session with the same items, client handles and listeners. The services of this class
 * go through the {@link ServiceInvoker} and update the record when the server accepts them.
 *
 * <p>Its notifications reach the listeners in sequence-number order, gaps filled with Republish
 * (5.13.6) first: see {@link NotificationSequencer}.
 */
public final class ClientSubscription {

    private static final Logger log = LoggerFactory.getLogger(ClientSubscription.class);
    private static final NodeId SERVER = NodeId.ns0(NodeIds.Server);
    private static final NodeId SET_SUBSCRIPTION_DURABLE = NodeId.ns0(NodeIds.Server_SetSubscriptionDurable);
    private static final NodeId CONDITION_TYPE = NodeId.ns0(NodeIds.ConditionType);
    private static final NodeId CONDITION_REFRESH = NodeId.ns0(NodeIds.ConditionType_ConditionRefresh);

    /** A Hot-redundancy mirror to take over at the next recreate, while {@code valid} holds. */
    record Adoption(ClientSubscription mirror, BooleanSupplier valid) {
    }

    private final ClientSubscriptions owner;
    private final ServiceInvoker services;
    private final ItemsByHandle items = new ItemsByHandle();
    private final NotificationDelivery delivery;
    private final NotificationSequencer sequencer;

    private volatile SubscriptionParameters parameters;
    private volatile long subscriptionId;
    private volatile double revisedPublishingInterval;
    private volatile long revisedLifetimeCount;
    private volatile long revisedMaxKeepAliveCount;
    private volatile StatusCode status = StatusCode.GOOD;
    private volatile long revisedDurableLifetimeHours;
    private volatile StatusCode durableStatus = StatusCode.GOOD;
    private volatile SubscriptionStatusListener statusListener;
    private volatile Adoption adoption;

    ClientSubscription(ClientSubscriptions owner, ServiceInvoker services, SubscriptionParameters parameters,
            int maxQueued) {
        this.owner = owner;
        this.services = services;
        this.parameters = parameters;
        this.delivery = new NotificationDelivery(this, owner.counters(), owner.listenerExecutor(), maxQueued,
                owner::listenersDrained);
        this.sequencer = new NotificationSequencer(this, services, owner.acknowledgements(), owner.counters(),
                delivery);
    }

    /** The server's SubscriptionId; changes when the subscription is recreated, 0 while it has none. */
    public long subscriptionId() {
        return subscriptionId;
    }

    /** The parameters asked for (the record a recreate uses). */
    public SubscriptionParameters parameters() {
        return parameters;
    }

    public double revisedPublishingInterval() {
        return revisedPublishingInterval;
    }

    public long revisedLifetimeCount() {
        return revisedLifetimeCount;
    }

    public long revisedMaxKeepAliveCount() {
        return revisedMaxKeepAliveCount;
    }

    /**
     * The lifetime in hours the server granted with SetSubscriptionDurable (Part 5, 9.3), 0 when the
     * subscription is not durable (not asked, or the server refused: see {@link #durableStatus()}).
     */
    public long revisedDurableLifetimeHours() {
        return revisedDurableLifetimeHours;
    }

    /** Whether the server made this subscription durable (Part 4, 6.8). */
    public boolean isDurable() {
        return revisedDurableLifetimeHours > 0;
    }

    /**
     * The result of the last SetSubscriptionDurable: Good when granted or not asked; the server's status
     * when it refused (e.g. BadMethodInvalid from a server without durable subscriptions): the subscription
     * then works as an ordinary one.
     */
    public StatusCode durableStatus() {
        return durableStatus;
    }

    /** The status of the last StatusChangeNotification, Good before any. */
    public StatusCode status() {
        return status;
    }

    /** The monitored items of the record, in creation order. */
    public List<ClientMonitoredItem> items() {
        return items.values();
    }

    /** Notifications waiting for this subscription's listeners now. */
    public int queuedNotifications() {
        return delivery.queued();
    }

    public SubscriptionStatusListener statusListener() {
        return statusListener;
    }

    public void setStatusListener(SubscriptionStatusListener listener) {
        this.statusListener = listener;
    }

    // ---- services ---------------------------------------------------------------------------------

    /**
     * CreateMonitoredItems (Part 4, 5.12.2) of data items, in requests of at most
     * {@link SubscriptionSettings#maxItemsPerRequest()} items.
     *
     * @return every item, in the order of the requests, each with its status; the ones the server
     *         refused are not kept in the record. Fails only when the service itself fails.
     */
    public CompletableFuture<List<ClientMonitoredItem>> createDataItems(List<DataItemRequest> requests) {
        List<ClientMonitoredItem> created = new ArrayList<>(requests.size());
        for (DataItemRequest r : requests) {
            created.add(new ClientMonitoredItem(this, owner.nextClientHandle(), r));
        }
        return createNew(created);
    }

    /** {@link #createDataItems} of one item; fails with a UaException of its status when refused. */
    public CompletableFuture<ClientMonitoredItem> createDataItem(DataItemRequest request) {
        return createDataItems(List.of(request)).thenApply(ClientSubscription::single);
    }

    /** CreateMonitoredItems (Part 4, 5.12.2) of event items; as {@link #createDataItems}. */
    public CompletableFuture<List<ClientMonitoredItem>> createEventItems(List<EventItemRequest> requests) {
        List<ClientMonitoredItem> created = new ArrayList<>(requests.size());
        for (EventItemRequest r : requests) {
            created.add(new ClientMonitoredItem(this, owner.nextClientHandle(), r));
        }
        return createNew(created);
    }

    /** {@link #createEventItems} of one item; fails with a UaException of its status when refused. */
    public CompletableFuture<ClientMonitoredItem> createEventItem(EventItemRequest request) {
        return createEventItems(List.of(request)).thenApply(ClientSubscription::single);
    }

    private static ClientMonitoredItem single(List<ClientMonitoredItem> created) {
        ClientMonitoredItem item = created.get(0);
        if (item.status().isBad()) {
            throw new UaException(item.status(), "CreateMonitoredItems refused " + item);
        }
        return item;
    }

    private CompletableFuture<List<ClientMonitoredItem>> createNew(List<ClientMonitoredItem> created) {
        // Registered before the request: a notification may be handled before the response is.
        for (ClientMonitoredItem item : created) {
            items.put(item);
        }
        return createInChunks(created, 0).handle((ok, failure) -> {
            for (ClientMonitoredItem item : created) {
                if (failure != null || item.status().isBad()) {
                    items.remove(item);
                }
            }
            if (failure != null) {
                throw Failures.unwrap(failure) instanceof RuntimeException e ? e : new UaException(
                        StatusCode.of(StatusCodes.BadUnexpectedError), "CreateMonitoredItems failed", failure);
            }
            return created;
        });
    }

    private CompletableFuture<Void> createInChunks(List<ClientMonitoredItem> all, int from) {
        if (from >= all.size()) {
            return CompletableFuture.completedFuture(null);
        }
        int to = Math.min(all.size(), from + owner.maxItemsPerCall());
        List<ClientMonitoredItem> chunk = all.subList(from, to);
        MonitoredItemCreateRequest[] requests = new MonitoredItemCreateRequest[chunk.size()];
        for (int i = 0; i < requests.length; i++) {
            requests[i] = chunk.get(i).createRequest();
        }
        long id = subscriptionId;
        return services.send(h -> new CreateMonitoredItemsRequest(h, id, owner.settings().timestampsToReturn(),
                requests), CreateMonitoredItemsResponse.class).thenCompose(response -> {
                    MonitoredItemCreateResult[] results = response.results();
                    for (int i = 0; i < chunk.size(); i++) {
                        if (results != null && i < results.length) {
                            chunk.get(i).created(results[i]);
                        } else {
                            chunk.get(i).failed(StatusCode.of(StatusCodes.BadUnexpectedError));
                        }
                    }
                    return createInChunks(all, to);
                });
    }

    /**
     * ModifySubscription (Part 4, 5.13.3), then SetPublishingMode when {@code publishingEnabled}
     * changed; the record keeps the new parameters.
     */
    public CompletableFuture<Void> modify(SubscriptionParameters newParameters) {
        Objects.requireNonNull(newParameters, "newParameters");
        long id = subscriptionId;
        return services.send(h -> new ModifySubscriptionRequest(h, id, newParameters.publishingInterval(),
                newParameters.lifetimeCount(), newParameters.maxKeepAliveCount(),
                PublishHoldBack.notificationsPerPublish(newParameters, owner.settings()),
                (short) newParameters.priority()),
                ModifySubscriptionResponse.class).thenCompose(response -> {
                    boolean enabled = parameters.publishingEnabled();
                    // ModifySubscription does not change the durable mode (Part 4, 6.8)
                    this.parameters = newParameters.withPublishingEnabled(enabled).durable(parameters.durableLifetime());
                    revised(response.revisedPublishingInterval(), response.revisedLifetimeCount(),
                            response.revisedMaxKeepAliveCount());
                    return newParameters.publishingEnabled() == enabled ? CompletableFuture.<Void>completedFuture(null)
                            : setPublishingMode(newParameters.publishingEnabled());
                });
    }

    /** SetPublishingMode (Part 4, 5.13.4); the record keeps the mode for a recreate. */
    public CompletableFuture<Void> setPublishingMode(boolean enabled) {
        long id = subscriptionId;
        return services.send(h -> new SetPublishingModeRequest(h, enabled, new long[] {id}),
                SetPublishingModeResponse.class).thenApply(response -> {
                    StatusCode result = firstResult(response.results());
                    if (result.isBad()) {
                        throw new UaException(result, "SetPublishingMode(" + enabled + ") of subscription " + id);
                    }
                    this.parameters = parameters.withPublishingEnabled(enabled);
                    return null;
                });
    }

    /**
     * SetMonitoringMode (Part 4, 5.12.4) of items of this subscription; the record keeps the mode of
     * each item the server accepted it for.
     *
     * @return the status of each item, in order
     */
    public CompletableFuture<List<StatusCode>> setMonitoringMode(MonitoringMode mode, List<ClientMonitoredItem> targets) {
        Objects.requireNonNull(mode, "mode");
        List<ClientMonitoredItem> list = List.copyOf(targets);
        long[] ids = serverIds(list);
        long id = subscriptionId;
        return services.send(h -> new SetMonitoringModeRequest(h, id, mode, ids), SetMonitoringModeResponse.class)
                .thenApply(response -> {
                    List<StatusCode> results = results(response.results(), list.size());
                    for (int i = 0; i < list.size(); i++) {
                        if (results.get(i).isGood()) {
                            list.get(i).monitoringModeSet(mode);
                        }
                    }
                    return results;
                });
    }

    /** The results of {@link #setTriggering}: one status per link to add and per link to remove. */
    public record TriggeringResults(List<StatusCode> addResults, List<StatusCode> removeResults) {
    }

    /**
     * SetTriggering (Part 4, 5.12.5): {@code triggering} reports the items linked to it (sampling,
     * not reporting) whenever it reports itself. The record keeps the links the server accepted and
     * restores them when the subscription is recreated.
     */
    public CompletableFuture<TriggeringResults> setTriggering(ClientMonitoredItem triggering,
            List<ClientMonitoredItem> linksToAdd, List<ClientMonitoredItem> linksToRemove) {
        List<ClientMonitoredItem> add = List.copyOf(linksToAdd);
        List<ClientMonitoredItem> remove = List.copyOf(linksToRemove);
        long id = subscriptionId;
        long triggeringId = triggering.serverId();
        long[] addIds = serverIds(add);
        long[] removeIds = serverIds(remove);
        return services.send(h -> new SetTriggeringRequest(h, id, triggeringId, addIds, removeIds),
                SetTriggeringResponse.class).thenApply(response -> {
                    List<StatusCode> added = results(response.addResults(), add.size());
                    List<StatusCode> removed = results(response.removeResults(), remove.size());
                    for (int i = 0; i < add.size(); i++) {
                        if (added.get(i).isGood()) {
                            triggering.linkTriggered(add.get(i), true);
                        }
                    }
                    for (int i = 0; i < remove.size(); i++) {
                        if (removed.get(i).isGood()) {
                            triggering.linkTriggered(remove.get(i), false);
                        }
                    }
                    return new TriggeringResults(added, removed);
                });
    }

    CompletableFuture<StatusCode> modifyItem(ClientMonitoredItem item, double samplingInterval, long queueSize,
            boolean discardOldest, MonitoringFilter filter) {
        long id = subscriptionId;
        MonitoredItemModifyRequest[] requests = {new MonitoredItemModifyRequest(item.serverId(),
                item.parameters(samplingInterval, queueSize, discardOldest, filter))};
        return services.send(h -> new ModifyMonitoredItemsRequest(h, id, owner.settings().timestampsToReturn(),
                requests), ModifyMonitoredItemsResponse.class).thenApply(response -> {
                    if (response.results() == null || response.results().length != 1) {
                        throw new UaException(StatusCodes.BadUnexpectedError, "ModifyMonitoredItems returned "
                                + (response.results() == null ? 0 : response.results().length) + " results for 1");
                    }
                    item.modified(response.results()[0], samplingInterval, queueSize, discardOldest, filter);
                    return response.results()[0].statusCode();
                });
    }

    /**
     * DeleteMonitoredItems (Part 4, 5.12.6). The items leave the record (and any triggering link)
     * whatever the server answers for each: an item the server no longer knows is gone as well.
     */
    public CompletableFuture<Void> deleteItems(List<ClientMonitoredItem> targets) {
        List<ClientMonitoredItem> list = List.copyOf(targets);
        long[] ids = serverIds(list);
        long id = subscriptionId;
        return services.send(h -> new DeleteMonitoredItemsRequest(h, id, ids), DeleteMonitoredItemsResponse.class)
                .thenApply(response -> {
                    for (ClientMonitoredItem item : list) {
                        items.remove(item);
                    }
                    for (ClientMonitoredItem other : items.values()) {
                        for (ClientMonitoredItem item : list) {
                            other.linkTriggered(item, false);
                        }
                    }
                    return null;
                });
    }

    /** DeleteSubscriptions (Part 4, 5.13.8) of this subscription; it leaves the record whatever the answer. */
    public CompletableFuture<Void> delete() {
        return owner.delete(this);
    }

    /**
     * ConditionRefresh (Part 9, 5.5.7; Part 4, 6.6.2.2 asks for it after a failover) for this subscription:
     * the server sends RefreshStartEvent, an event for every retained condition, RefreshEndEvent to its
     * event items.
     *
     * @return the method's status (e.g. BadNothingToDo without event items, BadMethodInvalid where the
     *         server has no conditions); fails only when the Call service fails
     */
    public CompletableFuture<StatusCode> conditionRefresh() {
        long id = subscriptionId;
        CallMethodRequest call = new CallMethodRequest(CONDITION_TYPE, CONDITION_REFRESH,
                new Variant[] {Variant.ofUInt32(id)});
        return services.send(h -> new CallRequest(h, new CallMethodRequest[] {call}), CallResponse.class)
                .thenApply(response -> {
                    CallMethodResult[] results = response.results();
                    return results == null || results.length == 0 ? StatusCode.of(StatusCodes.BadUnexpectedError)
                            : results[0].statusCode();
                });
    }

    /** Whether any item of the record monitors events. */
    public boolean hasEventItems() {
        return items.values().stream().anyMatch(ClientMonitoredItem::isEventItem);
    }

    // ---- Hot redundancy (Part 4, 6.6.2.4.5.4) ------------------------------------------------------

    /**
     * Makes this subscription, of a backup server's monitor session, a mirror of {@code original}, or
     * brings it in step: parameters, items, their parameters, monitoring modes and triggering links, see
     * {@link HotMirror}.
     */
    public CompletableFuture<Void> mirror(ClientSubscription original) {
        return HotMirror.sync(this, original);
    }

    /** Creates items of a mirror (see {@link HotMirror}). */
    CompletableFuture<List<ClientMonitoredItem>> createMirrorItems(List<ClientMonitoredItem> missing) {
        return createNew(missing);
    }

    /**
     * At the next recreate (the client moved to another server), take over {@code mirror}, a mirror of
     * this subscription on that server created with publishing disabled, instead of creating anew:
     * TransferSubscriptions to the client's session, SetPublishingMode(true). Only while {@code valid}
     * holds then (the client's session is on the mirror's server); otherwise, or when the transfer fails,
     * the subscription is recreated as usual. Null cancels.
     */
    public void adoptAtNextRecreate(ClientSubscription mirror, BooleanSupplier valid) {
        this.adoption = mirror == null ? null : new Adoption(mirror, valid);
    }

    /** The adoption to try now, if any and still valid; cleared either way. */
    Adoption takeAdoption() {
        Adoption a = adoption;
        adoption = null;
        return a != null && a.mirror().subscriptionId() != 0 && a.valid().getAsBoolean() ? a : null;
    }

    /**
     * The mirror's subscription now belongs to this one's session: this subscription takes its id and
     * its items' ids (by client handle); the mirror leaves its owner's record. Items the mirror lacks are
     * created, triggering links restored.
     */
    CompletableFuture<Void> adopted(ClientSubscription mirror) {
        long oldId = subscriptionId;
        long mirrorId = mirror.subscriptionId;
        sequencer.restart();
        owner.forget(this, oldId);
        this.subscriptionId = mirrorId;
        revised(mirror.revisedPublishingInterval, mirror.revisedLifetimeCount, mirror.revisedMaxKeepAliveCount);
        List<ClientMonitoredItem> all = items.values();
        List<ClientMonitoredItem> lacking = new ArrayList<>();
        List<ClientMonitoredItem> taking = new ArrayList<>();
        for (ClientMonitoredItem item : all) {
            ClientMonitoredItem m = mirror.items.get(item.clientHandle());
            if (m != null && m.serverId() != 0) {
                item.adopt(m);
                taking.add(item);
            } else {
                item.serverItemLost();
                lacking.add(item);
            }
        }
        sequencer.holdBackDelivered(taking);
        mirror.owner.abandon(mirror);
        owner.registered(this);
        return createInChunks(lacking, 0).thenCompose(ok -> restoreTriggering(all));
    }

    /** This subscription's id is no longer this session's (transferred away). */
    void abandoned() {
        sequencer.restart();
        this.subscriptionId = 0;
    }

    // ---- the record: recreate, transfer ----------------------------------------------------------

    CompletableFuture<ClientSubscription> create() {
        SubscriptionParameters p = parameters;
        return services.send(h -> new CreateSubscriptionRequest(h, p.publishingInterval(), p.lifetimeCount(),
                p.maxKeepAliveCount(), PublishHoldBack.notificationsPerPublish(p, owner.settings()), p.publishingEnabled(),
                (short) p.priority()),
                CreateSubscriptionResponse.class).thenCompose(response -> {
                    this.subscriptionId = response.subscriptionId();
                    revised(response.revisedPublishingInterval(), response.revisedLifetimeCount(),
                            response.revisedMaxKeepAliveCount());
                    this.revisedDurableLifetimeHours = 0;
                    return p.durable() ? setDurable(response.subscriptionId(), p.durableLifetimeHours())
                            : CompletableFuture.completedFuture(null);
                }).thenApply(ok -> this);
    }

    /**
     * SetSubscriptionDurable (Part 5, 9.3) on the Server object, right after CreateSubscription and before
     * any monitored item (Part 4, 6.8). The revised hours set the server's lifetimeCount; the record keeps
     * the revised hours. A refusal is logged and kept in {@link #durableStatus()}: the subscription stays an
     * ordinary one rather than failing; a failed service fails the create.
     */
    private CompletableFuture<Void> setDurable(long id, long hours) {
        CallMethodRequest call = new CallMethodRequest(SERVER, SET_SUBSCRIPTION_DURABLE,
                new Variant[] {Variant.ofUInt32(id), Variant.ofUInt32(hours)});
        return services.send(h -> new CallRequest(h, new CallMethodRequest[] {call}), CallResponse.class)
                .thenAccept(response -> {
                    CallMethodResult[] results = response.results();
                    CallMethodResult result = results == null || results.length == 0 ? null : results[0];
                    StatusCode code = result == null ? StatusCode.of(StatusCodes.BadUnexpectedError) : result.statusCode();
                    Variant[] out = result == null ? null : result.outputArguments();
                    if (code.isBad() || out == null || out.length == 0 || !(out[0].value() instanceof Long revised)) {
                        durableStatus = code.isBad() ? code : StatusCode.of(StatusCodes.BadUnexpectedError);
                        log.warn("SetSubscriptionDurable({}, {} h) refused: {}; the subscription is not durable", id,
                                hours, durableStatus);
                        return;
                    }
                    durableStatus = StatusCode.GOOD;
                    revisedDurableLifetimeHours = revised;
                    if (revised < hours) {
                        log.info("subscription {}: durable for {} h (asked {} h)", id, revised, hours);
                    }
                });
    }

    /**
     * Creates the subscription again from the record, on whatever session the invoker now uses: a new
     * SubscriptionId, sequence numbers from 1, every item with its client handle, parameters and
     * monitoring mode, then the triggering links. Items the server refuses stay in the record with
     * their status (the next recreate tries again).
     */
    CompletableFuture<Void> recreate() {
        long oldId = subscriptionId;
        sequencer.restart();
        owner.forget(this, oldId);
        this.subscriptionId = 0;
        List<ClientMonitoredItem> all = items.values();
        for (ClientMonitoredItem item : all) {
            item.serverItemLost();
        }
        return create().thenCompose(created -> {
            owner.registered(this);
            return createInChunks(all, 0);
        }).thenCompose(ok -> restoreTriggering(all));
    }

    private CompletableFuture<Void> restoreTriggering(List<ClientMonitoredItem> all) {
        CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
        for (ClientMonitoredItem item : all) {
            List<ClientMonitoredItem> links = item.triggeredItems();
            if (links.isEmpty() || item.serverId() == 0) {
                continue;
            }
            List<ClientMonitoredItem> live = links.stream().filter(l -> l.serverId() != 0).toList();
            long id = subscriptionId;
            long triggeringId = item.serverId();
            long[] addIds = serverIds(live);
            chain = chain.thenCompose(ok -> services.send(h -> new SetTriggeringRequest(h, id, triggeringId, addIds,
                    null), SetTriggeringResponse.class).thenApply(r -> null));
        }
        return chain;
    }

    /**
     * The subscription was transferred to the current session (TransferSubscriptions, Part 4, 5.13.7):
     * see {@link NotificationSequencer#transferred}. A durable one (Part 4, 6.8) may come from a server
     * restored from a snapshot older than what it sent before a crash: its items' queues hold values the
     * listeners had, which are dropped as after a Hot takeover ({@link NotificationSequencer#holdBackDelivered}).
     */
    void transferred(long[] availableSequenceNumbers) {
        if (isDurable()) {
            sequencer.holdBackDelivered(items.values());
        }
        sequencer.transferred(availableSequenceNumbers);
    }

    /**
     * What a new client process needs to resume this subscription ({@link ClientSubscriptions#resume}): id,
     * parameters, data items, and the sequence number of the last message handed to the listeners now.
     *
     * @throws IllegalStateException while the subscription has no server id
     */
    public ResumeToken resumeToken() {
        long id = subscriptionId;
        if (id == 0) {
            throw new IllegalStateException(this + " has no SubscriptionId at the server now");
        }
        return new ResumeToken(id, parameters, revisedPublishingInterval, revisedLifetimeCount,
                revisedMaxKeepAliveCount, revisedDurableLifetimeHours, sequencer.lastDeliveredWire(),
                items.values().stream().filter(i -> !i.isEventItem()).map(ClientMonitoredItem::resumeTokenItem)
                        .toList());
    }

    /**
     * A new client takes over the server's subscription of {@code token} (see {@link ClientSubscriptions#resume}):
     * its id and revised values; its messages are held until {@link NotificationSequencer#resumed}.
     */
    void resumeFrom(ResumeToken token) {
        this.subscriptionId = token.subscriptionId();
        revised(token.revisedPublishingInterval(), token.revisedLifetimeCount(), token.revisedMaxKeepAliveCount());
        this.revisedDurableLifetimeHours = token.durableLifetimeHours();
        sequencer.beginResume();
    }

    /** Items of a resumed subscription the server no longer has: created again with their client handles. */
    CompletableFuture<Void> createResumedItems(List<ClientMonitoredItem> missing) {
        return createInChunks(missing, 0);
    }

    /**
     * After the session was re-activated on a new channel: see {@link NotificationSequencer#reactivated}; on another
     * server of a HotAndMirrored set also {@link NotificationSequencer#holdBackDelivered}.
     */
    void reactivated(boolean onOtherServer) {
        if (onOtherServer) {
            sequencer.holdBackDelivered(items.values());
        }
        sequencer.reactivated();
    }

    /** Tests: as if every message up to {@code wireNumber} had been delivered. */
    void deliveredUpTo(long wireNumber) {
        sequencer.deliveredUpTo(wireNumber);
    }

    // ---- for the sequencer and the Publish pipeline ----------------------------------------------

    /** Where the Publish pipeline hands this subscription's messages. */
    NotificationSequencer sequencer() {
        return sequencer;
    }

    /** This subscription's listener queue: its room limits the Publish requests outstanding. */
    NotificationDelivery delivery() {
        return delivery;
    }

    /** A StatusChangeNotification with {@code status} was handed to the listeners. */
    void statusChanged(StatusCode status) {
        this.status = status;
    }

    /** The server reported the subscription expired: see {@link ClientSubscriptions}. */
    void expiredAtServer() {
        owner.expired(this);
    }

    ItemsByHandle itemsByHandle() {
        return items;
    }

    /** How long the server may stay silent: one keep-alive period and one more interval, plus the margin. */
    long silenceNanos(long marginNanos) {
        double millis = revisedPublishingInterval * (revisedMaxKeepAliveCount + 1);
        return (long) (millis * 1_000_000L) + marginNanos;
    }

    private void revised(double interval, long lifetime, long keepAlive) {
        this.revisedPublishingInterval = interval;
        this.revisedLifetimeCount = lifetime;
        this.revisedMaxKeepAliveCount = keepAlive;
    }

    private static long[] serverIds(List<ClientMonitoredItem> list) {
        long[] ids = new long[list.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = list.get(i).serverId();
        }
        return ids;
    }

    private static List<StatusCode> results(StatusCode[] results, int expected) {
        if (results == null || results.length != expected) {
            throw new UaException(StatusCodes.BadUnexpectedError, "the server returned "
                    + (results == null ? 0 : results.length) + " results for " + expected + " operations");
        }
        return List.of(results);
    }

    private static StatusCode firstResult(StatusCode[] results) {
        return results == null || results.length == 0 ? StatusCode.of(StatusCodes.BadUnexpectedError) : results[0];
    }

    @Override
    public String toString() {
        return "ClientSubscription[id=" + subscriptionId + ", interval=" + revisedPublishingInterval + " ms, keepAlive="
                + revisedMaxKeepAliveCount + ", items=" + items.size() + "]";
    }
}
