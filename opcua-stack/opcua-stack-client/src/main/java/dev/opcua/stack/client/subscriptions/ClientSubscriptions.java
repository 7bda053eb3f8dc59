package dev.opcua.stack.client.subscriptions;

import dev.opcua.stack.client.transport.Failures;
import dev.opcua.stack.client.services.ServiceInvoker;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.structured.DeleteSubscriptionsRequest;
import dev.opcua.stack.core.types.structured.DeleteSubscriptionsResponse;
import dev.opcua.stack.core.types.structured.NotificationMessage;
import dev.opcua.stack.core.types.structured.PublishRequest;
import dev.opcua.stack.core.types.structured.PublishResponse;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.core.types.structured.SubscriptionAcknowledgement;
import dev.opcua.stack.core.types.structured.TransferResult;
import dev.opcua.stack.core.types.structured.TransferSubscriptionsRequest;
import dev.opcua.stack.core.types.structured.TransferSubscriptionsResponse;
import io.netty.util.Timer;
import io.netty.util.collection.LongObjectHashMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The subscriptions of one client (Part 4, 5.13) and the client's own record of them and their
 * monitored items, so that they survive a reconnect; the Publish pipeline (5.13.5) that serves them
 * all; the keep-alive watchdog.
 *
 * <h2>Publish pipeline</h2>
 * Publish requests are kept outstanding at the server so that one is always there when a publishing
 * cycle fires: the target is subscriptions + 1 of them, at least 2 and at most
 * {@link SubscriptionSettings#maxPublishRequests()}. Where the maximum allows, one more is sent, and the
 * pipeline refills only when fewer than the target are outstanding, two at a time: a response handled on
 * the I/O thread then sends both with one write (one syscall here, one read at the server) instead of
 * one per response, and the server still holds the target. BadTooManyPublishRequests caps the pipeline
 * at what the server still holds (never below 1) and only the requests still wanted are sent again.
 * Every NotificationMessage
 * received, republished ones included, is acknowledged in the next Publish request. A gap in a
 * subscription's sequence numbers is filled with Republish (5.13.6), one request per missing number;
 * a number the server no longer holds (BadMessageNotAvailable, or absent from
 * availableSequenceNumbers) counts as lost ({@link #lostSequenceNumbers()}). The timeoutHint of a
 * Publish is the larger of the request timeout and publishing interval × keep-alive count × 2 of the
 * slowest subscription. A Publish response is handled on the I/O thread that read it
 * ({@link ServiceInvoker#sendCompletingOnIoThread}): sequencing, acknowledgements and the next Publish
 * cost no thread hand-off, while listeners still run on the listener executor. A failure is handled on
 * the callback executor: BadTimeout sends the request again at once; BadNoSubscription stops the
 * pipeline until a subscription exists; BadSessionIdInvalid, BadSessionClosed and
 * BadSessionNotActivated pause it and call {@link #setOnSessionInvalid(Consumer) onSessionInvalid};
 * any other failure sends it again after {@link SubscriptionSettings#publishRetryDelay()}.
 *
 * <h2>Listeners</h2>
 * Listeners run on the listener executor, one subscription's notifications one after the other in
 * sequence order, so never on an I/O thread and never holding up the pipeline. Each subscription
 * queues at most {@link SubscriptionSettings#maxQueuedNotifications()} notifications for its
 * listeners; beyond that they are dropped and counted ({@link #droppedNotifications()}). A listener's
 * exception is logged and counted ({@link #listenerErrors()}). An executor that runs tasks in the
 * calling thread makes listeners run where the Publish response is handled (the I/O thread), holding
 * up that connection while they run: only for listeners that never block.
 *
 * <h2>Reconnects</h2>
 * The client's reconnector calls {@link #connectionLost()}, then {@link #sessionReactivated()} or
 * {@link #sessionReplaced()}; see each. Requests are built from the header of the session current at
 * send time (see {@link ServiceInvoker}), so nothing here holds a session. A subscription the server
 * reports expired (StatusChangeNotification BadTimeout: its lifetime ran out, the session survived)
 * is recreated the same way, its listeners kept.
 *
 * <h2>Watchdog</h2>
 * A subscription from which no Publish response (data or keep-alive) arrived for revised publishing
 * interval × (revised keep-alive count + 1) plus the request timeout means a silent server:
 * {@link #setOnServerSilent(Runnable) onServerSilent} runs once, and again only after a response
 * arrived or a reconnect hook was called.
 *
 * <p>Sequence numbers wrap from 4,294,967,295 to 1 (Part 4, 7.26): each subscription's sequencer counts
 * them on as a growing number, so ordering, gaps and Republish work across the wrap.
 *
 * <p>Thread-safe. Futures complete on the invoker's threads.
 */
public final class ClientSubscriptions {

    private static final Logger log = LoggerFactory.getLogger(ClientSubscriptions.class);

    private enum State { RUNNING, PAUSED, CLOSED }

    private final ServiceInvoker services;
    private final SubscriptionSettings settings;
    private final Executor listenerExecutor;
    private final Timer timer;
    private final LongSupplier nanoClock;

    private final CopyOnWriteArrayList<ClientSubscription> record = new CopyOnWriteArrayList<>();
    /** Subscriptions by server id: a copy replaced on change, read without a lock on the Publish path. */
    private volatile LongObjectHashMap<ClientSubscription> byId = new LongObjectHashMap<>();
    private final AtomicInteger clientHandles = new AtomicInteger();
    private final ConcurrentLinkedQueue<SubscriptionAcknowledgement> acknowledgements = new ConcurrentLinkedQueue<>();

    // Lifecycle and pipeline, guarded by `this` (once per Publish response, not per notification).
    private volatile State state = State.RUNNING;
    private long epoch;
    private int outstanding;
    private int ceiling = Integer.MAX_VALUE;
    private boolean noSubscriptionAtServer;
    private volatile int outstandingSnapshot;
    private volatile boolean silenceReported;

    private volatile IntSupplier serverMaxItemsPerCall = () -> 0;
    private volatile Runnable onServerSilent = () -> { };
    private volatile Consumer<StatusCode> onSessionInvalid = status -> { };

    private final LongAdder notificationsReceived = new LongAdder();
    private final LongAdder keepAlivesReceived = new LongAdder();
    private final LongAdder republished = new LongAdder();
    private final LongAdder lostSequenceNumbers = new LongAdder();
    private final LongAdder droppedNotifications = new LongAdder();
    private final LongAdder listenerErrors = new LongAdder();

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
        this.timer = Objects.requireNonNull(timer, "timer");
        this.nanoClock = nanoClock;
    }

    /**
     * CreateSubscription (Part 4, 5.13.2); the subscription enters the record and the Publish
     * pipeline serves it.
     */
    public CompletableFuture<ClientSubscription> create(SubscriptionParameters parameters) {
        Objects.requireNonNull(parameters, "parameters");
        if (state == State.CLOSED) {
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
        synchronized (this) {
            if (state == State.CLOSED) {
                return CompletableFuture.completedFuture(null);
            }
            state = State.CLOSED;
            epoch++;
            outstanding = 0;
            outstandingSnapshot = 0;
            cancelWatchdogs();
        }
        long[] ids = record.stream().mapToLong(ClientSubscription::subscriptionId).filter(id -> id != 0).toArray();
        record.clear();
        byId = new LongObjectHashMap<>();
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
        synchronized (this) {
            if (state != State.CLOSED) {
                return;
            }
            state = State.RUNNING;
            epoch++;
            outstanding = 0;
            outstandingSnapshot = 0;
            ceiling = Integer.MAX_VALUE;
            noSubscriptionAtServer = false;
            silenceReported = false;
        }
    }

    // ---- reconnect hooks -------------------------------------------------------------------------

    /**
     * The channel is gone. No Publish request is sent until {@link #sessionReactivated()} or
     * {@link #sessionReplaced()}; the answers of requests in flight are still used if they come; the
     * record, each subscription's last sequence number and the messages not yet acknowledged are
     * kept. The watchdog stops.
     */
    public void connectionLost() {
        synchronized (this) {
            pauseLocked();
        }
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
        synchronized (this) {
            if (state == State.CLOSED) {
                return CompletableFuture.completedFuture(null);
            }
            pauseLocked();
            for (ClientSubscription s : record) {
                s.reactivated();
            }
        }
        resume();
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
        List<ClientSubscription> subscriptions;
        synchronized (this) {
            if (state == State.CLOSED) {
                return CompletableFuture.completedFuture(null);
            }
            pauseLocked();
            subscriptions = List.copyOf(record);
        }
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
        synchronized (this) {
            if (state == State.CLOSED) {
                return CompletableFuture.completedFuture(null);
            }
            pauseLocked();
        }
        return recreate(List.copyOf(record));
    }

    /** Recreates one after the other, then resumes publishing whatever happened. */
    private CompletableFuture<Void> recreate(List<ClientSubscription> subscriptions) {
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
            resume();
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

    /** Runs (on the listener executor) when the watchdog finds the server silent; see the class comment. */
    public void setOnServerSilent(Runnable callback) {
        this.onServerSilent = Objects.requireNonNull(callback, "callback");
    }

    /** Runs with the status when a Publish shows the session gone (BadSessionIdInvalid, BadSessionClosed ...). */
    public void setOnSessionInvalid(Consumer<StatusCode> callback) {
        this.onSessionInvalid = Objects.requireNonNull(callback, "callback");
    }

    /** Data-change and event notifications received (not dropped ones subtracted). */
    public long notificationsReceived() {
        return notificationsReceived.sum();
    }

    public long keepAlivesReceived() {
        return keepAlivesReceived.sum();
    }

    /** NotificationMessages obtained with Republish. */
    public long republished() {
        return republished.sum();
    }

    /** Sequence numbers the server no longer had when asked for. */
    public long lostSequenceNumbers() {
        return lostSequenceNumbers.sum();
    }

    /** Notifications dropped because a subscription's listener queue was full. */
    public long droppedNotifications() {
        return droppedNotifications.sum();
    }

    /** Exceptions thrown by listeners. */
    public long listenerErrors() {
        return listenerErrors.sum();
    }

    public int publishRequestsOutstanding() {
        return outstandingSnapshot;
    }

    /** How many Publish requests the pipeline wants outstanding now. */
    public synchronized int publishRequestTarget() {
        return targetLocked();
    }

    // ---- the Publish pipeline --------------------------------------------------------------------

    private int targetLocked() {
        int wanted = Math.max(2, Math.min(liveSubscriptions() + 1, settings.maxPublishRequests()));
        return Math.max(1, Math.min(Math.min(wanted, settings.maxPublishRequests()), ceiling));
    }

    private int liveSubscriptions() {
        return byId.size();
    }

    /**
     * One more than the target when the maximum and the server allow it: the pipeline then refills two
     * at a time, which the connection writes with one flush.
     */
    private int highWaterLocked(int target) {
        // never below the target: targetLocked already keeps it within the maximum and the ceiling
        return Math.min(target + 1, Math.min(settings.maxPublishRequests(), ceiling));
    }

    /** Sends Publish requests up to the high water mark once fewer than the target are outstanding. */
    private void fill() {
        int toSend;
        long sendEpoch;
        synchronized (this) {
            if (state != State.RUNNING || noSubscriptionAtServer || liveSubscriptions() == 0) {
                return;
            }
            int target = targetLocked();
            if (outstanding >= target) {
                return;
            }
            toSend = highWaterLocked(target) - outstanding;
            outstanding += toSend;
            outstandingSnapshot = outstanding;
            sendEpoch = epoch;
        }
        for (int i = 0; i < toSend; i++) {
            PublishCall call = new PublishCall(sendEpoch);
            services.sendCompletingOnIoThread(call, PublishResponse.class, publishTimeoutMillis()).whenComplete(call);
        }
    }

    /** Publish timeoutHint: the request timeout, or twice the keep-alive period of the slowest subscription. */
    long publishTimeoutMillis() {
        long timeout = settings.requestTimeout().toMillis();
        for (ClientSubscription s : record) {
            timeout = Math.max(timeout, (long) (s.revisedPublishingInterval() * s.revisedMaxKeepAliveCount() * 2));
        }
        return timeout;
    }

    /** One Publish request: takes the acknowledgements waiting when it is built, hands back the response. */
    private final class PublishCall implements Function<RequestHeader, PublishRequest>,
            BiConsumer<PublishResponse, Throwable> {

        private final long epoch;
        private SubscriptionAcknowledgement[] acks;

        PublishCall(long epoch) {
            this.epoch = epoch;
        }

        @Override
        public PublishRequest apply(RequestHeader header) {
            acks = drainAcknowledgements();
            return new PublishRequest(header, acks);
        }

        @Override
        public void accept(PublishResponse response, Throwable failure) {
            onPublishDone(this.epoch, acks, response, failure);
        }
    }

    private SubscriptionAcknowledgement[] drainAcknowledgements() {
        if (acknowledgements.isEmpty()) {
            return new SubscriptionAcknowledgement[0];
        }
        List<SubscriptionAcknowledgement> list = new ArrayList<>();
        SubscriptionAcknowledgement a;
        while ((a = acknowledgements.poll()) != null) {
            list.add(a);
        }
        return list.toArray(new SubscriptionAcknowledgement[0]);
    }

    private void onPublishDone(long sentEpoch, SubscriptionAcknowledgement[] acks, PublishResponse response,
            Throwable failure) {
        boolean current;
        synchronized (this) {
            current = sentEpoch == epoch;
            if (current) {
                outstanding--;
                outstandingSnapshot = outstanding;
            }
        }
        if (failure == null) {
            onPublishResponse(response);
            if (current) {
                fill();
            }
            return;
        }
        int code = Failures.status(failure);
        if (acks != null && acks.length > 0 && current) {
            // The server may not have seen them: same session, same subscriptions, so send them again.
            for (SubscriptionAcknowledgement a : acks) {
                acknowledgements.add(a);
            }
        }
        if (!current) {
            return;
        }
        switch (code) {
            case StatusCodes.BadTooManyPublishRequests -> {
                synchronized (this) {
                    // the server holds at most the ones still outstanding (later ones may still be on their way)
                    ceiling = Math.max(1, Math.min(ceiling, outstanding));
                }
                log.debug("BadTooManyPublishRequests: at most {} Publish requests from now on", ceiling);
                fill();
            }
            case StatusCodes.BadNoSubscription -> {
                synchronized (this) {
                    noSubscriptionAtServer = true;
                }
            }
            case StatusCodes.BadSessionIdInvalid, StatusCodes.BadSessionClosed, StatusCodes.BadSessionNotActivated -> {
                boolean first;
                synchronized (this) {
                    first = state == State.RUNNING && sentEpoch == epoch;
                    if (first) {
                        pauseLocked();
                    }
                }
                if (first) {
                    try {
                        onSessionInvalid.accept(StatusCode.of(code));
                    } catch (RuntimeException e) {
                        log.warn("onSessionInvalid callback failed", e);
                    }
                }
            }
            case StatusCodes.BadTimeout -> fill();
            default -> {
                if (state == State.RUNNING) {
                    timer.newTimeout(t -> fill(), settings.publishRetryDelay().toMillis(), TimeUnit.MILLISECONDS);
                }
            }
        }
    }

    private void onPublishResponse(PublishResponse response) {
        if (silenceReported) {
            silenceReported = false;
        }
        long id = response.subscriptionId();
        NotificationMessage message = response.notificationMessage();
        if (message == null) {
            return;
        }
        ExtensionObject[] data = message.notificationData();
        boolean keepAlive = data == null || data.length == 0;
        ClientSubscription subscription = byId.get(id);
        if (subscription != null) {
            subscription.lastResponseNanos = nanoClock.getAsLong();
            subscription.onMessage(message, keepAlive, response.availableSequenceNumbers(), false);
        }
        if (keepAlive) {
            keepAlivesReceived.increment();
        } else {
            acknowledge(id, message.sequenceNumber());
        }
    }

    // ---- package-private: for subscriptions ------------------------------------------------------

    void acknowledge(long subscriptionId, long sequenceNumber) {
        acknowledgements.add(new SubscriptionAcknowledgement(subscriptionId, sequenceNumber));
    }

    /** A subscription has a (new) server id: route its responses, serve it, watch it. */
    void registered(ClientSubscription subscription) {
        synchronized (this) {
            LongObjectHashMap<ClientSubscription> copy = new LongObjectHashMap<>(byId.size() + 2);
            copy.putAll(byId);
            copy.put(subscription.subscriptionId(), subscription);
            byId = copy;
            noSubscriptionAtServer = false;
            if (state == State.RUNNING) {
                armWatchdogLocked(subscription);
            }
        }
        fill();
    }

    /** A subscription's server id is no longer valid: its responses and waiting acknowledgements are dropped. */
    void forget(ClientSubscription subscription, long oldId) {
        synchronized (this) {
            if (byId.get(oldId) == subscription) {
                LongObjectHashMap<ClientSubscription> copy = new LongObjectHashMap<>(byId.size());
                copy.putAll(byId);
                copy.remove(oldId);
                byId = copy;
            }
            if (subscription.watchdog != null) {
                subscription.watchdog.cancel();
                subscription.watchdog = null;
            }
        }
        acknowledgements.removeIf(a -> a.subscriptionId() == oldId);
    }

    /**
     * The server reports the subscription expired (StatusChangeNotification BadTimeout, Part 4, 5.13.1.1:
     * its lifetime ran out without a Publish request, e.g. during a long stall that the session
     * survived): it no longer exists there, so it is recreated from the record, its listeners kept.
     */
    void expired(ClientSubscription subscription) {
        if (state == State.CLOSED || !record.contains(subscription)) {
            return;
        }
        log.warn("{} expired at the server (lifetime elapsed without Publish requests); recreating it", subscription);
        subscription.recreate().whenComplete((ok, failure) -> {
            if (failure != null) {
                log.warn("Recreating expired {} failed: {}", subscription, Failures.unwrap(failure).toString());
            }
        });
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

    SubscriptionSettings settings() {
        return settings;
    }

    Executor listenerExecutor() {
        return listenerExecutor;
    }

    void countNotifications(int n) {
        notificationsReceived.add(n);
    }

    void countRepublished() {
        republished.increment();
    }

    void countLost() {
        lostSequenceNumbers.increment();
    }

    void countDropped(int n) {
        droppedNotifications.add(n);
    }

    void listenerFailed(ClientMonitoredItem item, Throwable error) {
        listenerErrors.increment();
        // Logged once in a while, not per notification: a listener that always throws would flood the log.
        long errors = listenerErrors.sum();
        if (errors == 1 || errors % 1000 == 0) {
            log.warn("A listener of {} threw ({} listener errors so far)", item, errors, error);
        }
    }

    // ---- lifecycle -------------------------------------------------------------------------------

    private void pauseLocked() {
        if (state == State.CLOSED) {
            return;
        }
        state = State.PAUSED;
        epoch++;
        outstanding = 0;
        outstandingSnapshot = 0;
        silenceReported = false;
        cancelWatchdogs();
    }

    private void resume() {
        synchronized (this) {
            if (state != State.PAUSED) {
                return;
            }
            state = State.RUNNING;
            noSubscriptionAtServer = false;
            for (ClientSubscription s : record) {
                if (s.subscriptionId() != 0) {
                    armWatchdogLocked(s);
                }
            }
        }
        fill();
    }

    private void cancelWatchdogs() {
        for (ClientSubscription s : record) {
            if (s.watchdog != null) {
                s.watchdog.cancel();
                s.watchdog = null;
            }
        }
    }

    private void armWatchdogLocked(ClientSubscription s) {
        if (s.watchdog != null) {
            s.watchdog.cancel();
        }
        s.lastResponseNanos = nanoClock.getAsLong();
        scheduleWatchdogLocked(s, s.silenceNanos(settings.requestTimeout().toNanos()), epoch);
    }

    private void scheduleWatchdogLocked(ClientSubscription s, long delayNanos, long watchEpoch) {
        s.watchdog = timer.newTimeout(t -> checkSilence(s, watchEpoch), Math.max(1, delayNanos), TimeUnit.NANOSECONDS);
    }

    private void checkSilence(ClientSubscription s, long watchEpoch) {
        boolean fire = false;
        synchronized (this) {
            if (state != State.RUNNING || watchEpoch != epoch || byId.get(s.subscriptionId()) != s) {
                return;
            }
            long silence = s.silenceNanos(settings.requestTimeout().toNanos());
            long since = nanoClock.getAsLong() - s.lastResponseNanos;
            if (since >= silence) {
                if (!silenceReported) {
                    silenceReported = true;
                    fire = true;
                }
                scheduleWatchdogLocked(s, silence, watchEpoch);
            } else {
                scheduleWatchdogLocked(s, silence - since, watchEpoch);
            }
        }
        if (fire) {
            log.info("No Publish response for {} within its keep-alive period: the server is silent", s);
            Runnable callback = onServerSilent;
            listenerExecutor.execute(() -> {
                try {
                    callback.run();
                } catch (RuntimeException e) {
                    log.warn("onServerSilent callback failed", e);
                }
            });
        }
    }
}
