package dev.opcua.stack.server.subscriptions;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.structured.DataChangeNotification;
import dev.opcua.stack.core.types.structured.EventFieldList;
import dev.opcua.stack.core.types.structured.EventNotificationList;
import dev.opcua.stack.core.types.structured.MonitoredItemNotification;
import dev.opcua.stack.core.types.structured.NotificationMessage;
import dev.opcua.stack.server.session.Identity;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A subscription (Part 4, 5.13.1): its publishing timer, keep-alive and lifetime counters, sequence
 * numbers, retransmission queue and the items that have notifications to report. Created and found
 * by the {@link SubscriptionManager}.
 *
 * <h2>Publishing cycle (Part 4, 5.13.1.2)</h2>
 * The timer fires on an absolute schedule (deadline += interval, so a late wake-up shortens the next
 * wait; after a stall longer than an interval the schedule restarts from now instead of bursting). The
 * first deadline, and the one after a restart, is the scheduler's {@link PublishingScheduler#firstDeadline}:
 * at most one interval away, in production on a grid of the interval, so that subscriptions of equal
 * intervals share one wake-up of the publishing thread. A
 * cycle has a message to send when notifications are available (publishing enabled), when nothing was
 * sent since creation (the first keep-alive), or when {@code maxKeepAliveCount} cycles passed without a
 * message. It then takes the session's oldest parked Publish: notifications (at most
 * {@code maxNotificationsPerPublish}, moreNotifications set when some are left, in which case further
 * parked requests are used at once), or a keep-alive that carries the next sequence number without
 * consuming it. Without a parked request the subscription is {@link State#LATE} and the next Publish of
 * the session is handed to it at once. The lifetime counter counts cycles that found the session
 * without a parked Publish; any message sent and any service call naming the subscription resets it;
 * at {@code lifetimeCount} the subscription is deleted with its items and a StatusChangeNotification
 * (BadTimeout) waits for the session's next Publish.
 *
 * <p>Keep-alive count: the state table sends the keep-alive on the cycle after the keep-alive counter
 * reached 1; this class sends it once {@code maxKeepAliveCount} cycles passed without a message, which
 * is never later than the table and is what clients compute their keep-alive timeouts from.
 *
 * <h2>Items ready to report</h2>
 * {@link #notificationsReady} appends the item to the subscription's {@link ReadyItems} (O(1), any thread,
 * a lock of this subscription's own that the publishing cycle takes once per batch of items).
 * The contract relied on (see {@link ItemOwner#notificationsReady}): an item calls it once per transition
 * of its queue from empty to not empty while reporting, and when it starts reporting with a non-empty
 * queue. A cycle drains items from the head; an item still holding notifications when the message is
 * full is kept at the head for the next message; an item drained empty is dropped and comes back by its
 * next call. An item queued twice costs one extra {@code drain} that returns 0. Items whose
 * {@code hasNotifications()} is false (no longer reporting) are dropped when they reach the head.
 *
 * <h2>Threads</h2>
 * Cycles, the serving of a late subscription and the sending of their responses run on the publishing
 * thread under this object's monitor (so messages of one subscription leave in sequence order); the
 * subscription services take the monitor on workers. The event loop never takes it: acknowledgements
 * go to the {@link RetransmissionQueue}, which has its own monitor.
 */
public final class Subscription implements ItemOwner {

    /** The states of Part 4, 5.13.1.2 (Creating is the constructor). */
    public enum State {
        /** Sending notifications, or created and not yet sent anything. */
        NORMAL,
        /** Has a message to send and waits for a Publish request. */
        LATE,
        /** Sent a message before, nothing to report now: counting down to the next keep-alive. */
        KEEPALIVE,
        /** Deleted, expired, or its server closed. */
        CLOSED
    }

    private static final ExtensionObject[] NO_NOTIFICATIONS = new ExtensionObject[0];
    /**
     * Bytes of a PublishResponse besides its notifications and number arrays, with room to spare: encoding
     * NodeId, ResponseHeader, SubscriptionId, MoreNotifications, the NotificationMessage's fields and the
     * ExtensionObject headers of a DataChangeNotification and an EventNotificationList.
     */
    private static final int RESPONSE_ENVELOPE = 256;
    /** Drain lists that held more notifications than this are not kept for the next message. */
    private static final int BUFFER_KEEP_LIMIT = 4096;
    private static final StatusCode GOOD = StatusCode.GOOD;
    private static final StatusCode SEQUENCE_NUMBER_UNKNOWN = StatusCode.of(StatusCodes.BadSequenceNumberUnknown);
    private static final StatusCode NO_RETRANSMISSION_QUEUE =
            StatusCode.of(StatusCodes.GoodRetransmissionQueueNotSupported);

    private final long id;
    private final SubscriptionManager manager;
    private final SubscriptionSettings settings;
    private final SubscriptionStatistics statistics;
    private final PublishingScheduler scheduler;
    private final ReadyItems ready = new ReadyItems();
    private final RetransmissionQueue retransmission;
    private ItemContainer items; // set once by the manager before the subscription is shared

    // Guarded by this monitor.
    private SessionSubscriptions owner;
    private Identity identity;
    private State state = State.NORMAL;
    private long intervalNanos;
    private long maxKeepAliveCount;
    private long lifetimeCount;
    private int maxNotificationsPerPublish;
    private boolean publishingEnabled;
    private boolean messageSent;
    private long idleCycles;
    private long lifetimeCycles;
    private long nextSequenceNumber = 1;
    private NotificationProducer carried;
    /** Keeps each message within the client's limits; holds what did not fit the last one. */
    private final MessageFill fill = new MessageFill();
    /** The publishing cycle's lists for draining notifications, reused from message to message. */
    private ArrayList<MonitoredItemNotification> dataChangeBuffer = new ArrayList<>();
    private ArrayList<EventFieldList> eventBuffer = new ArrayList<>();
    private long nextDeadline;
    private PublishingScheduler.Timer timer;
    private int timerGeneration;

    private volatile double publishingIntervalMillis;
    private volatile short priority;
    private volatile boolean closed;
    private volatile boolean touched;
    private volatile boolean initialValuesRequested;
    /** Revised lifetime of a durable subscription in hours (Part 4, 6.8), 0 while it is not durable. */
    private volatile long durableLifetimeHours;

    Subscription(long id, SubscriptionManager manager, SessionSubscriptions owner, double publishingIntervalMillis,
            long lifetimeCount, long maxKeepAliveCount, int maxNotificationsPerPublish, boolean publishingEnabled,
            short priority) {
        this(id, manager, owner, owner.session().identity(), publishingIntervalMillis, lifetimeCount,
                maxKeepAliveCount, maxNotificationsPerPublish, publishingEnabled, priority);
    }

    /**
     * A durable subscription restored from its store after a restart (Part 4, 6.8): without a session,
     * owned by {@code identity} until a TransferSubscriptions moves it to a session of that user.
     */
    Subscription(long id, SubscriptionManager manager, Identity identity, double publishingIntervalMillis,
            long lifetimeCount, long maxKeepAliveCount, int maxNotificationsPerPublish, boolean publishingEnabled,
            short priority) {
        this(id, manager, null, java.util.Objects.requireNonNull(identity, "identity"), publishingIntervalMillis,
                lifetimeCount, maxKeepAliveCount, maxNotificationsPerPublish, publishingEnabled, priority);
    }

    private Subscription(long id, SubscriptionManager manager, SessionSubscriptions owner, Identity identity,
            double publishingIntervalMillis, long lifetimeCount, long maxKeepAliveCount,
            int maxNotificationsPerPublish, boolean publishingEnabled, short priority) {
        this.id = id;
        this.manager = manager;
        this.settings = manager.settings();
        this.statistics = manager.statistics();
        this.scheduler = manager.scheduler();
        this.retransmission = new RetransmissionQueue(settings.maxRetransmissionQueueSize());
        this.owner = owner;
        this.identity = identity;
        this.publishingEnabled = publishingEnabled;
        this.priority = priority;
        revise(publishingIntervalMillis, lifetimeCount, maxKeepAliveCount, maxNotificationsPerPublish);
    }

    /**
     * Puts back a restored durable subscription's state before it starts: its hours, sequence numbering,
     * unacknowledged messages, and the lifetime cycles it has left.
     */
    synchronized void restore(long durableHours, long nextSequence, List<NotificationMessage> unacknowledged,
            long remainingCycles) {
        durableLifetimeHours = durableHours;
        nextSequenceNumber = nextSequence;
        retransmission.restore(unacknowledged);
        lifetimeCycles = Math.max(0, lifetimeCount - Math.max(1, remainingCycles));
        messageSent = true; // it sent before the restart; the transfer resets this for the new session
    }

    void attachItems(ItemContainer container) {
        this.items = container;
    }

    // ---- ItemOwner ----------------------------------------------------------------------------

    @Override
    public long subscriptionId() {
        return id;
    }

    @Override
    public double publishingIntervalMillis() {
        return publishingIntervalMillis;
    }

    @Override
    public void notificationsReady(NotificationProducer item) {
        if (!closed) {
            ready.add(item);
        }
    }

    @Override
    public ItemContainer items() {
        return items;
    }

    @Override
    public int durableQueueSizeLimit() {
        return durableLifetimeHours > 0 ? settings.maxDurableQueueSize() : 0;
    }

    @Override
    public int remainingItemCapacity() {
        long remaining = Integer.MAX_VALUE;
        if (settings.maxMonitoredItemsPerSubscription() > 0) {
            remaining = settings.maxMonitoredItemsPerSubscription() - (long) items.size();
        }
        if (settings.maxMonitoredItems() > 0) {
            remaining = Math.min(remaining, settings.maxMonitoredItems() - statistics.monitoredItems());
        }
        return (int) Math.max(0, remaining);
    }

    // ---- read-only views ----------------------------------------------------------------------

    public synchronized State state() {
        return state;
    }

    public synchronized long lifetimeCount() {
        return lifetimeCount;
    }

    public synchronized long maxKeepAliveCount() {
        return maxKeepAliveCount;
    }

    public synchronized int maxNotificationsPerPublish() {
        return maxNotificationsPerPublish;
    }

    public synchronized boolean publishingEnabled() {
        return publishingEnabled;
    }

    /** The relative priority the client gave (Part 4, 5.13.2); read without the monitor by the session's queue. */
    public short priority() {
        return priority;
    }

    /** Whether the last TransferSubscriptions asked for initial values (the monitored items may resend them). */
    public boolean initialValuesRequested() {
        return initialValuesRequested;
    }

    /** Whether SetSubscriptionDurable made this subscription durable (Part 4, 6.8). */
    public boolean durable() {
        return durableLifetimeHours > 0;
    }

    /** The revised lifetime in hours of a durable subscription, 0 for any other. */
    public long durableLifetimeHours() {
        return durableLifetimeHours;
    }

    /** Unacknowledged NotificationMessages kept for Republish. */
    public int retransmissionQueueSize() {
        return retransmission.size();
    }

    // ---- life cycle ---------------------------------------------------------------------------

    /** Starts the publishing timer: the first cycle at most one interval from now (see PublishingScheduler). */
    synchronized void start() {
        if (state == State.CLOSED) {
            return;
        }
        nextDeadline = scheduler.firstDeadline(scheduler.nanoTime(), intervalNanos);
        arm();
    }

    /**
     * ModifySubscription (Part 4, 5.13.3): applies revised parameters and restarts the timer on a new
     * interval. The next cycle sends a message (a keep-alive when nothing is to report), so that the
     * client hears from the subscription in its new rhythm at once rather than after a keep-alive period
     * that straddles old and new parameters (a client's watchdog may use either).
     */
    synchronized void modify(double publishingIntervalMillis, long lifetimeCount, long maxKeepAliveCount,
            int maxNotificationsPerPublish, short priority) {
        long previous = intervalNanos;
        revise(publishingIntervalMillis, lifetimeCount, maxKeepAliveCount, maxNotificationsPerPublish);
        this.priority = priority;
        lifetimeCycles = 0;
        messageSent = false;
        if (intervalNanos != previous && state != State.CLOSED) {
            nextDeadline = scheduler.firstDeadline(scheduler.nanoTime(), intervalNanos);
            arm();
        }
    }

    private void revise(double publishingIntervalMillis, long lifetimeCount, long maxKeepAliveCount,
            int maxNotificationsPerPublish) {
        this.publishingIntervalMillis = publishingIntervalMillis;
        this.intervalNanos = Math.max(1, Math.round(publishingIntervalMillis * 1e6));
        this.lifetimeCount = lifetimeCount;
        this.maxKeepAliveCount = maxKeepAliveCount;
        this.maxNotificationsPerPublish = maxNotificationsPerPublish;
    }

    /**
     * SetSubscriptionDurable (Part 5, 9.3; Part 4, 6.8) with the revised hours: the lifetimeCount becomes
     * the publishing cycles of that many hours, and items created from now on may have the durable queue sizes.
     *
     * @return 0, or BadInvalidState when the subscription has monitored items already, or
     *         BadSubscriptionIdInvalid when it closed
     */
    synchronized int makeDurable(long revisedHours) {
        if (state == State.CLOSED) {
            return StatusCodes.BadSubscriptionIdInvalid;
        }
        if (items.size() > 0) {
            return StatusCodes.BadInvalidState;
        }
        durableLifetimeHours = revisedHours;
        lifetimeCount = SubscriptionSettings.durableLifetimeCount(revisedHours, publishingIntervalMillis,
                maxKeepAliveCount);
        lifetimeCycles = 0;
        return 0;
    }

    /** SetPublishingMode (Part 4, 5.13.4): disabled, only keep-alives are sent; items keep queueing. */
    synchronized void setPublishingEnabled(boolean enabled) {
        publishingEnabled = enabled;
        lifetimeCycles = 0;
    }

    /** A service named this subscription (Part 4, 5.13.1.1): the lifetime counter starts again at the next cycle. */
    void touch() {
        touched = true;
    }

    /** Acknowledges a sent NotificationMessage (Part 4, 5.13.5). */
    StatusCode acknowledge(long sequenceNumber) {
        touched = true;
        if (!retransmission.supported()) {
            return NO_RETRANSMISSION_QUEUE;
        }
        return retransmission.acknowledge(sequenceNumber) ? GOOD : SEQUENCE_NUMBER_UNKNOWN;
    }

    /** The kept NotificationMessage with this sequence number for Republish (Part 4, 5.13.6), or null. */
    NotificationMessage republish(long sequenceNumber) {
        touched = true;
        return retransmission.get(sequenceNumber);
    }

    long[] availableSequenceNumbers() {
        return retransmission.sequenceNumbers();
    }

    /**
     * Closes the subscription if {@code expectedOwner} still holds it (null: any owner): stops the timer,
     * forgets queued items and retransmissions. The caller deletes the items and detaches it.
     *
     * @return false when it was closed already or belongs to another session now
     */
    synchronized boolean close(SessionSubscriptions expectedOwner) {
        if (state == State.CLOSED || (expectedOwner != null && owner != expectedOwner)) {
            return false;
        }
        closeInternal();
        return true;
    }

    private void closeInternal() {
        state = State.CLOSED;
        closed = true;
        timerGeneration++;
        if (timer != null) {
            timer.cancel();
            timer = null;
        }
        ready.clear();
        carried = null;
        fill.clear();
        retransmission.clear();
    }

    /** The session closed without deleting its subscriptions: this one waits for a transfer until its lifetime ends. */
    synchronized void orphan(SessionSubscriptions from) {
        if (owner == from) {
            identity = from.session().identity();
            owner = null;
            if (state == State.LATE) {
                state = State.NORMAL;
            }
        }
    }

    /**
     * TransferSubscriptions (Part 4, 5.13.7) to {@code target}, under this monitor: the checks of the
     * operation and the move.
     *
     * @return 0 when moved, else the operation's status
     */
    synchronized int transferTo(SessionSubscriptions target, int maxPerSession, boolean sendInitialValues) {
        if (state == State.CLOSED) {
            return StatusCodes.BadSubscriptionIdInvalid;
        }
        SessionSubscriptions previous = owner;
        if (previous == target) {
            return StatusCodes.BadNothingToDo;
        }
        Identity current = previous != null ? previous.session().identity() : identity;
        if (!Objects.equals(current, target.session().identity())) {
            return StatusCodes.BadUserAccessDenied;
        }
        int refused = target.add(this, maxPerSession);
        if (refused != 0) {
            return refused;
        }
        if (previous != null) {
            manager.detach(this, previous, new SessionSubscriptions.StatusMessage(id,
                    PublishResponses.statusChange(nextSequenceNumber, StatusCodes.GoodSubscriptionTransferred)));
        }
        owner = target;
        identity = target.session().identity();
        initialValuesRequested = sendInitialValues;
        if (sendInitialValues) {
            items().resendLastValues();
        }
        if (state == State.LATE) {
            state = State.NORMAL;
        }
        messageSent = false; // the new session hears from the subscription at its next cycle
        lifetimeCycles = 0;
        return 0;
    }

    // ---- publishing ---------------------------------------------------------------------------

    /** Arms the timer for {@link #nextDeadline}; a timer armed before is ignored when it fires. */
    private void arm() {
        if (timer != null) {
            timer.cancel();
        }
        int generation = ++timerGeneration;
        timer = scheduler.schedule(() -> onTimer(generation), nextDeadline - scheduler.nanoTime());
    }

    private void onTimer(int generation) {
        synchronized (this) {
            if (state == State.CLOSED || generation != timerGeneration) {
                return;
            }
            long now = scheduler.nanoTime();
            nextDeadline += intervalNanos;
            if (nextDeadline - now <= 0) { // stalled for more than an interval: restart, no burst of cycles
                nextDeadline = scheduler.firstDeadline(now, intervalNanos);
            }
            timer = null; // this one has fired
            arm();
            publishingCycle();
        }
    }

    /** One expiry of the publishing timer (Part 4, 5.13.1.2), under the monitor. */
    private void publishingCycle() {
        if (touched) {
            touched = false;
            lifetimeCycles = 0;
        }
        boolean available = notificationsAvailable();
        boolean due = state == State.LATE || available || !messageSent || idleCycles + 1 >= maxKeepAliveCount;
        if (due) {
            if (publish(available)) {
                return;
            }
            if (owner != null) { // a subscription without a session waits for a transfer, not for a Publish
                statistics.latePublish();
            }
            state = State.LATE;
            countLifetime();
        } else {
            idleCycles++;
            state = State.KEEPALIVE;
            SessionSubscriptions session = owner;
            if (session == null || session.parkedCount() == 0) {
                countLifetime();
            }
        }
    }

    /** A Publish arrived while this subscription was late (Part 4, 5.13.1.2): answer it now. */
    void serveLate() {
        synchronized (this) {
            if (state != State.LATE) {
                return; // a cycle served it already, or it closed
            }
            publish(notificationsAvailable());
        }
    }

    private void countLifetime() {
        if (++lifetimeCycles >= lifetimeCount) {
            expire();
        }
    }

    /** The lifetime ended (Part 4, 5.13.1.1): delete the subscription and its items, tell the session. */
    private void expire() {
        SessionSubscriptions session = owner;
        long sequenceNumber = nextSequenceNumber;
        closeInternal();
        statistics.subscriptionExpired();
        manager.expired(this, session, session == null ? null : new SessionSubscriptions.StatusMessage(id,
                PublishResponses.statusChange(sequenceNumber, StatusCodes.BadTimeout)));
    }

    /**
     * Sends a message with the session's oldest parked Publish request: notifications when
     * {@code available}, else a keep-alive; with moreNotifications, further messages as long as requests
     * are parked.
     *
     * @return false when no request was parked (the subscription is late now)
     */
    private boolean publish(boolean available) {
        ParkedPublish request = takeRequest();
        if (request == null) {
            return false;
        }
        lifetimeCycles = 0;
        idleCycles = 0;
        messageSent = true;
        while (true) {
            NotificationMessage message = available ? drain(notificationBytes(request)) : null;
            if (message == null) {
                PublishResponses.send(request, id, retransmission.sequenceNumbers(), false,
                        new NotificationMessage(nextSequenceNumber, DateTime.currentMillisecond(), NO_NOTIFICATIONS));
                statistics.keepAliveSent();
                state = State.KEEPALIVE;
                return true;
            }
            boolean more = notificationsAvailable();
            retransmission.add(message);
            PublishResponses.send(request, id, retransmission.sequenceNumbers(), more, message);
            state = State.NORMAL;
            if (!more) {
                return true;
            }
            request = takeRequest(); // moreNotifications: use every parked request now (Part 4, 5.13.1.2)
            if (request == null) {
                state = State.LATE; // the next Publish of the session comes here at once
                return true;
            }
        }
    }

    /** The oldest parked request of the session, or null (the session's queue registered this subscription as late). */
    private ParkedPublish takeRequest() {
        SessionSubscriptions session = owner;
        if (session == null) {
            return null;
        }
        while (true) {
            ParkedPublish request = session.pollFor(this);
            if (request == null) {
                return null;
            }
            if (request.channel().secureChannelId() == session.session().secureChannelId()) {
                return request;
            }
            // The session was activated on another channel since: its client waits on the new one.
            PublishResponses.fault(request, StatusCodes.BadSecureChannelIdInvalid);
        }
    }

    /** Whether an item with notifications waits (publishing enabled); drops items that stopped reporting. */
    private boolean notificationsAvailable() {
        if (!publishingEnabled) {
            return false;
        }
        if (fill.hasOverflow()) {
            return true;
        }
        if (carried != null) {
            if (carried.hasNotifications()) {
                return true;
            }
            carried = null;
        }
        NotificationProducer head;
        while ((head = ready.peek()) != null) {
            if (head.hasNotifications()) {
                return true;
            }
            ready.poll(); // this thread is the only consumer: it removes {@code head}
        }
        return false;
    }

    /**
     * The bytes of notifications a response to {@code request} may carry: the client's limit for a response
     * body (the channel's MaxMessageSize and MaxChunkCount, the session's maxResponseMessageSize, Part 4,
     * 5.6.2), less the rest of the PublishResponse; 0 when the client set no limit.
     */
    private long notificationBytes(ParkedPublish request) {
        long limit = request.channel().maxResponseBodySize();
        SessionSubscriptions session = owner;
        long sessionLimit = session == null ? 0 : session.session().maxResponseMessageSize();
        if (sessionLimit > 0 && (limit <= 0 || sessionLimit < limit)) {
            limit = sessionLimit;
        }
        if (limit <= 0) {
            return 0;
        }
        int results = request.results() == null ? 0 : request.results().length;
        long envelope = RESPONSE_ENVELOPE + 4L * (retransmission.capacity() + 1) + 4L * results;
        return Math.max(1, limit - envelope);
    }

    /**
     * Drains up to maxNotificationsPerPublish notifications, and at most {@code maxBytes} of them (0: no
     * limit, see {@link MessageFill}), into a new NotificationMessage; null when none.
     */
    private NotificationMessage drain(long maxBytes) {
        recycleBuffers(); // empty even if an item's drain failed half-way through the last message
        List<MonitoredItemNotification> dataChanges = dataChangeBuffer;
        List<EventFieldList> events = eventBuffer;
        fill.start(maxBytes);
        int budget = maxNotificationsPerPublish - fill.takeOverflow(dataChanges, events, maxNotificationsPerPublish);
        while (budget > 0 && !fill.full()) {
            NotificationProducer item = carried != null ? carried : ready.poll();
            carried = null;
            if (item == null) {
                break;
            }
            int dataFrom = dataChanges.size();
            int eventsFrom = events.size();
            int drained = item.drain(dataChanges, events, budget);
            fill.fit(dataChanges, dataFrom, events, eventsFrom);
            budget -= drained;
            if ((budget == 0 || fill.full()) && drained > 0 && item.hasNotifications()) {
                carried = item; // the message is full: this item goes first in the next one
            }
        }
        int count = dataChanges.size() + events.size();
        if (count == 0) {
            return null;
        }
        ExtensionObject[] data = new ExtensionObject[(dataChanges.isEmpty() ? 0 : 1) + (events.isEmpty() ? 0 : 1)];
        int i = 0;
        if (!dataChanges.isEmpty()) {
            data[i++] = ExtensionObject.of(new DataChangeNotification(
                    dataChanges.toArray(new MonitoredItemNotification[dataChanges.size()]), null));
        }
        if (!events.isEmpty()) {
            data[i] = ExtensionObject.of(new EventNotificationList(events.toArray(new EventFieldList[events.size()])));
        }
        recycleBuffers();
        statistics.notificationMessageSent(count);
        return new NotificationMessage(consumeSequenceNumber(), DateTime.currentMillisecond(), data);
    }

    /** Empties the drain lists for the next message; a list a burst made large is dropped rather than kept. */
    private void recycleBuffers() {
        if (dataChangeBuffer.size() > BUFFER_KEEP_LIMIT) {
            dataChangeBuffer = new ArrayList<>();
        } else {
            dataChangeBuffer.clear();
        }
        if (eventBuffer.size() > BUFFER_KEEP_LIMIT) {
            eventBuffer = new ArrayList<>();
        } else {
            eventBuffer.clear();
        }
    }

    /** The next sequence number (Part 4, 7.21: 1 after 4294967295, 0 is never used). */
    private long consumeSequenceNumber() {
        long number = nextSequenceNumber;
        nextSequenceNumber = number == 0xFFFF_FFFFL ? 1 : number + 1;
        return number;
    }

    /**
     * The durable subscription as its store keeps it (Part 4, 6.8), under this monitor so that its sequence
     * number, retransmission queue and item queues agree: a message is drained from the items and enters the
     * retransmission queue under this monitor. Changes nothing.
     *
     * @param nowMillis wall-clock time, from which the end of its lifetime is computed
     */
    synchronized dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionRecord snapshot(long nowMillis) {
        long remainingCycles = Math.max(0, lifetimeCount - lifetimeCycles);
        long expiresAt = nowMillis + (long) Math.min(Long.MAX_VALUE / 2, remainingCycles * publishingIntervalMillis);
        Identity current = owner != null ? owner.session().identity() : identity;
        return new dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionRecord(id, current,
                publishingIntervalMillis, lifetimeCount, maxKeepAliveCount, maxNotificationsPerPublish, priority,
                publishingEnabled, durableLifetimeHours, expiresAt, nextSequenceNumber, retransmission.snapshot(),
                items.snapshot());
    }

    /** For tests: continue numbering from {@code value}. */
    synchronized void nextSequenceNumber(long value) {
        nextSequenceNumber = value;
    }

    @Override
    public String toString() {
        return "Subscription[" + id + ", " + publishingIntervalMillis + " ms]";
    }
}
