package dev.opcua.stack.client.transport.uasc;

import io.netty.util.Timeout;
import io.netty.util.Timer;
import java.util.concurrent.TimeUnit;
import java.util.function.LongUnaryOperator;

/**
 * The request timeouts of one client channel as a single timer task, set for the earliest deadline
 * of the pending requests instead of one timer entry per request: a request whose deadline is later
 * than the one already set (the usual case, as timeouts are alike) costs no timer entry and no
 * cancellation. When the task fires, {@code expire} fails what is overdue and returns the next
 * deadline, for which the task is set again. Timeouts therefore fire no later than a per-request
 * timer would; a request answered in time leaves the task as it is (it then finds nothing to do).
 * Thread-safe.
 */
final class RequestDeadlines {

    /** No deadline ({@code expire} returns it when nothing is pending). */
    static final long NONE = Long.MAX_VALUE;

    private final Timer timer;
    private final LongUnaryOperator expire;
    private Timeout task;
    private long due;
    private boolean stopped;

    /**
     * @param expire given the deadline the task was set for (System.nanoTime), fails the requests
     *        overdue by then and returns the earliest remaining deadline, or {@link #NONE}
     */
    RequestDeadlines(Timer timer, LongUnaryOperator expire) {
        this.timer = timer;
        this.expire = expire;
    }

    /**
     * Makes sure the task fires by {@code deadline}.
     *
     * @return false when the timer is stopped (the client's resources are closed)
     */
    synchronized boolean arm(long deadline) {
        return arm(deadline, System.nanoTime());
    }

    /** {@link #arm(long)} counting the delay from {@code now}. */
    private synchronized boolean arm(long deadline, long now) {
        if (stopped) {
            return true; // the channel is closing: its requests fail with it
        }
        if (task != null && due <= deadline) {
            return true;
        }
        if (task != null) {
            task.cancel();
        }
        long delayNanos = deadline - now;
        // whole milliseconds, rounded up: never before the deadline
        long delayMillis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(delayNanos + 999_999));
        try {
            task = timer.newTimeout(this::fire, delayMillis, TimeUnit.MILLISECONDS);
        } catch (IllegalStateException e) {
            task = null;
            return false;
        }
        due = deadline;
        return true;
    }

    private void fire(Timeout fired) {
        long firedFor;
        synchronized (this) {
            if (fired != task) {
                return; // replaced by an earlier deadline, or stopped
            }
            task = null;
            firedFor = due;
        }
        long next = expire.applyAsLong(firedFor);
        if (next != NONE) {
            // from the moment this task was due, or later: a timer that fired late must not shift the next one
            arm(next, Math.max(System.nanoTime(), firedFor));
        }
    }

    /** Cancels the task for good: the channel is closed. */
    synchronized void stop() {
        stopped = true;
        if (task != null) {
            task.cancel();
            task = null;
        }
    }
}
