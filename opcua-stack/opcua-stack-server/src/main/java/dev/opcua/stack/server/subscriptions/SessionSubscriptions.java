package dev.opcua.stack.server.subscriptions;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.structured.NotificationMessage;
import dev.opcua.stack.server.session.Session;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What one session holds of the subscription layer (Part 4, 5.13.1.2 and 5.13.5): its subscriptions,
 * the queue of its parked Publish requests shared by them, the subscriptions that are late (waiting
 * for a Publish), and StatusChangeNotifications waiting for a Publish to carry them.
 *
 * <p>Its monitor guards the queues and the membership; it is held for a few queue operations at a time
 * (bounded by the subscriptions of the session), never while a response is encoded or a subscription's
 * monitor is taken, so the event loop that parks a Publish never waits for a publishing cycle. Lock
 * order: a subscription's monitor, then this one, never the reverse. Lookups by id take no lock.
 */
final class SessionSubscriptions {

    /** A StatusChangeNotification for a subscription that left the session (Part 4, 7.20.4). */
    record StatusMessage(long subscriptionId, NotificationMessage message) {
    }

    /**
     * What to do with an arriving Publish request; all fields may be absent.
     *
     * @param fault a status to refuse it with (BadNoSubscription, BadSessionClosed), 0 when parked
     * @param evicted the oldest parked request, pushed out (BadTooManyPublishRequests)
     * @param status a StatusChangeNotification to answer it with at once
     * @param late a late subscription to serve now
     */
    record Admission(int fault, ParkedPublish evicted, StatusMessage status, Subscription late) {
    }

    /**
     * What a subscription's removal leaves to answer.
     *
     * @param statusCarrier a parked request to answer with the status message at once, or null
     * @param noSubscription parked requests to refuse with BadNoSubscription: the session has no subscription left
     */
    record Removal(ParkedPublish statusCarrier, List<ParkedPublish> noSubscription) {
    }

    /** The parked requests and the subscriptions of a closed session. */
    record Closing(List<ParkedPublish> parked, List<Subscription> subscriptions) {
    }

    private static final Admission ADMITTED = new Admission(0, null, null, null);
    private static final Admission NO_SUBSCRIPTION = new Admission(StatusCodes.BadNoSubscription, null, null, null);
    private static final Admission SESSION_CLOSED = new Admission(StatusCodes.BadSessionClosed, null, null, null);

    private final Session session;
    private final SubscriptionStatistics statistics;
    private final Map<Long, Subscription> subscriptions = new ConcurrentHashMap<>();
    private final ArrayDeque<ParkedPublish> parked = new ArrayDeque<>();
    private final ArrayDeque<Subscription> late = new ArrayDeque<>();
    private final ArrayDeque<StatusMessage> statusMessages = new ArrayDeque<>();
    private volatile int parkedCount;
    private boolean closed;

    SessionSubscriptions(Session session, SubscriptionStatistics statistics) {
        this.session = session;
        this.statistics = statistics;
    }

    Session session() {
        return session;
    }

    /** The session's subscriptions now; takes no lock. */
    java.util.Collection<Subscription> all() {
        return subscriptions.values();
    }

    /** The session's subscription with this id, or null; takes no lock. */
    Subscription get(long subscriptionId) {
        return subscriptions.get(subscriptionId);
    }

    /** Publish requests parked now; read without the lock. */
    int parkedCount() {
        return parkedCount;
    }

    /**
     * Adds a subscription unless the session has {@code max} already or is closed.
     *
     * @return 0, or the status to refuse with: BadTooManySubscriptions, BadSessionClosed
     */
    synchronized int add(Subscription subscription, int max) {
        if (closed) {
            return StatusCodes.BadSessionClosed;
        }
        if (subscriptions.size() >= max) {
            return StatusCodes.BadTooManySubscriptions;
        }
        subscriptions.put(subscription.subscriptionId(), subscription);
        return 0;
    }

