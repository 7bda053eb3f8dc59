package dev.opcua.stack.client.subscriptions;

import io.netty.util.Timeout;
import io.netty.util.Timer;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How many Publish requests the listener queues leave room for: the client controls the flow of
 * NotificationMessages with the Publish requests it keeps at the server, and a server keeps
 * notifications queued while it holds no Publish request (Part 4, 5.13.1.1 and 5.13.5), so a backlog the
 * server releases at once (after a network cut, a session re-activation, a transfer) waits in the
 * server's queues instead of overflowing the client's.
 *
 * <h2>Credit</h2>
 * Each answered Publish may bring one NotificationMessage into any subscription's queue, and the server
 * puts at most the subscription's maxNotificationsPerPublish notifications in one (Part 4, 5.13.2). The
 * client asks for at most maxQueuedNotifications ÷ (maxPublishRequests + 1) of them
 * ({@link #notificationsPerPublish}), less when the application asked less, so that it knows the bound
 * and an empty queue has room for the whole pipeline; a subscription's queue then has room for
 * (maxQueuedNotifications − queued) ÷ bound more responses. The pipeline keeps at most the smallest
 * credit of its subscriptions outstanding: above the high-water mark (less room than one response) it
 * sends no new Publish (those outstanding still complete); a queue that is empty always has room for one,
 * so keep-alives still arrive; the whole pipeline is back once every queue has room for it (the low-water
 * mark, maxQueuedNotifications − target × bound). Dropping stays only as the last resort: a response larger
 * than the room left (a server that sends more than the bound).
 *
 * <h2>Held back</h2>
 * Publishing is held back while the credit is below the pipeline's target and a listener queue is not
 * empty: each such period is counted, and the silence watchdog does not take it for a silent server. One
 * that lasts two keep-alive periods of the slowest subscription is logged at WARN and counted: a
 * listener stalled that long lets the server's lifetime counter run (at least three keep-alive periods,
 * Part 4, 5.13.2), after which the server expires the subscription and the client recreates it.
 *
 * <p>Not thread-safe: the {@link PublishPipeline} calls it under its own lock; {@link #isHeld()} is read
 * without one.
 */
final class PublishHoldBack {

    private static final Logger log = LoggerFactory.getLogger(PublishHoldBack.class);

    /** Keep-alive periods of held-back publishing before it is logged at WARN and counted as long. */
    static final int WARN_AFTER_KEEP_ALIVE_PERIODS = 2;

    private final List<ClientSubscription> record;
    private final SubscriptionCounters counters;
    private final Timer timer;
    private final LongSupplier nanoClock;
    private final SubscriptionSettings settings;
    private final long leastWarnNanos;

    private volatile boolean held;
    private volatile long heldSinceNanos;
    private volatile long period;
    private Timeout warning;

    PublishHoldBack(List<ClientSubscription> record, SubscriptionSettings settings, SubscriptionCounters counters,
            Timer timer, LongSupplier nanoClock) {
        this.record = record;
        this.counters = counters;
        this.timer = timer;
        this.nanoClock = nanoClock;
        this.settings = settings;
        this.leastWarnNanos = settings.requestTimeout().toNanos();
    }

    /**
     * The maxNotificationsPerPublish that a subscription with {@code parameters} asks the server for: what
     * the application asked, at most maxQueuedNotifications ÷ (maxPublishRequests + 1), at least 1 (0, "no
     * limit", asks for that most), so that the responses of a full pipeline fit an empty listener queue.
     */
    static long notificationsPerPublish(SubscriptionParameters parameters, SubscriptionSettings settings) {
        long most = Math.max(1, settings.maxQueuedNotifications() / (settings.maxPublishRequests() + 1));
        long asked = parameters.maxNotificationsPerPublish();
        return asked == 0 || asked > most ? most : asked;
    }

    /** Whether publishing is held back for a listener queue now. */
    boolean isHeld() {
        return held;
    }

    /**
     * The Publish responses the listener queues have room for now (Integer.MAX_VALUE without a
     * subscription); updates the held-back state against the pipeline's {@code target}. Reads each
     * subscription's queue once: called once per Publish response, not per notification.
     */
    int credit(int target) {
        int credit = Integer.MAX_VALUE;
        boolean anyQueued = false;
        for (ClientSubscription s : record) {
            if (s.subscriptionId() == 0) {
                continue;
            }
            NotificationDelivery delivery = s.delivery();
            credit = Math.min(credit, delivery.publishCredit(notificationsPerPublish(s.parameters(), settings)));
            anyQueued |= delivery.queued() > 0;
        }
        boolean holding = credit < target && anyQueued;
        if (holding != held) {
            if (holding) {
                startHolding();
            } else {
                stopHolding();
            }
        }
        return credit;
    }

    /** Forgets a period in progress: publishing paused or closed, the pipeline starts over. */
    void reset() {
        if (held) {
            stopHolding();
        }
    }

    private void startHolding() {
        held = true;
        heldSinceNanos = nanoClock.getAsLong();
        long thisPeriod = ++period;
        counters.countPublishHoldBack();
        if (log.isDebugEnabled()) {
            log.debug("Publish held back: a listener queue is nearly full ({})", queues());
        }
        warning = timer.newTimeout(t -> warnIfStillHeld(thisPeriod), warnNanos(), TimeUnit.NANOSECONDS);
    }

    private void stopHolding() {
        held = false;
        if (warning != null) {
            warning.cancel();
            warning = null;
        }
        long heldMillis = (nanoClock.getAsLong() - heldSinceNanos) / 1_000_000L;
        log.debug("Publish resumed after {} ms held back", heldMillis);
        // the watchdog measures silence from here, not from the last response before the hold
        long now = nanoClock.getAsLong();
        for (ClientSubscription s : record) {
            s.sequencer().lastResponseNanos = now;
        }
    }

    private void warnIfStillHeld(long heldPeriod) {
        // read without the pipeline's lock: at worst a period is logged just as it ends
        if (!held || heldPeriod != period) {
            return;
        }
        counters.countLongPublishHoldBack();
        log.warn("Publish held back for {} ms: the listeners do not keep up ({}); the server expires a subscription "
                + "after its lifetime without Publish requests", (nanoClock.getAsLong() - heldSinceNanos) / 1_000_000L,
                queues());
    }

    /** Two keep-alive periods of the slowest subscription, at least the request timeout. */
    private long warnNanos() {
        double millis = 0;
        for (ClientSubscription s : record) {
            millis = Math.max(millis, s.revisedPublishingInterval() * s.revisedMaxKeepAliveCount());
        }
        return Math.max(leastWarnNanos, (long) (millis * WARN_AFTER_KEEP_ALIVE_PERIODS * 1_000_000L));
    }

    /** The fullest listener queues, for the log: a few, not one per subscription. */
    private String queues() {
        StringBuilder b = new StringBuilder("queued notifications by subscription id:");
        int shown = 0;
        for (ClientSubscription s : record) {
            int queued = s.delivery().queued();
            if (queued > 0 && shown++ < 5) {
                b.append(' ').append(s.subscriptionId()).append('=').append(queued);
            }
        }
        return shown > 5 ? b.append(" and ").append(shown - 5).append(" more").toString() : b.toString();
    }
}
