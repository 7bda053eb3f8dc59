package dev.opcua.stack.server.subscriptions;

/**
 * The clock and the thread(s) of the publishing cycles (Part 4, 5.13.1.2 publishing timer): one-shot
 * timers at deadlines the subscriptions compute themselves, and immediate tasks (serving a late
 * subscription). Tests replace it with a virtual clock that runs everything on the test thread.
 */
interface PublishingScheduler extends AutoCloseable {

    /** Monotonic time in nanoseconds. */
    long nanoTime();

    /**
     * The first deadline of a timer of period {@code intervalNanos} started at {@code nowNanos}: after now,
     * at most one interval away. This default is exactly one interval away.
     */
    default long firstDeadline(long nowNanos, long intervalNanos) {
        return nowNanos + intervalNanos;
    }

    /** Runs {@code task} once after {@code delayNanos} (at once when not positive). */
    Timer schedule(Runnable task, long delayNanos);

    /** Runs {@code task} as soon as possible on the publishing thread. */
    void execute(Runnable task);

    /** Stops the thread(s); pending timers never run. Idempotent. */
    @Override
    void close();

    /** A pending timer. */
    interface Timer {

        /** Stops the timer if it has not run yet; idempotent. */
        void cancel();
    }
}