    /**
     * Removes a subscription (deleted, expired or transferred away). A status message goes to the oldest
     * parked request, or waits for the next Publish; when no subscription is left, the other parked
     * requests are refused (Part 4, 5.13.5: BadNoSubscription).
     */
    synchronized Removal remove(Subscription subscription, StatusMessage status) {
        subscriptions.remove(subscription.subscriptionId(), subscription);
        late.remove(subscription);
        ParkedPublish carrier = null;
        if (status != null && !closed) {
            carrier = poll();
            if (carrier == null) {
                statusMessages.addLast(status);
            }
        }
        List<ParkedPublish> refused = List.of();
        if (subscriptions.isEmpty() && !parked.isEmpty()) {
            refused = new ArrayList<>(parked);
            parked.clear();
            setParked(0);
        }
        return new Removal(carrier, refused);
    }

    /**
     * Takes an arriving Publish request (Part 4, 5.13.1.2): a waiting StatusChangeNotification answers it
     * at once; else it is parked, pushing out the oldest beyond the limit, and handed to the late
     * subscription of highest priority (the first that became late among equals), if any.
     */
    synchronized Admission admit(ParkedPublish request, int maxParked) {
        if (closed) {
            return SESSION_CLOSED;
        }
        StatusMessage status = statusMessages.pollFirst();
        if (status != null) {
            return new Admission(0, null, status, null);
        }
        if (subscriptions.isEmpty()) {
            return NO_SUBSCRIPTION;
        }
        parked.addLast(request);
        ParkedPublish evicted = null;
        // Part 4, 5.13.5: always accept more queued requests than there are subscriptions.
        if (parked.size() > Math.max(maxParked, subscriptions.size() + 1)) {
            evicted = parked.pollFirst();
        } else {
            statistics.parked(1);
        }
        parkedCount = parked.size();
        Subscription serve = null;
        for (Subscription candidate : late) {
            if (serve == null || candidate.priority() > serve.priority()) {
                serve = candidate;
            }
        }
        if (serve != null) {
            late.remove(serve);
        }
        return evicted == null && serve == null ? ADMITTED : new Admission(0, evicted, null, serve);
    }

    /**
     * The oldest parked request for {@code subscription}, or null: then the subscription is late and waits
     * in the late list for the next Publish (Part 4, 5.13.1.2). Requests whose channel closed are dropped:
     * nobody can receive their answer.
     */
    synchronized ParkedPublish pollFor(Subscription subscription) {
        ParkedPublish request = poll();
        if (request == null && !closed && !late.contains(subscription)) {
            late.addLast(subscription);
        }
        return request;
    }

    /** Parked requests whose timeoutHint has passed, removed (BadTimeout). */
    synchronized List<ParkedPublish> expire(long nowNanos) {
        List<ParkedPublish> expired = null;
        for (Iterator<ParkedPublish> it = parked.iterator(); it.hasNext(); ) {
            ParkedPublish request = it.next();
            if (request.expired(nowNanos)) {
                it.remove();
                if (expired == null) {
                    expired = new ArrayList<>();
                }
                expired.add(request);
            }
        }
        if (expired == null) {
            return List.of();
        }
        statistics.parked(-expired.size());
        parkedCount = parked.size();
        return expired;
    }

    /** The session closed: returns what was parked and the subscriptions, and refuses everything from now on. */
    synchronized Closing close() {
        closed = true;
        List<ParkedPublish> requests = new ArrayList<>(parked);
        parked.clear();
        setParked(0);
        late.clear();
        statusMessages.clear();
        List<Subscription> members = new ArrayList<>(subscriptions.values());
        subscriptions.clear();
        return new Closing(requests, members);
    }

    /** The oldest parked request whose channel is open, under the monitor. */
    private ParkedPublish poll() {
        ParkedPublish request;
        while ((request = parked.pollFirst()) != null) {
            statistics.parked(-1);
            if (request.channel().isOpen()) {
                break;
            }
        }
        parkedCount = parked.size();
        return request;
    }

    private void setParked(int count) {
        statistics.parked(count - parkedCount);
        parkedCount = count;
    }

    @Override
    public String toString() {
        return "SessionSubscriptions[" + session + ", " + subscriptions.size() + " subscriptions, " + parkedCount
                + " parked]";
    }
}
