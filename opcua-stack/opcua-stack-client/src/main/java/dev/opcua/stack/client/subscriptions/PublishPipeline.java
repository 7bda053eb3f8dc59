package dev.opcua.stack.client.subscriptions;

import dev.opcua.stack.client.services.ServiceInvoker;
import dev.opcua.stack.core.Failures;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.structured.NotificationMessage;
import dev.opcua.stack.core.types.structured.PublishRequest;
import dev.opcua.stack.core.types.structured.PublishResponse;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.core.types.structured.SubscriptionAcknowledgement;
import io.netty.util.Timer;
import io.netty.util.collection.LongObjectHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Publish requests (Part 4, 5.13.5) that serve all subscriptions of one client, the routing of
 * their responses, and the watchdog that notices a silent server.
 *
 * <h2>Pipeline</h2>
 * Publish requests are kept outstanding at the server so that one is always there when a publishing
 * cycle fires: the target is subscriptions + 1 of them, at least 2 and at most
 * {@link SubscriptionSettings#maxPublishRequests()}. Where the maximum allows, one more is sent, and the
 * pipeline refills only when fewer than the target are outstanding, two at a time: a response handled on
 * the I/O thread then sends both with one write (one syscall here, one read at the server) instead of
 * one per response, and the server still holds the target. BadTooManyPublishRequests caps the pipeline
 * at what the server still holds (never below 1) and only the requests still wanted are sent again.
 * Each request carries the {@link Acknowledgements} waiting when it is built. The timeoutHint of a
 * Publish is the larger of the request timeout and publishing interval × keep-alive count × 2 of the
 * slowest subscription.
 *
 * <h2>Responses</h2>
 * A Publish response is handled on the I/O thread that read it
 * ({@link ServiceInvoker#sendCompletingOnIoThread}): routed by its subscriptionId straight to that
 * subscription's {@link NotificationSequencer}, acknowledged, and answered with the next Publish, with no
 * thread hand-off, while listeners still run on the listener executor. A failure is handled on the
 * callback executor: BadTimeout, and a response over this client's limits (BadResponseTooLarge,
 * BadEncodingLimitsExceeded: the server has numbered that message and moved on), send the request again at once; BadNoSubscription stops the pipeline
 * until a subscription exists; BadSessionIdInvalid, BadSessionClosed and BadSessionNotActivated pause it
 * and call {@link #setOnSessionInvalid(Consumer) onSessionInvalid}; any other failure sends it again
 * after {@link SubscriptionSettings#publishRetryDelay()}.
 *
 * <h2>Flow control</h2>
 * The pipeline never keeps more Publish requests outstanding than the listener queues have room for
 * responses ({@link PublishHoldBack}): while a slow listener's queue is nearly full, no new Publish is
 * sent, a backlog waits at the server, and the queue's drain sends them again.
 *
 * <h2>Watchdog</h2>
 * A subscription from which no Publish response (data or keep-alive) arrived for revised publishing
 * interval × (revised keep-alive count + 1) plus the request timeout means a silent server:
 * {@link #setOnServerSilent(Runnable) onServerSilent} runs once (on the listener executor), and again
 * only after a response arrived or publishing paused and resumed.
 *
 * <p>Running, paused (while the connection is lost or the subscriptions are rebuilt: no request is
 * sent, answers of requests in flight are still used) or closed. Thread-safe: the lifecycle and the
 * counts of requests are guarded by this object, once per Publish response, never per notification;
 * the routing table is a copy replaced on change, read without a lock.
 */
final class PublishPipeline {

    private static final Logger log = LoggerFactory.getLogger(PublishPipeline.class);

    private enum State { RUNNING, PAUSED, CLOSED }

    private final ServiceInvoker services;
    private final SubscriptionSettings settings;
    private final Executor listenerExecutor;
    private final Timer timer;
    private final LongSupplier nanoClock;
    /** The client's record of subscriptions, read here: the slowest sets the timeoutHint, each is watched. */
    private final List<ClientSubscription> record;
    private final Acknowledgements acknowledgements;
    private final SubscriptionCounters counters;
    private final PublishHoldBack holdBack;

    /** Sequencers by server id: a copy replaced on change, read without a lock on the Publish path. */
    private volatile LongObjectHashMap<NotificationSequencer> byId = new LongObjectHashMap<>();
    /**
     * Subscriptions being resumed ({@link #routeOnly}): their messages are routed, but they do not count as
     * served, so no Publish is sent for them before the server moved them to this session.
     */
    private final Map<Long, NotificationSequencer> resuming = new ConcurrentHashMap<>();

    // Guarded by `this`.
    private volatile State state = State.RUNNING;
    private long epoch;
    private int outstanding;
    private int ceiling = Integer.MAX_VALUE;
    private boolean noSubscriptionAtServer;
    private volatile int outstandingSnapshot;
    private volatile boolean silenceReported;
    /** System.nanoTime of the last Good response of the current epoch, NEVER when none: the keep-alive's evidence. */
    private volatile long lastAnsweredNanos = NEVER;

    private static final long NEVER = Long.MIN_VALUE;

    private volatile Runnable onServerSilent = () -> { };
    private volatile Consumer<StatusCode> onSessionInvalid = status -> { };

    PublishPipeline(ServiceInvoker services, SubscriptionSettings settings, Executor listenerExecutor, Timer timer,
            LongSupplier nanoClock, List<ClientSubscription> record, Acknowledgements acknowledgements,
            SubscriptionCounters counters) {
        this.services = services;
        this.settings = settings;
        this.listenerExecutor = listenerExecutor;
        this.timer = timer;
        this.nanoClock = nanoClock;
        this.record = record;
        this.acknowledgements = acknowledgements;
        this.counters = counters;
        this.holdBack = new PublishHoldBack(record, settings, counters, timer, nanoClock);
    }

    /** Runs (on the listener executor) when the watchdog finds the server silent. */
    void setOnServerSilent(Runnable callback) {
        this.onServerSilent = callback;
    }

    /** Runs with the status when a Publish shows the session gone (BadSessionIdInvalid, BadSessionClosed ...). */
    void setOnSessionInvalid(Consumer<StatusCode> callback) {
        this.onSessionInvalid = callback;
    }

    int outstanding() {
        return outstandingSnapshot;
    }

    /** See {@link ClientSubscriptions#lastPublishAnsweredNanos()}. */
    long lastAnsweredNanos() {
        return lastAnsweredNanos;
    }

    /** How many Publish requests the pipeline wants outstanding now. */
    synchronized int target() {
        return targetLocked();
    }

    // ---- lifecycle --------------------------------------------------------------------------------

    boolean isClosed() {
        return state == State.CLOSED;
    }

    /** Stops publishing and the watchdog for good (until {@link #reopen()}); false when closed already. */
    synchronized boolean close() {
        if (state == State.CLOSED) {
            return false;
        }
        stopLocked(State.CLOSED);
        return true;
    }

    /** Routes nothing any more: the record was emptied. */
    void forgetAll() {
        byId = new LongObjectHashMap<>();
    }

    /** After {@link #close()}: running again, from scratch. Does nothing unless closed. */
    synchronized void reopen() {
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

    /**
     * No Publish request is sent until {@link #resume()}; the watchdog stops; answers of requests in
     * flight are still routed. False when closed (then nothing changes).
     */
    synchronized boolean pause() {
        if (state == State.CLOSED) {
            return false;
        }
        stopLocked(State.PAUSED);
        silenceReported = false;
        return true;
    }

    /** No request is sent from now on; the answers of those in flight no longer count as outstanding. */
    private void stopLocked(State next) {
        state = next;
        holdBack.reset();
        epoch++;
        outstanding = 0;
        outstandingSnapshot = 0;
        lastAnsweredNanos = NEVER; // answers from now on may come from a session no longer in use
        cancelWatchdogs();
    }

    /** Publishing and the watchdog resume after {@link #pause()}. */
    void resume() {
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

    // ---- routing ----------------------------------------------------------------------------------

    /**
     * A subscription being resumed: its messages, should a Publish request of another subscription bring one
     * once the server transferred it, reach its sequencer; nothing is sent for it until {@link #registered}.
     */
    void routeOnly(ClientSubscription subscription) {
        resuming.put(subscription.subscriptionId(), subscription.sequencer());
    }

    /** A subscription has a (new) server id: route its responses, serve it, watch it. */
    void registered(ClientSubscription subscription) {
        resuming.remove(subscription.subscriptionId(), subscription.sequencer());
        synchronized (this) {
            LongObjectHashMap<NotificationSequencer> copy = new LongObjectHashMap<>(byId.size() + 2);
            copy.putAll(byId);
            copy.put(subscription.subscriptionId(), subscription.sequencer());
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
        NotificationSequencer sequencer = subscription.sequencer();
        resuming.remove(oldId, sequencer);
        synchronized (this) {
            if (byId.get(oldId) == sequencer) {
                LongObjectHashMap<NotificationSequencer> copy = new LongObjectHashMap<>(byId.size());
                copy.putAll(byId);
                copy.remove(oldId);
                byId = copy;
            }
            if (sequencer.watchdog != null) {
                sequencer.watchdog.cancel();
                sequencer.watchdog = null;
            }
        }
        acknowledgements.forget(oldId);
    }

    // ---- the pipeline -----------------------------------------------------------------------------

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

    /** Whether publishing is held back for a nearly full listener queue now. */
    boolean isHeldBack() {
        return holdBack.isHeld();
    }

    /** A listener queue drained some: while publishing is held back, the room may allow a Publish again. */
    void listenersDrained() {
        if (holdBack.isHeld()) {
            fill();
        }
    }

    /**
     * Sends Publish requests up to the high water mark once fewer than the target are outstanding; while
     * the listener queues have room for fewer responses than the target, up to that room only.
     */
    private void fill() {
        int toSend;
        long sendEpoch;
        synchronized (this) {
            if (state != State.RUNNING || noSubscriptionAtServer || liveSubscriptions() == 0) {
                return;
            }
            int target = targetLocked();
            int room = holdBack.credit(target);
            if (outstanding >= Math.min(target, room)) {
                return;
            }
            toSend = Math.min(highWaterLocked(target), room) - outstanding;
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
    private long publishTimeoutMillis() {
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
            acks = acknowledgements.take();
            return new PublishRequest(header, acks);
        }

        @Override
        public void accept(PublishResponse response, Throwable failure) {
            onPublishDone(this.epoch, acks, response, failure);
        }
    }

    private void onPublishDone(long sentEpoch, SubscriptionAcknowledgement[] acks, PublishResponse response,
            Throwable failure) {
        boolean current;
        long now = 0;
        synchronized (this) {
            current = sentEpoch == epoch;
            if (current) {
                outstanding--;
                outstandingSnapshot = outstanding;
                if (failure == null) {
                    // under the lock: a pause that moved the epoch on is not undone by a late answer
                    now = nanoClock.getAsLong();
                    lastAnsweredNanos = now;
                    if (outstanding == 0 && state == State.RUNNING) {
                        counters.countPipelineEmptied();
                    }
                }
            }
        }
        if (failure == null) {
            onPublishResponse(response, current ? now : nanoClock.getAsLong());
            if (current) {
                fill();
            }
            return;
        }
        int code = Failures.status(failure);
        if (acks != null && acks.length > 0 && current) {
            // The server may not have seen them: same session, same subscriptions, so send them again.
            acknowledgements.again(acks);
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
                        pause();
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
            case StatusCodes.BadResponseTooLarge, StatusCodes.BadEncodingLimitsExceeded -> {
                // the server numbered the message and moved on: the next response shows the gap, and the
                // sequencer counts the message lost when its Republish fails the same way
                log.warn("a Publish response exceeded this client's message limits ({}): asking for the next one",
                        StatusCode.of(code));
                fill();
            }
            default -> {
                if (state == State.RUNNING) {
                    timer.newTimeout(t -> fill(), settings.publishRetryDelay().toMillis(), TimeUnit.MILLISECONDS);
                }
            }
        }
    }

    private void onPublishResponse(PublishResponse response, long now) {
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
        NotificationSequencer sequencer = byId.get(id);
        if (sequencer == null && !resuming.isEmpty()) {
            sequencer = resuming.get(id);
        }
        if (sequencer != null) {
            sequencer.lastResponseNanos = now;
            sequencer.onMessage(message, keepAlive, response.availableSequenceNumbers(), false);
        }
        if (response.moreNotifications()) {
            counters.countMoreNotifications();
        }
        if (keepAlive) {
            counters.countKeepAlive();
        } else if (sequencer != null) {
            // a subscription not in the record (detached for another client to resume, or not registered yet)
            // keeps its message at the server for Republish: acknowledging it would drop it there
            acknowledgements.add(id, message.sequenceNumber());
        }
    }

    // ---- the watchdog -----------------------------------------------------------------------------

    private void cancelWatchdogs() {
        for (ClientSubscription s : record) {
            NotificationSequencer sequencer = s.sequencer();
            if (sequencer.watchdog != null) {
                sequencer.watchdog.cancel();
                sequencer.watchdog = null;
            }
        }
    }

    private void armWatchdogLocked(ClientSubscription s) {
        NotificationSequencer sequencer = s.sequencer();
        if (sequencer.watchdog != null) {
            sequencer.watchdog.cancel();
        }
        sequencer.lastResponseNanos = nanoClock.getAsLong();
        scheduleWatchdogLocked(s, s.silenceNanos(settings.requestTimeout().toNanos()), epoch);
    }

    private void scheduleWatchdogLocked(ClientSubscription s, long delayNanos, long watchEpoch) {
        s.sequencer().watchdog = timer.newTimeout(t -> checkSilence(s, watchEpoch), Math.max(1, delayNanos),
                TimeUnit.NANOSECONDS);
    }

    private void checkSilence(ClientSubscription s, long watchEpoch) {
        boolean fire = false;
        synchronized (this) {
            if (state != State.RUNNING || watchEpoch != epoch || byId.get(s.subscriptionId()) != s.sequencer()) {
                return;
            }
            long silence = s.silenceNanos(settings.requestTimeout().toNanos());
            long since = nanoClock.getAsLong() - s.sequencer().lastResponseNanos;
            if (holdBack.isHeld()) {
                // no answer is due while the client sends no Publish: silence counts again when it resumes
                scheduleWatchdogLocked(s, silence, watchEpoch);
            } else if (since >= silence) {
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
