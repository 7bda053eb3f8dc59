package dev.opcua.stack.client.subscriptions;

import dev.opcua.stack.client.services.ServiceInvoker;
import dev.opcua.stack.core.Failures;
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
import dev.opcua.stack.core.types.structured.TransferResult;
import dev.opcua.stack.core.types.structured.TransferSubscriptionsRequest;
import dev.opcua.stack.core.types.structured.TransferSubscriptionsResponse;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@link ClientSubscriptions#resume}: a subscription an earlier client created, taken over by this one.
 * <ol>
 * <li>the subscription is built from the token, its items with the token's client handles, and routed, its
 *     messages held: what the server sends once it is this session's is kept, not acknowledged away;</li>
 * <li>TransferSubscriptions (Part 4, 5.13.7) with sendInitialValues false: the values queued meanwhile are
 *     what the application wants, not the current ones again;</li>
 * <li>the Server object's GetMonitoredItems (Part 5, 9.1), allowed only to the owning session, hence after
 *     the transfer: each server handle is matched to the token's item of its client handle;</li>
 * <li>the numbering is set ({@link NotificationSequencer#resumed}), so that what the server still holds is
 *     fetched with Republish and delivered in order before the held messages.</li>
 * </ol>
 */
final class SubscriptionResume {

    private static final Logger log = LoggerFactory.getLogger(SubscriptionResume.class);
    private static final NodeId SERVER = NodeId.ns0(NodeIds.Server);
    private static final NodeId GET_MONITORED_ITEMS = NodeId.ns0(NodeIds.Server_GetMonitoredItems);

    private final ClientSubscriptions owner;
    private final ServiceInvoker services;
    private final ResumeToken token;
    private final DataChangeListener listener;
    private final ClientSubscription subscription;

    SubscriptionResume(ClientSubscriptions owner, ServiceInvoker services, ResumeToken token,
            DataChangeListener listener, int maxQueued) {
        this.owner = owner;
        this.services = services;
        this.token = token;
        this.listener = listener;
        this.subscription = new ClientSubscription(owner, services, token.parameters(), maxQueued);
    }

    /** The subscription being resumed (not yet in the owner's record). */
    ClientSubscription subscription() {
        return subscription;
    }

    CompletableFuture<ResumedSubscription> run() {
        long id = token.subscriptionId();
        subscription.resumeFrom(token);
        for (ResumeToken.Item item : token.items()) {
            subscription.itemsByHandle().put(new ClientMonitoredItem(subscription, item.clientHandle(),
                    item.request(listener)));
        }
        owner.routeOnly(subscription);
        return services.send(h -> new TransferSubscriptionsRequest(h, new long[] {id}, false),
                TransferSubscriptionsResponse.class).thenCompose(response -> {
                    TransferResult[] results = response.results();
                    TransferResult result = results == null || results.length == 0 ? null : results[0];
                    StatusCode status = result == null ? StatusCode.of(StatusCodes.BadUnexpectedError)
                            : result.statusCode();
                    if (status.isBad()) {
                        throw new UaException(status, refusal(id, status));
                    }
                    owner.resumedIntoRecord(subscription);
                    return monitoredItems(id).thenCompose(handles -> matched(handles, result));
                });
    }

    /** The server's (server handles, client handles) of the subscription, or the failure's status. */
    private CompletableFuture<Object> monitoredItems(long id) {
        CallMethodRequest call = new CallMethodRequest(SERVER, GET_MONITORED_ITEMS, new Variant[] {Variant.ofUInt32(id)});
        return services.send(h -> new CallRequest(h, new CallMethodRequest[] {call}), CallResponse.class)
                .handle((response, failure) -> {
                    if (failure != null) {
                        return StatusCode.of(Failures.status(failure));
                    }
                    CallMethodResult[] results = response.results();
                    CallMethodResult r = results == null || results.length == 0 ? null : results[0];
                    if (r == null || r.statusCode().isBad()) {
                        return r == null ? StatusCode.of(StatusCodes.BadUnexpectedError) : r.statusCode();
                    }
                    Variant[] out = r.outputArguments();
                    if (out == null || out.length != 2 || !(out[0].value() instanceof long[] servers)
                            || !(out[1].value() instanceof long[] clients) || servers.length != clients.length) {
                        return StatusCode.of(StatusCodes.BadTypeMismatch);
                    }
                    return new long[][] {servers, clients};
                });
    }

    private CompletableFuture<ResumedSubscription> matched(Object handles, TransferResult transfer) {
        ItemsByHandle items = subscription.itemsByHandle();
        List<Integer> undeclared = new ArrayList<>();
        List<ClientMonitoredItem> missing = new ArrayList<>();
        StatusCode listStatus;
        if (handles instanceof long[][] pairs) {
            listStatus = StatusCode.GOOD;
            List<ClientMonitoredItem> declared = items.values();
            Set<ClientMonitoredItem> found = new HashSet<>();
            for (int i = 0; i < pairs[0].length; i++) {
                int clientHandle = (int) pairs[1][i];
                ClientMonitoredItem item = items.get(clientHandle);
                if (item == null) {
                    item = new ClientMonitoredItem(subscription, clientHandle,
                            DataItemRequest.of(NodeId.NULL, 0, listener));
                    items.put(item);
                    undeclared.add(clientHandle);
                    owner.handleInUse(clientHandle);
                }
                item.resumed(pairs[0][i]);
                found.add(item);
            }
            for (ClientMonitoredItem item : declared) {
                if (!found.contains(item)) {
                    missing.add(item);
                }
            }
        } else {
            listStatus = (StatusCode) handles;
            log.warn("subscription {}: GetMonitoredItems answered {}: assuming the {} items of the resume token, "
                    + "without their MonitoredItemIds", token.subscriptionId(), listStatus, token.items().size());
        }
        if (!undeclared.isEmpty()) {
            log.warn("subscription {}: the server has items with client handles {} that the resume token does not "
                    + "declare: their values go to the listener with an unknown node", token.subscriptionId(),
                    undeclared);
        }
        for (ClientMonitoredItem item : missing) {
            item.serverItemLost();
        }
        if (!missing.isEmpty()) {
            log.info("subscription {}: the server no longer had the items with client handles {}: creating them "
                    + "again", token.subscriptionId(), missing.stream().map(ClientMonitoredItem::clientHandle).toList());
        }
        subscription.sequencer().resumed(token.deliveredSequenceNumber(), transfer.availableSequenceNumbers());
        List<Integer> recreated = missing.stream().map(ClientMonitoredItem::clientHandle).toList();
        return subscription.createResumedItems(missing).thenApply(ok -> {
            log.info("resumed {} (items: {} known, {} undeclared, {} created again)", subscription,
                    subscription.items().size() - undeclared.size() - recreated.size(), undeclared.size(),
                    recreated.size());
            return new ResumedSubscription(subscription, undeclared, recreated, listStatus);
        });
    }

    /** Why TransferSubscriptions refused, in words an operator can act on. */
    static String refusal(long id, StatusCode status) {
        String why;
        if (status.isSameCode(StatusCodes.BadSubscriptionIdInvalid)) {
            why = "the server has no subscription " + id + " (deleted, its lifetime ended, or lost in a server restart "
                    + "without a durable store)";
        } else if (status.isSameCode(StatusCodes.BadUserAccessDenied)) {
            why = "subscription " + id + " belongs to another user: only a session of the user that created it "
                    + "may take it over";
        } else {
            why = "TransferSubscriptions of subscription " + id + " refused";
        }
        return "cannot resume subscription " + id + ": " + why + " (" + status + ")";
    }
}
