package dev.opcua.stack.server.subscriptions;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.server.transport.uasc.ServerSecureChannel;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.structured.NotificationMessage;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.core.types.structured.SubscriptionAcknowledgement;
import dev.opcua.stack.core.types.structured.TransferResult;
import dev.opcua.stack.server.session.Session;
import dev.opcua.stack.server.session.SessionListener;
import dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionRecord;
import dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionStore;
import dev.opcua.stack.server.subscriptions.durable.InMemoryDurableSubscriptionStore;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The subscriptions of a server (Part 4, 5.13): creates them within the server-wide and per-session
 * limits, finds them for the subscription and monitored-item service sets ({@link SubscriptionLookup}),
 * parks Publish requests in their sessions, and deletes or keeps the subscriptions of closed sessions
 * ({@link SessionListener}: with deleteSubscriptions false they wait for a TransferSubscriptions until
 * their lifetime ends).
 *
 * <ul>
 *   <li>SubscriptionIds are UInt32, never 0, unique among the live subscriptions; they start at a random
 *       value so that ids of a previous run of the server are unlikely to name a new subscription.</li>
 *   <li>Every subscription's publishing timer runs on one shared thread, {@code opcua-publisher}; no
 *       thread per subscription. The same thread answers Publish requests whose timeoutHint passed
 *       (BadTimeout), checked once a second.</li>
 *   <li>State is kept per session ({@link SessionSubscriptions}) and per subscription; the maps of all
 *       sessions and subscriptions are concurrent and take no lock shared by all sessions.</li>
 * </ul>
 *
 * <p>Owns the publishing thread: {@link #close()} deletes every subscription (and its items) and stops it;
 * durable subscriptions (Part 4, 6.8) are saved to the {@link DurableSubscriptionStore} first (and every
 * {@link SubscriptionSettings#durableSavePeriod()} while they change) and stay in it, to be restored by the next
 * server.
 */
public final class SubscriptionManager implements SubscriptionLookup, SessionListener, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SubscriptionManager.class);

    /** How often parked Publish requests are checked against their timeoutHint. */
    static final long TIMEOUT_SWEEP_NANOS = TimeUnit.SECONDS.toNanos(1);

    private static final StatusCode[] NO_RESULTS = new StatusCode[0];
    private static final StatusCode SUBSCRIPTION_ID_INVALID = StatusCode.of(StatusCodes.BadSubscriptionIdInvalid);
    private static final long[] NO_SEQUENCE_NUMBERS = new long[0];

    private final SubscriptionSettings settings;
    private final ItemContainerFactory itemContainers;
    private final SubscriptionStatistics statistics;
    private final PublishingScheduler scheduler;
    private final Map<Long, Subscription> subscriptions = new ConcurrentHashMap<>();
    private final Map<NodeId, SessionSubscriptions> sessions = new ConcurrentHashMap<>();
    private final AtomicInteger count = new AtomicInteger();
    private final AtomicLong nextId = new AtomicLong(ThreadLocalRandom.current().nextLong(1, 1L << 31));
    private final DurableSubscriptionStore durableStore;
    /**
     * The last record saved of each durable subscription, with expiresAtMillis 0, to skip unchanged ones: compared
     * with equals (its values, messages and items are values), which costs less than encoding it.
     */
    private final Map<Long, DurableSubscriptionRecord> lastSaved = new ConcurrentHashMap<>();
    /**
     * Orders the saves and removals of durable subscriptions: a periodic save in flight never lands after
     * close()'s final save, nor after the removal of a deleted subscription.
     */
    private final Object durableLock = new Object();
    /**
     * The time until the next round of durable saves: the save period, or four times the last round's duration
     * when that is longer, so that saving takes at most a fifth of the publishing thread.
     */
    private volatile long durableSaveDelayNanos;
    private volatile boolean closed;

    private SubscriptionManager(Builder builder) {
        this.settings = builder.settings;
        this.itemContainers = Objects.requireNonNull(builder.itemContainers, "itemContainerFactory");
        this.statistics = builder.statistics;
        this.scheduler = builder.scheduler != null ? builder.scheduler : new ExecutorPublishingScheduler();
        this.durableStore = builder.durableStore != null ? builder.durableStore
                : new InMemoryDurableSubscriptionStore();
        scheduler.schedule(this::sweepTimeouts, TIMEOUT_SWEEP_NANOS);
        durableSaveDelayNanos = settings.durableSavePeriod().toNanos();
        scheduler.schedule(this::saveDurableChanges, durableSaveDelayNanos);
    }

    /** Where durable subscriptions are kept across restarts (Part 4, 6.8). */
    public DurableSubscriptionStore durableStore() {
        return durableStore;
    }

    public static Builder builder() {
        return new Builder();
    }

    public SubscriptionSettings settings() {
        return settings;
    }

    public SubscriptionStatistics statistics() {
        return statistics;
    }

    PublishingScheduler scheduler() {
        return scheduler;
    }

    /** Subscriptions that exist now, in sessions or waiting for a transfer. */
    public int subscriptionCount() {
        return count.get();
    }

    /** The live subscription with this id, whatever its session, or null; does not count as a use of it. */
    Subscription subscription(long subscriptionId) {
        return subscriptions.get(subscriptionId);
    }

    // ---- SubscriptionLookup -------------------------------------------------------------------

    /**
     * The session's subscription (for the monitored-item services); naming it resets its lifetime counter
     * (Part 4, 5.13.1.1).
     *
     * @throws UaException BadSubscriptionIdInvalid when the session has no subscription with this id
     */
    @Override
    public Subscription find(Session session, long subscriptionId) {
        SessionSubscriptions owner = sessions.get(session.sessionId());
        Subscription subscription = owner == null ? null : owner.get(subscriptionId);
        if (subscription == null) {
            throw new UaException(StatusCodes.BadSubscriptionIdInvalid,
                    "the session has no subscription " + subscriptionId);
        }
        subscription.touch();
        return subscription;
    }

    // ---- subscription services ----------------------------------------------------------------

    /**
     * CreateSubscription (Part 4, 5.13.2) with revised parameters ({@link SubscriptionSettings}).
     *
     * @throws UaException BadTooManySubscriptions (server or session limit), BadSessionClosed,
     *         BadServerHalted once closed
     */
    Subscription create(Session session, double requestedPublishingInterval, long requestedLifetimeCount,
            long requestedMaxKeepAliveCount, long maxNotificationsPerPublish, boolean publishingEnabled,
            short priority) {
        if (closed) {
            throw new UaException(StatusCodes.BadServerHalted, "the subscription manager is closed");
        }
        reserveSlot();
        SessionSubscriptions owner = sessions.computeIfAbsent(session.sessionId(),
                key -> new SessionSubscriptions(session, statistics));
        double interval = settings.revisePublishingInterval(requestedPublishingInterval);
        long keepAlive = settings.reviseMaxKeepAliveCount(requestedMaxKeepAliveCount);
        Subscription subscription = new Subscription(allocateId(), this, owner, interval,
                settings.reviseLifetimeCount(requestedLifetimeCount, keepAlive), keepAlive,
                settings.reviseMaxNotificationsPerPublish(maxNotificationsPerPublish), publishingEnabled, priority);
        long id = subscription.subscriptionId();
        try {
            subscription.attachItems(Objects.requireNonNull(itemContainers.create(subscription),
                    "the item container factory returned null"));
        } catch (RuntimeException e) {
            count.decrementAndGet();
            throw e;
        }
        int refused;
        synchronized (subscription) { // nothing can delete or transfer it before both maps hold it
            refused = owner.add(subscription, settings.maxSubscriptionsPerSession());
            if (refused == 0 && subscriptions.putIfAbsent(id, subscription) != null) {
                throw new IllegalStateException("subscription id " + id + " was allocated twice");
            }
        }
        if (refused != 0) {
            count.decrementAndGet();
            deleteItems(subscription);
            if (refused == StatusCodes.BadTooManySubscriptions) {
                statistics.subscriptionRejected();
            }
            throw new UaException(refused, refused == StatusCodes.BadTooManySubscriptions
                    ? "the session has " + settings.maxSubscriptionsPerSession() + " subscriptions, its maximum"
                    : "the session was closed");
        }
        statistics.subscriptionCreated();
        if (session.isClosed()) { // closed meanwhile: its listener may have missed this subscription
            sessionClosed(session, true);
            throw new UaException(StatusCodes.BadSessionClosed, "the session was closed");
        }
        subscription.start();
        return subscription;
    }

    /** ModifySubscription (Part 4, 5.13.3). @throws UaException BadSubscriptionIdInvalid */
    Subscription modify(Session session, long subscriptionId, double requestedPublishingInterval,
            long requestedLifetimeCount, long requestedMaxKeepAliveCount, long maxNotificationsPerPublish,
            short priority) {
        Subscription subscription = find(session, subscriptionId);
        double interval = settings.revisePublishingInterval(requestedPublishingInterval);
        long keepAlive = settings.reviseMaxKeepAliveCount(requestedMaxKeepAliveCount);
        long lifetime = settings.reviseLifetimeCount(requestedLifetimeCount, keepAlive);
        long hours = subscription.durableLifetimeHours();
        if (hours > 0) { // Part 4, 6.8: a durable subscription stays durable; its lifetime may reach its hours
            lifetime = Math.max(3 * keepAlive, Math.min(requestedLifetimeCount,
                    SubscriptionSettings.durableLifetimeCount(hours, interval, keepAlive)));
        }
        subscription.modify(interval, lifetime, keepAlive,
                settings.reviseMaxNotificationsPerPublish(maxNotificationsPerPublish), priority);
        return subscription;
    }

    /**
     * SetSubscriptionDurable (Part 5, 9.3; Part 4, 6.8) of a subscription of {@code session} without
     * monitored items: the lifetime is revised to at most {@link SubscriptionSettings#maxDurableLifetime()}
     * (0 asks for that maximum) and sets the subscription's lifetimeCount; its items may then have queues of
     * up to {@link SubscriptionSettings#maxDurableQueueSize()}, and it outlives its session (see
     * {@link #sessionClosed}).
     *
     * @param lifetimeInHours the requested lifetime, a UInt32
     * @return the revised lifetime in hours
     * @throws UaException BadSubscriptionIdInvalid (no such subscription), BadUserAccessDenied (the
     *         subscription belongs to another session), BadInvalidState (it has monitored items already)
     */
    public long setSubscriptionDurable(Session session, long subscriptionId, long lifetimeInHours) {
        Subscription subscription = ownedBy(session, subscriptionId);
        long revised = settings.reviseDurableLifetimeHours(lifetimeInHours);
        int refused = subscription.makeDurable(revised);
        if (refused == StatusCodes.BadInvalidState) {
            throw new UaException(refused, "subscription " + subscriptionId
                    + " has monitored items: SetSubscriptionDurable must come before them");
        }
        if (refused != 0) {
            throw new UaException(refused, "subscription " + subscriptionId + " was deleted");
        }
        log.debug("{} is durable for {} h", subscription, revised);
        return revised;
    }

    /**
     * The items of a subscription of {@code session}, for the Server object's GetMonitoredItems method (Part 5,
     * 9.1): clientHandle by MonitoredItemId.
     *
     * @throws UaException BadSubscriptionIdInvalid (no such subscription), BadUserAccessDenied (it belongs to
     *         another session: Part 5, 9.1 allows the call only from the session that owns it)
     */
    public SortedMap<Long, Long> monitoredItemHandles(Session session, long subscriptionId) {
        return ownedBy(session, subscriptionId).items().clientHandles();
    }

    /**
     * The subscription of {@code session} named by a Server object method (Part 5, 9), its lifetime counter reset.
     *
     * @throws UaException BadUserAccessDenied when another session has it (a method is the owner's only),
     *         BadSubscriptionIdInvalid when the server has none with this id
     */
    private Subscription ownedBy(Session session, long subscriptionId) {
        SessionSubscriptions owner = sessions.get(session.sessionId());
        Subscription subscription = owner == null ? null : owner.get(subscriptionId);
        if (subscription == null) {
            if (subscriptions.containsKey(subscriptionId)) {
                throw new UaException(StatusCodes.BadUserAccessDenied, "subscription " + subscriptionId
                        + " belongs to another session (TransferSubscriptions moves it to this one)");
            }
            throw new UaException(StatusCodes.BadSubscriptionIdInvalid,
                    "the server has no subscription " + subscriptionId);
        }
        subscription.touch();
        return subscription;
    }

    /** SetPublishingMode (Part 4, 5.13.4) of one subscription: Good or BadSubscriptionIdInvalid. */
    StatusCode setPublishingMode(Session session, long subscriptionId, boolean publishingEnabled) {
        SessionSubscriptions owner = sessions.get(session.sessionId());
        Subscription subscription = owner == null ? null : owner.get(subscriptionId);
        if (subscription == null) {
            return SUBSCRIPTION_ID_INVALID;
        }
        subscription.setPublishingEnabled(publishingEnabled);
        return StatusCode.GOOD;
    }

    /** DeleteSubscriptions (Part 4, 5.13.8) of one subscription with its items: Good or BadSubscriptionIdInvalid. */
    StatusCode delete(Session session, long subscriptionId) {
        SessionSubscriptions owner = sessions.get(session.sessionId());
        Subscription subscription = owner == null ? null : owner.get(subscriptionId);
        if (subscription == null || !subscription.close(owner)) {
            return SUBSCRIPTION_ID_INVALID;
        }
        detach(subscription, owner, null);
        forget(subscription);
        return StatusCode.GOOD;
    }

    /**
     * Republish (Part 4, 5.13.6).
     *
     * @throws UaException BadSubscriptionIdInvalid, BadMessageNotAvailable (never sent, acknowledged, or
     *         dropped from the full retransmission queue)
     */
    NotificationMessage republish(Session session, long subscriptionId, long sequenceNumber) {
        NotificationMessage message = find(session, subscriptionId).republish(sequenceNumber);
        if (message == null) {
            throw new UaException(StatusCodes.BadMessageNotAvailable, "subscription " + subscriptionId
                    + " holds no NotificationMessage with sequence number " + sequenceNumber);
        }
        return message;
    }

    /**
     * TransferSubscriptions (Part 4, 5.13.7) of one subscription to {@code session}: Good with the
     * available sequence numbers; BadSubscriptionIdInvalid, BadNothingToDo (the session holds it
     * already), BadUserAccessDenied (another user), BadTooManySubscriptions (the session's limit). The
     * previous session receives a StatusChangeNotification GoodSubscriptionTransferred.
     */
    TransferResult transfer(Session session, long subscriptionId, boolean sendInitialValues) {
        Subscription subscription = subscriptions.get(subscriptionId);
        if (subscription == null) {
            return new TransferResult(SUBSCRIPTION_ID_INVALID, NO_SEQUENCE_NUMBERS);
        }
        SessionSubscriptions target = sessions.computeIfAbsent(session.sessionId(),
                key -> new SessionSubscriptions(session, statistics));
        int refused = subscription.transferTo(target, settings.maxSubscriptionsPerSession(), sendInitialValues);
        if (refused == 0 && session.isClosed()) { // closed meanwhile: keep it for another transfer
            sessionClosed(session, false);
        }
        if (refused != 0) {
            if (refused == StatusCodes.BadTooManySubscriptions) {
                statistics.subscriptionRejected();
            }
            return new TransferResult(StatusCode.of(refused), NO_SEQUENCE_NUMBERS);
        }
        statistics.subscriptionTransferred();
        return new TransferResult(StatusCode.GOOD, subscription.availableSequenceNumbers());
    }

    // ---- Publish --------------------------------------------------------------------------------

    /**
     * A decoded Publish request of an activated session (Part 4, 5.13.5), on the event loop: processes
     * its acknowledgements, then parks it or answers it at once (BadNoSubscription, a waiting
     * StatusChangeNotification, a late subscription). Never waits: a late subscription is served on the
     * publishing thread.
     */
    void publish(ServerSecureChannel channel, long requestId, RequestHeader header,
            SubscriptionAcknowledgement[] acknowledgements, Session session) {
        long handle = header.requestHandle();
        if (closed) {
            channel.sendServiceFault(requestId, handle, StatusCodes.BadServerHalted);
            return;
        }
        SessionSubscriptions owner = sessions.get(session.sessionId());
        if (owner == null) {
            channel.sendServiceFault(requestId, handle, StatusCodes.BadNoSubscription);
            return;
        }
        StatusCode[] results = acknowledge(owner, acknowledgements);
        long hint = header.timeoutHint();
        long deadline = hint > 0 ? scheduler.nanoTime() + TimeUnit.MILLISECONDS.toNanos(hint)
                : ParkedPublish.NO_DEADLINE;
        ParkedPublish request = new ParkedPublish(channel, requestId, handle, deadline, results);
        SessionSubscriptions.Admission admission = owner.admit(request, settings.maxPublishRequestsPerSession());
        if (admission.fault() != 0) {
            PublishResponses.fault(request, admission.fault());
            return;
        }
        if (admission.evicted() != null) {
            statistics.publishRequestRejected();
            PublishResponses.fault(admission.evicted(), StatusCodes.BadTooManyPublishRequests);
        }
        if (admission.status() != null) {
            scheduler.execute(() -> PublishResponses.send(request, admission.status()));
        }
        if (admission.late() != null) {
            scheduler.execute(admission.late()::serveLate);
        }
    }

    private StatusCode[] acknowledge(SessionSubscriptions owner, SubscriptionAcknowledgement[] acknowledgements) {
        if (acknowledgements == null || acknowledgements.length == 0) {
            return NO_RESULTS;
        }
        StatusCode[] results = new StatusCode[acknowledgements.length];
        for (int i = 0; i < acknowledgements.length; i++) {
            SubscriptionAcknowledgement ack = acknowledgements[i];
            Subscription subscription = owner.get(ack.subscriptionId());
            results[i] = subscription == null ? SUBSCRIPTION_ID_INVALID
                    : subscription.acknowledge(ack.sequenceNumber());
        }
        return results;
    }

    /** On the publishing thread, once a second: BadTimeout for Publish requests whose timeoutHint passed. */
    private void sweepTimeouts() {
        if (closed) {
            return;
        }
        try {
            long now = scheduler.nanoTime();
            for (SessionSubscriptions owner : sessions.values()) {
                if (owner.parkedCount() > 0) {
                    for (ParkedPublish request : owner.expire(now)) {
                        statistics.publishRequestTimedOut();
                        PublishResponses.fault(request, StatusCodes.BadTimeout);
                    }
                }
            }
        } finally {
            try {
                scheduler.schedule(this::sweepTimeouts, TIMEOUT_SWEEP_NANOS);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                if (!closed) {
                    throw e;
                } // closed meanwhile: nothing more to sweep
            }
        }
    }

    /** On the publishing thread, every durable save period: saves the durable subscriptions that changed. */
    private void saveDurableChanges() {
        if (closed) {
            return;
        }
        long started = System.nanoTime();
        try {
            snapshotDurable();
        } finally {
            long took = System.nanoTime() - started;
            durableSaveDelayNanos = Math.max(settings.durableSavePeriod().toNanos(), 4 * took);
            try {
                scheduler.schedule(this::saveDurableChanges, durableSaveDelayNanos);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                if (!closed) {
                    throw e;
                } // closed meanwhile: close() saved them
            }
        }
    }

    /**
     * Restores the durable subscriptions of the {@link DurableSubscriptionStore} (Part 4, 6.8), once, when the
     * server starts and before it accepts connections: each waits, without a session, for a TransferSubscriptions
     * by its owner, with its SubscriptionId, sequence numbering, unacknowledged messages and items with their
     * queues. Those whose lifetime ended while the server was down are removed from the store.
     *
     * @return the subscriptions restored
     */
    public int restoreDurable() {
        List<DurableSubscriptionRecord> records;
        try {
            records = durableStore.loadAll();
        } catch (RuntimeException e) {
            log.warn("durable subscriptions cannot be loaded from {}", durableStore, e);
            return 0;
        }
        long now = System.currentTimeMillis();
        int restored = 0;
        for (DurableSubscriptionRecord record : records) {
            long id = record.subscriptionId();
            if (record.expiresAtMillis() <= now) {
                log.info("durable subscription {} expired while the server was down", id);
                durableStore.remove(id);
                continue;
            }
            Subscription subscription = restore(record, now, "durable subscription");
            if (subscription != null) {
                restored++;
                // a new reservation before it sends: a second crash must not reuse what this run sends
                saveDurable(subscription, false);
            }
        }
        return restored;
    }

    /**
     * Re-creates a subscription from its record, without a session, with its SubscriptionId, sequence numbering,
     * unacknowledged messages and items with their queues, and starts it; null (logged) when it cannot be.
     */
    private Subscription restore(DurableSubscriptionRecord record, long nowMillis, String what) {
        long id = record.subscriptionId();
        if (id == 0 || subscriptions.containsKey(id)) {
            log.warn("{} {} is not restored: its id is taken", what, id);
            return null;
        }
        try {
            reserveSlot();
        } catch (UaException e) {
            log.warn("{} {} is not restored: {}", what, id, e.getMessage());
            return null;
        }
        Subscription subscription = new Subscription(id, this, record.owner(), record.publishingInterval(),
                record.lifetimeCount(), record.maxKeepAliveCount(), record.maxNotificationsPerPublish(),
                record.publishingEnabled(), record.priority());
        long remainingCycles = (long) Math.ceil((record.expiresAtMillis() - nowMillis)
                / Math.max(1.0, record.publishingInterval()));
        subscription.restore(record.durableLifetimeHours(), record.nextSequenceNumber(), record.retransmission(),
                remainingCycles);
        try {
            subscription.attachItems(Objects.requireNonNull(itemContainers.create(subscription),
                    "the item container factory returned null"));
        } catch (RuntimeException e) {
            count.decrementAndGet();
            log.warn("{} {} is not restored", what, id, e);
            return null;
        }
        subscriptions.put(id, subscription);
        statistics.subscriptionCreated();
        int items = subscription.items().restore(record.items());
        subscription.start();
        log.info("{} restored: {} of {} items, {} unacknowledged messages, owner {}", subscription, items,
                record.items().size(), record.retransmission().size(), record.owner().auditUserId());
        return subscription;
    }

    /**
     * The subscriptions of a session as a partner server needs them to go on with it (HotAndMirrored, Part 4,
     * 6.6.2.4.5): each as {@link Subscription#snapshot} records it, sequence numbers, retransmission queue and item
     * queues consistent with each other.
     */
    public List<DurableSubscriptionRecord> snapshotSession(NodeId sessionId) {
        SessionSubscriptions owner = sessions.get(sessionId);
        if (owner == null) {
            return List.of();
        }
        long now = System.currentTimeMillis();
        List<DurableSubscriptionRecord> records = new java.util.ArrayList<>();
        for (Subscription subscription : owner.all()) {
            DurableSubscriptionRecord record = subscription.snapshot(now);
            if (subscription.state() != Subscription.State.CLOSED) {
                records.add(record);
            }
        }
        return records;
    }

    /**
     * Gives {@code session}, taken over from a partner server, the subscriptions the partner held for it: each
     * restored from its record and attached to the session as a transfer without initial values would, so that
     * its next NotificationMessage continues the partner's sequence numbers and Republish finds the messages the
     * partner sent and the client did not acknowledge.
     *
     * @return the subscriptions restored
     */
    public int adopt(Session session, List<DurableSubscriptionRecord> records) {
        long now = System.currentTimeMillis();
        int adopted = 0;
        for (DurableSubscriptionRecord record : records) {
            Subscription subscription = restore(record, now, "subscription of taken-over " + session);
            if (subscription == null) {
                continue;
            }
            SessionSubscriptions target = sessions.computeIfAbsent(session.sessionId(),
                    key -> new SessionSubscriptions(session, statistics));
            int refused = subscription.transferTo(target, settings.maxSubscriptionsPerSession(), false);
            if (refused != 0) {
                log.warn("{} of taken-over {} cannot join it: {}", subscription, session,
                        StatusCode.of(refused));
                continue;
            }
            adopted++;
        }
        return adopted;
    }

    private void snapshotDurable() {
        for (Subscription subscription : subscriptions.values()) {
            if (closed) {
                return;
            }
            if (subscription.durable()) {
                saveDurable(subscription, false);
            }
        }
    }

    /**
     * Saves one durable subscription's record when it differs from the last one saved (or always with
     * {@code force}, when the server closes); a failing store is logged, and the subscription goes on in memory.
     * A periodic save stores a sequence number past a reservation
     * ({@link DurableSubscriptionRecord#withSequenceReservation}), so that a server restored after a crash never
     * reuses the numbers of messages sent after it; the save at close stores the exact next number.
     */
    private void saveDurable(Subscription subscription, boolean force) {
        synchronized (durableLock) {
            if (closed && !force) {
                return; // a periodic save that lost the race with close(): close() saves the newer state
            }
            saveDurableLocked(subscription, force);
        }
    }

    private void saveDurableLocked(Subscription subscription, boolean force) {
        try {
            DurableSubscriptionRecord record = subscription.snapshot(System.currentTimeMillis());
            if (subscription.state() == Subscription.State.CLOSED) {
                return; // deleted or expired: forget() removes it from the store (under durableLock)
            }
            DurableSubscriptionRecord signature = withoutExpiry(record);
            if (!force && signature.equals(lastSaved.get(record.subscriptionId()))) {
                return;
            }
            durableStore.save(force ? record : record.withSequenceReservation(sequenceReservation(record)));
            lastSaved.put(record.subscriptionId(), signature);
        } catch (RuntimeException e) {
            log.warn("{}: saving the durable subscription failed", subscription, e);
        }
    }

    private long sequenceReservation(DurableSubscriptionRecord record) {
        return DurableSubscriptionRecord.sequenceReservation(record.publishingInterval(),
                Math.max(1, TimeUnit.NANOSECONDS.toMillis(durableSaveDelayNanos)),
                settings.maxPublishRequestsPerSession() + 1);
    }

    private static DurableSubscriptionRecord withoutExpiry(DurableSubscriptionRecord r) {
        return new DurableSubscriptionRecord(r.subscriptionId(), r.owner(), r.publishingInterval(), r.lifetimeCount(),
                r.maxKeepAliveCount(), r.maxNotificationsPerPublish(), r.priority(), r.publishingEnabled(),
                r.durableLifetimeHours(), 0, r.nextSequenceNumber(), r.retransmission(), r.items());
    }

    // ---- sessions -----------------------------------------------------------------------------

    /**
     * A session closed (Part 4, 5.6.4): its parked Publish requests are answered BadSessionClosed; its
     * subscriptions are deleted with their items, or, without deleteSubscriptions, kept for a transfer
     * until their lifetime ends. A durable subscription (Part 4, 6.8) is always kept, queueing, until its
     * lifetime ends: it exists so that its notifications reach a client that comes back "even if [it] was
     * disconnected for a longer time" (Part 5, 9.3), and a client that closed its session, cleanly or not,
     * transfers it (5.13.7) from a new one; only DeleteSubscriptions or its lifetime deletes it.
     */
    @Override
    public void sessionClosed(Session session, boolean deleteSubscriptions) {
        SessionSubscriptions owner = sessions.remove(session.sessionId());
        if (owner == null) {
            return;
        }
        SessionSubscriptions.Closing closing = owner.close();
        for (ParkedPublish request : closing.parked()) {
            PublishResponses.fault(request, StatusCodes.BadSessionClosed);
        }
        for (Subscription subscription : closing.subscriptions()) {
            if (deleteSubscriptions && !subscription.durable()) {
                if (subscription.close(owner)) {
                    forget(subscription);
                }
            } else {
                subscription.orphan(owner);
            }
        }
    }

    // ---- called by subscriptions --------------------------------------------------------------

    /** Removes a subscription from its session and answers what that leaves (status message, BadNoSubscription). */
    void detach(Subscription subscription, SessionSubscriptions owner, SessionSubscriptions.StatusMessage status) {
        SessionSubscriptions.Removal removal = owner.remove(subscription, status);
        if (removal.statusCarrier() != null) {
            PublishResponses.send(removal.statusCarrier(), status);
        }
        for (ParkedPublish request : removal.noSubscription()) {
            PublishResponses.fault(request, StatusCodes.BadNoSubscription);
        }
    }

    /** A subscription's lifetime ended (it is closed already): detach it with its BadTimeout status, delete items. */
    void expired(Subscription subscription, SessionSubscriptions owner, SessionSubscriptions.StatusMessage status) {
        log.debug("{} expired", subscription);
        if (owner != null) {
            detach(subscription, owner, status);
        }
        forget(subscription);
    }

    /** Frees a closed subscription's id, slot and items; a durable one leaves its store too. */
    private void forget(Subscription subscription) {
        forget(subscription, false);
    }

    private void forget(Subscription subscription, boolean keepStored) {
        if (subscriptions.remove(subscription.subscriptionId(), subscription)) {
            count.decrementAndGet();
            statistics.subscriptionDeleted();
        }
        deleteItems(subscription);
        if (subscription.durable() && !keepStored) {
            synchronized (durableLock) {
                lastSaved.remove(subscription.subscriptionId());
                try {
                    durableStore.remove(subscription.subscriptionId());
                } catch (RuntimeException e) {
                    log.warn("{}: removing the durable subscription from its store failed", subscription, e);
                }
            }
        }
    }

    private static void deleteItems(Subscription subscription) {
        try {
            ItemContainer items = subscription.items();
            if (items != null) {
                items.deleteAll();
            }
        } catch (RuntimeException e) { // the subscription is gone either way
            log.warn("{}: deleting its monitored items failed", subscription, e);
        }
    }

    private void reserveSlot() {
        int current;
        do {
            current = count.get();
            if (current >= settings.maxSubscriptions()) {
                statistics.subscriptionRejected();
                throw new UaException(StatusCodes.BadTooManySubscriptions,
                        "the server has " + current + " subscriptions, its maximum");
            }
        } while (!count.compareAndSet(current, current + 1));
    }

    /**
     * A UInt32 id, never 0, not held by a live subscription. The counter hands out each value once per
     * 2^32 allocations, so only a subscription that outlived a wrap-around can hold it.
     */
    private long allocateId() {
        while (true) {
            long id = nextId.getAndIncrement() & 0xFFFF_FFFFL;
            if (id != 0 && !subscriptions.containsKey(id)) {
                return id;
            }
        }
    }

    /**
     * Deletes every subscription with its items, answers parked Publish requests BadServerHalted, stops
     * the publishing thread. CreateSubscription is refused with BadServerHalted from now on. Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (SessionSubscriptions owner : sessions.values()) {
            for (ParkedPublish request : owner.close().parked()) {
                PublishResponses.fault(request, StatusCodes.BadServerHalted);
            }
        }
        sessions.clear();
        for (Subscription subscription : subscriptions.values()) {
            boolean durable = subscription.durable();
            if (durable) { // Part 4, 6.8: it survives the restart; the next server restores it from the store
                saveDurable(subscription, true);
            }
            if (subscription.close(null)) {
                forget(subscription, durable);
            }
        }
        scheduler.close();
    }

    /** Builds a {@link SubscriptionManager}; the item container factory is required. */
    public static final class Builder {

        private SubscriptionSettings settings = SubscriptionSettings.DEFAULT;
        private ItemContainerFactory itemContainers;
        private SubscriptionStatistics statistics = new SubscriptionStatistics();
        private PublishingScheduler scheduler;
        private DurableSubscriptionStore durableStore;

        private Builder() {
        }

        /**
         * Where durable subscriptions are saved and, at start, restored from (Part 4, 6.8); default an
         * {@link InMemoryDurableSubscriptionStore} of this manager alone. The caller owns it and closes it
         * after the manager.
         */
        public Builder durableStore(DurableSubscriptionStore value) {
            durableStore = Objects.requireNonNull(value, "durableStore");
            return this;
        }

        public Builder settings(SubscriptionSettings value) {
            settings = Objects.requireNonNull(value, "settings");
            return this;
        }

        /** Creates the monitored-item container of each subscription (the monitored-items layer). */
        public Builder itemContainerFactory(ItemContainerFactory value) {
            itemContainers = Objects.requireNonNull(value, "itemContainerFactory");
            return this;
        }

        /** The counters, shared with the monitored items; default a new one. */
        public Builder statistics(SubscriptionStatistics value) {
            statistics = Objects.requireNonNull(value, "statistics");
            return this;
        }

        /** For tests: a virtual clock and thread. */
        Builder scheduler(PublishingScheduler value) {
            scheduler = Objects.requireNonNull(value, "scheduler");
            return this;
        }

        public SubscriptionManager build() {
            return new SubscriptionManager(this);
        }
    }
}
