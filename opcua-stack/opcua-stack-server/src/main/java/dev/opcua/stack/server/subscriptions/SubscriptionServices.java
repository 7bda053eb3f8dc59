package dev.opcua.stack.server.subscriptions;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.server.transport.uasc.ResponseHeaders;
import dev.opcua.stack.server.transport.uasc.ServerSecureChannel;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.structured.CreateSubscriptionRequest;
import dev.opcua.stack.core.types.structured.CreateSubscriptionResponse;
import dev.opcua.stack.core.types.structured.DeleteSubscriptionsRequest;
import dev.opcua.stack.core.types.structured.DeleteSubscriptionsResponse;
import dev.opcua.stack.core.types.structured.ModifySubscriptionRequest;
import dev.opcua.stack.core.types.structured.ModifySubscriptionResponse;
import dev.opcua.stack.core.types.structured.RepublishRequest;
import dev.opcua.stack.core.types.structured.RepublishResponse;
import dev.opcua.stack.core.types.structured.SetPublishingModeRequest;
import dev.opcua.stack.core.types.structured.SetPublishingModeResponse;
import dev.opcua.stack.core.types.structured.TransferResult;
import dev.opcua.stack.core.types.structured.TransferSubscriptionsRequest;
import dev.opcua.stack.core.types.structured.TransferSubscriptionsResponse;
import dev.opcua.stack.server.requests.PublishParking;
import dev.opcua.stack.server.services.OperationLimits;
import dev.opcua.stack.server.services.ServiceDispatcher;
import dev.opcua.stack.server.session.Session;

/**
 * The Subscription Service Set (Part 4, 5.13) on the {@link SubscriptionManager}: CreateSubscription,
 * ModifySubscription, SetPublishingMode, Republish, TransferSubscriptions and DeleteSubscriptions run
 * on workers; Publish never does: {@link #publishParking()} takes it on the event loop.
 *
 * <p>Every request needs an activated session on its channel (the {@link SessionResolver}'s faults).
 * Request faults: CreateSubscription BadTooManySubscriptions (server or session limit);
 * ModifySubscription and Republish BadSubscriptionIdInvalid; Republish BadMessageNotAvailable;
 * SetPublishingMode, DeleteSubscriptions and TransferSubscriptions without ids BadNothingToDo.
 * Operation results: SetPublishingMode and DeleteSubscriptions Good or BadSubscriptionIdInvalid;
 * TransferSubscriptions Good, BadSubscriptionIdInvalid, BadUserAccessDenied, BadNothingToDo or
 * BadTooManySubscriptions. Publish: see {@link SubscriptionManager} and {@link Subscription}.
 */
public final class SubscriptionServices {

    private final SubscriptionManager manager;
    private final SessionResolver sessions;
    private final PublishParking parking;

    /**
     * @param sessions the activated session of a request, normally {@code sessionManager::resolve}
     * @param limits decoding limits of Publish requests, normally {@code TransportQuotas.encodingLimits()}
     */
    public SubscriptionServices(SubscriptionManager manager, SessionResolver sessions, EncodingLimits limits) {
        this(manager, sessions, CodecRegistry.standard(), limits);
    }

    public SubscriptionServices(SubscriptionManager manager, SessionResolver sessions, CodecRegistry registry,
            EncodingLimits limits) {
        this.manager = manager;
        this.sessions = sessions;
        this.parking = new SubscriptionPublishParking(manager, sessions, registry, limits);
    }

    /** Registers the six services that run on workers; Publish goes through {@link #publishParking()}. */
    public ServiceDispatcher.Builder registerWith(ServiceDispatcher.Builder dispatcher) {
        return dispatcher
                .registerSync(CreateSubscriptionRequest.class, this::createSubscription)
                .registerSync(ModifySubscriptionRequest.class, this::modifySubscription)
                .registerSync(SetPublishingModeRequest.class, this::setPublishingMode)
                .registerSync(RepublishRequest.class, this::republish)
                .registerSync(TransferSubscriptionsRequest.class, this::transferSubscriptions)
                .registerSync(DeleteSubscriptionsRequest.class, this::deleteSubscriptions);
    }

