package dev.opcua.stack.client.subscriptions;

import dev.opcua.stack.client.services.ServiceInvoker;
import dev.opcua.stack.core.Failures;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.structured.DeleteSubscriptionsRequest;
import dev.opcua.stack.core.types.structured.DeleteSubscriptionsResponse;
import dev.opcua.stack.core.types.structured.SetPublishingModeRequest;
import dev.opcua.stack.core.types.structured.SetPublishingModeResponse;
import dev.opcua.stack.core.types.structured.TransferResult;
import dev.opcua.stack.core.types.structured.TransferSubscriptionsRequest;
import dev.opcua.stack.core.types.structured.TransferSubscriptionsResponse;
import io.netty.util.Timer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The subscriptions of one client (Part 4, 5.13) and the client's own record of them and their
 * monitored items, so that they survive a reconnect. The record is rebuilt here; the parts that keep
 * the subscriptions running are:
 * <ul>
 * <li>the {@link PublishPipeline}: Publish requests kept outstanding for all subscriptions (5.13.5),
 *     their responses handled on the I/O thread that read them, and the watchdog that notices a silent
 *     server ({@link #setOnServerSilent(Runnable) onServerSilent}) or a lost session
 *     ({@link #setOnSessionInvalid(Consumer) onSessionInvalid});</li>
 * <li>the {@link Acknowledgements} every NotificationMessage received, republished ones included,
 *     gets in the next Publish request;</li>
 * <li>a {@link NotificationSequencer} per subscription: notifications in sequence-number order, a gap
 *     filled with Republish (5.13.6), one request per missing number; a number the server no longer
 *     holds (BadMessageNotAvailable, or absent from availableSequenceNumbers) counts as lost
 *     ({@link #lostSequenceNumbers()});</li>
 * <li>a {@link NotificationDelivery} per subscription: listeners run on the listener executor, one
 *     subscription's notifications one after the other in sequence order, so never on an I/O thread and
 *     never holding up the pipeline. Each subscription queues at most
 *     {@link SubscriptionSettings#maxQueuedNotifications()} notifications for its listeners; the pipeline
 *     sends no more Publish requests than the queues have room for responses ({@link #publishHoldBacks()}),
 *     so a backlog waits at the server, and only a response larger than the room left is dropped and
 *     counted ({@link #droppedNotifications()}). A listener's exception is logged
 *     and counted ({@link #listenerErrors()}). An executor that runs tasks in the calling thread makes
 *     listeners run where the Publish response is handled (the I/O thread), holding up that connection
 *     while they run: only for listeners that never block.</li>
 * </ul>
 *
 * <h2>Reconnects</h2>
 * The client's reconnector calls {@link #connectionLost()}, then {@link #sessionReactivated()} or
 * {@link #sessionReplaced()}; see each. Requests are built from the header of the session current at
 * send time (see {@link ServiceInvoker}), so nothing here holds a session. A subscription the server
 * reports expired (StatusChangeNotification BadTimeout: its lifetime ran out, the session survived)
 * is recreated the same way, its listeners kept.
 *
 * <p>Thread-safe. Futures complete on the invoker's threads.
 */
public final class ClientSubscriptions {

    private static final Logger log = LoggerFactory.getLogger(ClientSubscriptions.class);

    private final ServiceInvoker services;
    private final SubscriptionSettings settings;
    private final Executor listenerExecutor;
    private final CopyOnWriteArrayList<ClientSubscription> record = new CopyOnWriteArrayList<>();
    private final AtomicInteger clientHandles = new AtomicInteger();
    private final SubscriptionCounters counters = new SubscriptionCounters();
    private final Acknowledgements acknowledgements = new Acknowledgements();
    private final PublishPipeline pipeline;
    private volatile IntSupplier serverMaxItemsPerCall = () -> 0;

    /**
     * @param services the client's service invoker; every request goes through it
     * @param listenerExecutor where listeners run (the caller owns it)
     * @param timer the client's timer, for the watchdog and Publish retries (the caller owns it)
     */
    public ClientSubscriptions(ServiceInvoker services, SubscriptionSettings settings, Executor listenerExecutor,
            Timer timer) {
        this(services, settings, listenerExecutor, timer, System::nanoTime);
    }

    ClientSubscriptions(ServiceInvoker services, SubscriptionSettings settings, Executor listenerExecutor, Timer timer,
            LongSupplier nanoClock) {
        this.services = Objects.requireNonNull(services, "services");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.listenerExecutor = Objects.requireNonNull(listenerExecutor, "listenerExecutor");
        this.pipeline = new PublishPipeline(services, settings, listenerExecutor, Objects.requireNonNull(timer, "timer"),
                nanoClock, record, acknowledgements, counters);
    }

    /**
     * CreateSubscription (Part 4, 5.13.2); the subscription enters the record and the Publish
     * pipeline serves it.
     */
    public CompletableFuture<ClientSubscription> create(SubscriptionParameters parameters) {
        Objects.requireNonNull(parameters, "parameters");
        if (pipeline.isClosed()) {
            return CompletableFuture.failedFuture(new IllegalStateException("subscriptions are closed"));
        }
        ClientSubscription subscription = new ClientSubscription(this, services, parameters,
                settings.maxQueuedNotifications());
        return subscription.create().thenApply(created -> {
            record.add(created);
            registered(created);
            return created;
        });
    }

    /**
     * Takes over a subscription that another client, typically an earlier process of this application, created
     * and left at the server: a durable one (Part 4, 6.8) that queued its items' values meanwhile, or an ordinary
     * one within its lifetime. TransferSubscriptions (Part 4, 5.13.7, sendInitialValues false) moves it to this
     * client's session, the Server object's GetMonitoredItems (Part 5, 9.1) names its items' handles, and the
     * Publish pipeline serves it: what the server queued arrives in order, what it still holds beyond the
     * token's {@link ResumeToken#deliveredSequenceNumber()} is fetched with Republish first, nothing twice.
     * The subscription then lives in this client's record like one it created (reconnects, recreates).
     *
     * <p>The token says which node each client handle is ({@link ClientSubscription#resumeToken()},
     * {@link #detach}); every item's values go to {@code listener}, which tells them apart by
     * {@link ClientMonitoredItem#node()} or {@link ClientMonitoredItem#clientHandle()}. Items the server has
     * and the token does not declare, and items it lost, are reported in the result (see
     * {@link ResumedSubscription}). Client handles this client gives new items stay clear of the resumed ones.
     *
     * @return fails with a {@link dev.opcua.stack.core.UaException} of BadSubscriptionIdInvalid (the server has
     *         no such subscription), BadUserAccessDenied (this session's user is not the one that created it) or
     *         the failure of the service; with an IllegalStateException when this client has the subscription
     *         already
     */
    public CompletableFuture<ResumedSubscription> resume(ResumeToken token, DataChangeListener listener) {
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(listener, "listener");
        if (pipeline.isClosed()) {
            return CompletableFuture.failedFuture(new IllegalStateException("subscriptions are closed"));
        }
        if (record.stream().anyMatch(s -> s.subscriptionId() == token.subscriptionId())) {
            return CompletableFuture.failedFuture(new IllegalStateException(
                    "subscription " + token.subscriptionId() + " is this client's already"));
        }
        for (ResumeToken.Item item : token.items()) {
            handleInUse(item.clientHandle());
        }
        SubscriptionResume resume = new SubscriptionResume(this, services, token, listener,
                settings.maxQueuedNotifications());
        return resume.run().whenComplete((ok, failure) -> {
            ClientSubscription s = resume.subscription();
            if (failure != null && !record.contains(s)) {
                forget(s, token.subscriptionId());
                log.warn("resuming subscription {} failed: {}", token.subscriptionId(),
                        Failures.unwrap(failure).getMessage());
            }
        });
    }

    /**
     * Leaves {@code subscription} at the server for another client or a later process to {@link #resume}: it
     * leaves this client's record without DeleteSubscriptions, so that {@link #close()} (and the client's
     * disconnect) keep it; a durable one goes on queueing. Its listeners get what was received already.
     *
     * @return the token to resume it with, taken now
     */
    public ResumeToken detach(ClientSubscription subscription) {
        Objects.requireNonNull(subscription, "subscription");
        if (!record.contains(subscription)) {
            throw new IllegalArgumentException(subscription + " is not in this client's record");
        }
        ResumeToken token = subscription.resumeToken();
        abandon(subscription);
        log.info("subscription {} detached: left at the server to be resumed", token.subscriptionId());
        return token;
    }

    /** The subscriptions of the record, in creation order. */
    public List<ClientSubscription> list() {
        return List.copyOf(record);
    }

    /**
     * Stops publishing and the watchdog and deletes the subscriptions at the server (DeleteSubscriptions,
     * Part 4, 5.13.8), best effort: the future completes, never fails, once the server answered or
     * the call failed. The record is emptied.
     */
    public CompletableFuture<Void> close() {
        if (!pipeline.close()) {
            return CompletableFuture.completedFuture(null);
        }
        long[] ids = record.stream().mapToLong(ClientSubscription::subscriptionId).filter(id -> id != 0).toArray();
        record.clear();
        pipeline.forgetAll();
        if (ids.length == 0) {
            return CompletableFuture.completedFuture(null);
        }
        return services.send(h -> new DeleteSubscriptionsRequest(h, ids), DeleteSubscriptionsResponse.class)
                .handle((r, f) -> {
                    if (f != null) {
                        log.debug("DeleteSubscriptions on close failed: {}", Failures.unwrap(f).toString());
                    }
                    return null;
                });
    }

    /**
     * After {@link #close()}, accepts subscriptions again: the client connected anew. The record is
     * empty then, so nothing is restored. Does nothing unless closed.
     */
    public void reopen() {
        pipeline.reopen();
    }

    // ---- reconnect hooks -------------------------------------------------------------------------

    /**
     * The channel is gone. No Publish request is sent until {@link #sessionReactivated()} or
     * {@link #sessionReplaced()}; the answers of requests in flight are still used if they come; the
     * record, each subscription's last sequence number and the messages not yet acknowledged are
     * kept. The watchdog stops.
     */
    public void connectionLost() {
        pipeline.pause();
    }

    /**
     * The same session was activated on a new channel (Part 4, 5.6.3): the server kept the
     * subscriptions. Publishing and the watchdog resume. Messages sent on the lost channel are fetched
     * with Republish from the gap the next Publish response shows (its sequence number and
     * availableSequenceNumbers), and what the server still holds that was received already is
     * acknowledged once.
     *
     * @return completes at once: nothing needs an answer before publishing resumes
     */
    public CompletableFuture<Void> sessionReactivated() {
        return sessionReactivated(false);
    }

    /**
     * {@link #sessionReactivated()}, where {@code onOtherServer} says that the session was re-activated on another
     * server of a HotAndMirrored set (Part 4, 6.6.2.4.5.5): the partner restored the subscriptions from the shared
     * state written before, so their queues may hold values the listeners had from the first server, which are
     * dropped as after a Hot takeover (per item, not newer than the last delivered by source timestamp).
     */
    public CompletableFuture<Void> sessionReactivated(boolean onOtherServer) {
        if (!pipeline.pause()) {
            return CompletableFuture.completedFuture(null);
        }
        for (ClientSubscription s : record) {
            s.reactivated(onOtherServer);
        }
        pipeline.resume();
        return CompletableFuture.completedFuture(null);
    }

    /**
     * A new session replaced the old one. TransferSubscriptions (Part 4, 5.13.7) moves every
     * subscription of the record to it with sendInitialValues false; for each transferred one,
     * what it reports available beyond the last number received is fetched with Republish (and what it
     * holds that was received already acknowledged). Each subscription whose transfer fails
     * (BadSubscriptionIdInvalid after a server restart, BadUserAccessDenied, or the whole service
     * refused, e.g. BadServiceUnsupported) is recreated from the record: CreateSubscription,
     * CreateMonitoredItems with the same client handles, parameters and monitoring modes, then
     * SetTriggering for the recorded links. Listeners stay attached throughout. Publishing resumes
     * when all are done.
     *
     * @return completes when every subscription was transferred or recreated; fails with the first
     *         failure of a recreate (the others are done anyway; a failed one stays in the record
     *         without a server id for {@link #recreateAll()} to try again)
     */
    public CompletableFuture<Void> sessionReplaced() {
        if (!pipeline.pause()) {
            return CompletableFuture.completedFuture(null);
        }
        List<ClientSubscription> subscriptions = List.copyOf(record);
        List<ClientSubscription> transferable = subscriptions.stream().filter(s -> s.subscriptionId() != 0).toList();
        List<ClientSubscription> orphans = subscriptions.stream().filter(s -> s.subscriptionId() == 0).toList();
        if (transferable.isEmpty()) {
            return recreate(orphans);
        }
        long[] ids = transferable.stream().mapToLong(ClientSubscription::subscriptionId).toArray();
        return services.send(h -> new TransferSubscriptionsRequest(h, ids, false), TransferSubscriptionsResponse.class)
                .handle((response, failure) -> {
                    List<ClientSubscription> toRecreate = new ArrayList<>(orphans);
                    TransferResult[] results = failure == null ? response.results() : null;
                    if (failure != null) {
                        log.info("TransferSubscriptions failed ({}): recreating {} subscriptions",
                                StatusCode.of(Failures.status(failure)), transferable.size());
                    }
                    for (int i = 0; i < transferable.size(); i++) {
                        ClientSubscription s = transferable.get(i);
                        TransferResult result = results != null && i < results.length ? results[i] : null;
                        if (result != null && result.statusCode().isGood()) {
                            s.transferred(result.availableSequenceNumbers());
                        } else {
                            if (result != null) {
                                log.info("TransferSubscriptions of subscription {}: {}; recreating it",
                                        s.subscriptionId(), result.statusCode());
                            }
                            toRecreate.add(s);
                        }
                    }
                    return toRecreate;
                }).thenCompose(this::recreate);
    }

    /**
     * Recreates every subscription of the record from scratch (see {@link #sessionReplaced()}):
     * publishing pauses meanwhile and resumes after.
     */
    public CompletableFuture<Void> recreateAll() {
        if (!pipeline.pause()) {
            return CompletableFuture.completedFuture(null);
        }
        return recreate(List.copyOf(record));
    }

    /**
     * Recreates one after the other, then resumes publishing whatever happened. Subscriptions with a Hot
     * mirror to adopt ({@link ClientSubscription#adoptAtNextRecreate}) take it over instead: one
     * TransferSubscriptions for all of them (sendInitialValues false: the mirrors' items queued what
     * changed while publishing was disabled), then one SetPublishingMode(true); those the server refuses
     * to transfer are recreated.
     */
    private CompletableFuture<Void> recreate(List<ClientSubscription> subscriptions) {
        List<ClientSubscription> adopting = new ArrayList<>();
        List<ClientSubscription.Adoption> adoptions = new ArrayList<>();
        List<ClientSubscription> others = new ArrayList<>();
        for (ClientSubscription s : subscriptions) {
            ClientSubscription.Adoption a = s.takeAdoption();
            if (a != null) {
                adopting.add(s);
                adoptions.add(a);
            } else {
                others.add(s);
            }
        }
        if (adopting.isEmpty()) {
            return recreateEach(subscriptions);
        }
        long[] ids = adoptions.stream().mapToLong(a -> a.mirror().subscriptionId()).toArray();
        return services.send(h -> new TransferSubscriptionsRequest(h, ids, false), TransferSubscriptionsResponse.class)
                .handle((response, failure) -> {
                    List<ClientSubscription> toRecreate = new ArrayList<>(others);
                    List<CompletableFuture<Void>> taken = new ArrayList<>();
                    List<ClientSubscription> enable = new ArrayList<>();
                    TransferResult[] results = failure == null ? response.results() : null;
                    for (int i = 0; i < adopting.size(); i++) {
                        ClientSubscription s = adopting.get(i);
                        TransferResult result = results != null && i < results.length ? results[i] : null;
                        if (result != null && result.statusCode().isGood()) {
                            taken.add(s.adopted(adoptions.get(i).mirror()));
                            if (s.parameters().publishingEnabled()) {
                                enable.add(s);
                            }
                        } else {
                            log.warn("taking over the Hot mirror of {} failed ({}): recreating it", s,
                                    result != null ? result.statusCode() : Failures.unwrap(failure).toString());
                            toRecreate.add(s);
                        }
                    }
                    CompletableFuture<Void> enabled = enable.isEmpty() ? CompletableFuture.completedFuture(null)
                            : services.send(h -> new SetPublishingModeRequest(h, true,
                                    enable.stream().mapToLong(ClientSubscription::subscriptionId).toArray()),
                                    SetPublishingModeResponse.class).thenApply(r -> (Void) null);
                    taken.add(enabled);
                    return CompletableFuture.allOf(taken.toArray(CompletableFuture[]::new))
                            .handle((ok, f) -> {
                                if (f != null) {
                                    log.warn("taking over Hot mirrors: {}", Failures.unwrap(f).toString());
                                }
                                return toRecreate;
                            });
                }).thenCompose(next -> next).thenCompose(this::recreateEach);
    }

    private CompletableFuture<Void> recreateEach(List<ClientSubscription> subscriptions) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Throwable[] first = new Throwable[1];
        CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
        for (ClientSubscription s : subscriptions) {
            chain = chain.thenCompose(ok -> s.recreate().handle((r, f) -> {
                if (f != null) {
                    log.warn("Recreating {} failed: {}", s, Failures.unwrap(f).toString());
                    synchronized (first) {
                        if (first[0] == null) {
                            first[0] = Failures.unwrap(f);
                        }
                    }
                }
                return null;
            }));
        }
        chain.whenComplete((ok, f) -> {
            pipeline.resume();
            if (first[0] != null) {
                done.completeExceptionally(first[0]);
            } else {
                done.complete(null);
            }
        });
        return done;
    }

    // ---- callbacks and counters ------------------------------------------------------------------

    /**
     * The server's MaxMonitoredItemsPerCall (Part 5, 6.3.11; 0 for none), read when asked: item
     * requests are split to the smaller of it and {@link SubscriptionSettings#maxItemsPerRequest()}.
     */
    public void setServerMaxItemsPerCall(IntSupplier limit) {
        this.serverMaxItemsPerCall = Objects.requireNonNull(limit, "limit");
    }

    /** How many items one CreateMonitoredItems may carry. */
    int maxItemsPerCall() {
        int server = serverMaxItemsPerCall.getAsInt();
        int own = settings.maxItemsPerRequest();
        return server > 0 ? Math.min(server, own) : own;
    }

    /**
     * Runs (on the listener executor) when the watchdog finds the server silent: no Publish response
     * (data or keep-alive) from a subscription for revised publishing interval × (revised keep-alive
     * count + 1) plus the request timeout. Once, and again only after a response arrived or a
     * reconnect hook was called.
     */
    public void setOnServerSilent(Runnable callback) {
        pipeline.setOnServerSilent(Objects.requireNonNull(callback, "callback"));
    }

    /**
     * The System.nanoTime of the last Good Publish response to a request sent since publishing last started or
     * resumed, i.e. over the session in use; {@link Long#MIN_VALUE} when there is none (none yet, or publishing
     * is paused or closed). The client's keep-alive sends no Read while these are recent (Part 4, 5.13.1.1).
     */
    public long lastPublishAnsweredNanos() {
        return pipeline.lastAnsweredNanos();
    }

    /** Runs with the status when a Publish shows the session gone (BadSessionIdInvalid, BadSessionClosed ...). */
    public void setOnSessionInvalid(Consumer<StatusCode> callback) {
        pipeline.setOnSessionInvalid(Objects.requireNonNull(callback, "callback"));
    }

    /** Data-change and event notifications received (not dropped ones subtracted). */
    public long notificationsReceived() {
        return counters.notificationsReceived();
    }

    public long keepAlivesReceived() {
        return counters.keepAlivesReceived();
    }

    /** NotificationMessages obtained with Republish. */
    public long republished() {
        return counters.republished();
    }

    /**
     * Values of taken-over Hot mirrors dropped because their listeners had them from the old server
     * already (see {@link dev.opcua.stack.client.redundancy.RedundancyMode#HOT}), and values of transferred
     * durable subscriptions dropped because their listeners had them before the server restarted.
     */
    public long takeoverDuplicatesDropped() {
        return counters.takeoverDuplicates();
    }

    /** Sequence numbers the server no longer had when asked for. */
    public long lostSequenceNumbers() {
        return counters.lostSequenceNumbers();
    }

    /** Notifications dropped because a subscription's listener queue was full. */
    public long droppedNotifications() {
        return counters.droppedNotifications();
    }

    /** Exceptions thrown by listeners. */
    public long listenerErrors() {
        return counters.listenerErrors();
    }

    public int publishRequestsOutstanding() {
        return pipeline.outstanding();
    }

    /** How many Publish requests the pipeline wants outstanding now. */
    public int publishRequestTarget() {
        return pipeline.target();
    }

    /**
     * Publish responses with moreNotifications set (Part 4, 5.13.5): a subscription had more to report
     * than its maxNotificationsPerPublish, and the rest needed another Publish request at the server.
     */
    public long moreNotificationsResponses() {
        return counters.moreNotificationsResponses();
    }

    /**
     * Publish responses after which none of this client's Publish requests was outstanding any more: until
     * the next one reached the server, a publishing cycle found none parked there and was late.
     */
    public long publishPipelineEmptied() {
        return counters.pipelineEmptied();
    }

    /**
     * Times the pipeline held back Publish requests because a listener queue had no room for more
     * responses (the backlog then waits at the server).
     */
    public long publishHoldBacks() {
        return counters.publishHoldBacks();
    }

    /**
     * Of {@link #publishHoldBacks()}, those that lasted two keep-alive periods (logged at WARN): the
     * listeners did not keep up, and the server expires a subscription left without Publish requests for its
     * lifetime.
     */
    public long longPublishHoldBacks() {
        return counters.longPublishHoldBacks();
    }

    /** Whether Publish requests are held back for a nearly full listener queue now. */
    public boolean isPublishHeldBack() {
        return pipeline.isHeldBack();
    }

    // ---- package-private: for subscriptions ------------------------------------------------------

    /** A subscription has a (new) server id: the pipeline routes its responses, serves it, watches it. */
    void registered(ClientSubscription subscription) {
        pipeline.registered(subscription);
    }

    /** A subscription's server id is no longer valid: its responses and waiting acknowledgements are dropped. */
    void forget(ClientSubscription subscription, long oldId) {
        pipeline.forget(subscription, oldId);
    }

    /**
     * The server reports the subscription expired (StatusChangeNotification BadTimeout, Part 4, 5.13.1.1:
     * its lifetime ran out without a Publish request, e.g. during a long stall that the session
     * survived): it no longer exists there, so it is recreated from the record, its listeners kept.
     */
    void expired(ClientSubscription subscription) {
        if (pipeline.isClosed() || !record.contains(subscription)) {
            return;
        }
        log.warn("{} expired at the server (lifetime elapsed without Publish requests); recreating it", subscription);
        subscription.recreate().whenComplete((ok, failure) -> {
            if (failure != null) {
                log.warn("Recreating expired {} failed: {}", subscription, Failures.unwrap(failure).toString());
            }
        });
    }

    /** The subscription was transferred to another session (Hot mirror taken over): it leaves this record. */
    void abandon(ClientSubscription subscription) {
        long id = subscription.subscriptionId();
        record.remove(subscription);
        forget(subscription, id);
        subscription.abandoned();
    }

    CompletableFuture<Void> delete(ClientSubscription subscription) {
        long id = subscription.subscriptionId();
        record.remove(subscription);
        forget(subscription, id);
        if (id == 0) {
            return CompletableFuture.completedFuture(null);
        }
        return services.send(h -> new DeleteSubscriptionsRequest(h, new long[] {id}),
                DeleteSubscriptionsResponse.class).thenApply(r -> null);
    }

    int nextClientHandle() {
        return clientHandles.incrementAndGet();
    }

    /** A resumed subscription's item has this client handle: new ones are numbered past it. */
    void handleInUse(int clientHandle) {
        clientHandles.accumulateAndGet(clientHandle, Math::max);
    }

    /** A subscription being resumed: its messages are routed to it, no Publish is sent for it yet. */
    void routeOnly(ClientSubscription subscription) {
        pipeline.routeOnly(subscription);
    }

    /**
     * A resumed subscription was transferred to this client's session: it is this client's now, and the
     * pipeline serves it.
     */
    void resumedIntoRecord(ClientSubscription subscription) {
        record.add(subscription);
        registered(subscription);
    }

    SubscriptionSettings settings() {
        return settings;
    }

    Executor listenerExecutor() {
        return listenerExecutor;
    }

    /** A subscription's listeners drained some of its queue: room for Publish responses again. */
    void listenersDrained() {
        pipeline.listenersDrained();
    }

    SubscriptionCounters counters() {
        return counters;
    }

    Acknowledgements acknowledgements() {
        return acknowledgements;
    }
}
