package dev.opcua.stack.server.subscriptions.sampling;

/**
 * The deadlines of one sampling group: tick k is due at {@code start + k * interval}, or, aligned, on
 * the interval's grid of the clock a little ahead of the publishing cycles (see the constructors). A late
 * wake-up therefore shortens the next wait instead of shifting every later tick, which is how a
 * loop that waits one interval after each sample loses 10 to 40 % of its samples to timer
 * overshoot. Owned by the scheduler thread; deadlines are {@link System#nanoTime()} values,
 * compared by subtraction.
 */
final class SamplingTimeline {

    private final long intervalNanos;
    private final long maxLagNanos;
    /** How far ahead of the interval's grid ticks are due; negative: no grid, ticks follow the start. */
    private final long leadNanos;
    private long nextDeadline;

    /** The first tick is due at {@code startNanos}, the next ones one interval apart from it. */
    SamplingTimeline(long intervalNanos, long startNanos) {
        this(intervalNanos, startNanos, -1);
    }

    /**
     * The first tick is due at {@code startNanos}; the next ones {@code leadNanos} ahead of the multiples of
     * the interval on the clock, the grid on which publishing cycles of that interval fall (see
     * {@code PublishingScheduler.firstDeadline}), so that a sample reaches the very next cycle instead of
     * waiting up to one more interval. A restart after a stall snaps back onto the grid the same way.
     * A negative lead keeps the ticks one interval from the start instead.
     */
    SamplingTimeline(long intervalNanos, long startNanos, long leadNanos) {
        this.intervalNanos = intervalNanos;
        this.maxLagNanos = SamplingScheduler.MAX_LAG_INTERVALS * intervalNanos;
        this.leadNanos = leadNanos;
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
        nextDeadline = leadNanos < 0 ? deadline + intervalNanos
                // the next grid point after the deadline, less the lead: on the grid already, that is one interval on
                : deadline + intervalNanos - Math.floorMod(deadline + leadNanos, intervalNanos);
        return deadline;
    }
}
