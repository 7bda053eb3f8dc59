package dev.opcua.stack.server.subscriptions.sampling;

/**
 * The deadlines of one sampling group: tick k is due at {@code start + k * interval}. A late
 * wake-up therefore shortens the next wait instead of shifting every later tick, which is how a
 * loop that waits one interval after each sample loses 10 to 40 % of its samples to timer
 * overshoot. Owned by the scheduler thread; deadlines are {@link System#nanoTime()} values,
 * compared by subtraction.
 */
final class SamplingTimeline {

    private final long intervalNanos;
    private final long maxLagNanos;
    private long nextDeadline;

    /** The first tick is due at {@code startNanos}. */
    SamplingTimeline(long intervalNanos, long startNanos) {
        this.intervalNanos = intervalNanos;
        this.maxLagNanos = SamplingScheduler.MAX_LAG_INTERVALS * intervalNanos;
        this.nextDeadline = startNanos;
    }

    long nextDeadline() {
        return nextDeadline;
    }

    /** Whether the due tick, run at {@code nowNanos}, is so late that the timeline restarts there. */
    boolean lagsTooFar(long nowNanos) {
        return nowNanos - nextDeadline > maxLagNanos;
    }

    /**
     * Takes the due tick, run at {@code nowNanos}, and returns its deadline: the next point of the
     * grid (a tick less late than the limit is made up, so a short stall loses no sample), or
     * {@code nowNanos} where the timeline restarts (a long stall is not paid back with a burst).
     */
    long takeTick(long nowNanos) {
        long deadline = lagsTooFar(nowNanos) ? nowNanos : nextDeadline;
        nextDeadline = deadline + intervalNanos;
        return deadline;
    }
}