    /** For {@code ServiceDispatcher.Builder.publishParking(...)}. */
    public PublishParking publishParking() {
        return parking;
    }

    /** CreateSubscription (Part 4, 5.13.2). */
    public CreateSubscriptionResponse createSubscription(ServerSecureChannel channel,
            CreateSubscriptionRequest request) {
        Session session = sessions.resolve(channel, request.requestHeader());
        Subscription subscription = manager.create(session, request.requestedPublishingInterval(),
                request.requestedLifetimeCount(), request.requestedMaxKeepAliveCount(),
                request.maxNotificationsPerPublish(), request.publishingEnabled(), request.priority());
        return new CreateSubscriptionResponse(ResponseHeaders.good(request.requestHeader().requestHandle()),
                subscription.subscriptionId(), subscription.publishingIntervalMillis(), subscription.lifetimeCount(),
                subscription.maxKeepAliveCount());
    }

    /** ModifySubscription (Part 4, 5.13.3). */
    public ModifySubscriptionResponse modifySubscription(ServerSecureChannel channel,
            ModifySubscriptionRequest request) {
        Session session = sessions.resolve(channel, request.requestHeader());
        Subscription subscription = manager.modify(session, request.subscriptionId(),
                request.requestedPublishingInterval(), request.requestedLifetimeCount(),
                request.requestedMaxKeepAliveCount(), request.maxNotificationsPerPublish(), request.priority());
        return new ModifySubscriptionResponse(ResponseHeaders.good(request.requestHeader().requestHandle()),
                subscription.publishingIntervalMillis(), subscription.lifetimeCount(),
                subscription.maxKeepAliveCount());
    }

    /** SetPublishingMode (Part 4, 5.13.4). */
    public SetPublishingModeResponse setPublishingMode(ServerSecureChannel channel, SetPublishingModeRequest request) {
        Session session = sessions.resolve(channel, request.requestHeader());
        long[] ids = request.subscriptionIds();
        OperationLimits.check(ids == null ? 0 : ids.length, 0, "subscription ids");
        StatusCode[] results = new StatusCode[ids.length];
        for (int i = 0; i < ids.length; i++) {
            results[i] = manager.setPublishingMode(session, ids[i], request.publishingEnabled());
        }
        return new SetPublishingModeResponse(ResponseHeaders.good(request.requestHeader().requestHandle()), results,
                null);
    }

    /** Republish (Part 4, 5.13.6). */
    public RepublishResponse republish(ServerSecureChannel channel, RepublishRequest request) {
        Session session = sessions.resolve(channel, request.requestHeader());
        return new RepublishResponse(ResponseHeaders.good(request.requestHeader().requestHandle()),
                manager.republish(session, request.subscriptionId(), request.retransmitSequenceNumber()));
    }

    /** TransferSubscriptions (Part 4, 5.13.7). */
    public TransferSubscriptionsResponse transferSubscriptions(ServerSecureChannel channel,
            TransferSubscriptionsRequest request) {
        Session session = sessions.resolve(channel, request.requestHeader());
        long[] ids = request.subscriptionIds();
        OperationLimits.check(ids == null ? 0 : ids.length, 0, "subscription ids");
        TransferResult[] results = new TransferResult[ids.length];
        for (int i = 0; i < ids.length; i++) {
            results[i] = manager.transfer(session, ids[i], request.sendInitialValues());
        }
        return new TransferSubscriptionsResponse(ResponseHeaders.good(request.requestHeader().requestHandle()),
                results, null);
    }

    /** DeleteSubscriptions (Part 4, 5.13.8), with their monitored items. */
    public DeleteSubscriptionsResponse deleteSubscriptions(ServerSecureChannel channel,
            DeleteSubscriptionsRequest request) {
        Session session = sessions.resolve(channel, request.requestHeader());
        long[] ids = request.subscriptionIds();
        OperationLimits.check(ids == null ? 0 : ids.length, 0, "subscription ids");
        StatusCode[] results = new StatusCode[ids.length];
        for (int i = 0; i < ids.length; i++) {
            results[i] = manager.delete(session, ids[i]);
        }
        return new DeleteSubscriptionsResponse(ResponseHeaders.good(request.requestHeader().requestHandle()), results,
                null);
    }
}
