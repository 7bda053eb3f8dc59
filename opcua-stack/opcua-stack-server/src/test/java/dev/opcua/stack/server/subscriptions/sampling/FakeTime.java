package dev.opcua.stack.server.subscriptions.sampling;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongBinaryOperator;
import java.util.function.LongSupplier;

/**
 * Simulated time for a scheduler's real thread: a sleep moves the clock at once, but never past
 * the limit the test sets with {@link #runUntil}; there the thread blocks until the test moves the
 * limit on, so the test and the scheduler thread take turns and every run is the same.
 */
final class FakeTime implements LongSupplier, Sleeper {

    static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private long now;
    private long limit;
    private boolean wakePending;
    private boolean stopped;
    private boolean blocked;
    private boolean blockedInSleep;
    private long generation;
    private long blockedGeneration = -1;
    /** (now, requested nanos) -> the time the sleep ends: the timer's overshoot. */
    private LongBinaryOperator wakeTime = (now, nanos) -> now + nanos;

    FakeTime(long startNanos) {
        this.now = startNanos;
        this.limit = startNanos;
    }

    /** Timer overshoot: every sleep ends {@code extraNanos} late (Linux-like). */
    void overshootBy(long extraNanos) {
        wakeTime((now, nanos) -> now + nanos + extraNanos);
    }

    void wakeTime(LongBinaryOperator wakeTime) {
        lock.lock();
        try {
            this.wakeTime = wakeTime;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public long getAsLong() {
        lock.lock();
        try {
            return now;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Time the scheduler thread spends itself: sampling, or a garbage-collection pause. Called on
     * that thread; like a sleep it stops at the limit until the test moves the limit on.
     */
    void elapse(long nanos) {
        lock.lock();
        try {
            long target = now + nanos;
            while (target - limit > 0 && !stopped) {
                blockAtLimit(false);
            }
            now = later(now, target);
        } finally {
            lock.unlock();
        }
    }

    private void blockAtLimit(boolean inSleep) {
        now = later(now, limit);
        blocked = true;
        blockedInSleep = inSleep;
        blockedGeneration = generation;
        changed.signalAll();
        changed.awaitUninterruptibly();
        blocked = false;
    }

    @Override
    public void sleep(long nanos) {
        lock.lock();
        try {
            boolean forever = nanos == Long.MAX_VALUE;
            long target = forever ? 0 : wakeTime.applyAsLong(now, nanos);
            while (!wakePending && !stopped) {
                if (!forever && target - limit <= 0) {
                    now = later(now, target);
                    return;
                }
                blockAtLimit(true);
            }
            wakePending = false;
        } finally {
            lock.unlock();
        }
    }

    /** The later of two nanoTime values, right across a wrap of the clock. */
    private static long later(long a, long b) {
        return b - a > 0 ? b : a;
    }

    @Override
    public void wake(Thread sleeper) {
        lock.lock();
        try {
            wakePending = true;
            if (blockedInSleep) {
                blocked = false; // about to run: not at rest any more
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Lets simulated time run until {@code untilNanos} and waits until the scheduler thread idles there. */
    void runUntil(long untilNanos) {
        lock.lock();
        try {
            limit = untilNanos;
            generation++;
            changed.signalAll();
            long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (!(blocked && blockedGeneration == generation)) {
                long left = giveUp - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("the scheduler thread did not come to rest at simulated time "
                            + untilNanos + " (now " + now + ")");
                }
                changed.awaitNanos(left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while running simulated time", e);
        } finally {
            lock.unlock();
        }
    }

    /** Lets the scheduler thread run free, so that it can see a close: call before closing the scheduler. */
    void stop() {
        lock.lock();
        try {
            stopped = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Lets the scheduler thread react (to an add, a cancel) without moving time on. */
    void settle() {
        long until;
        lock.lock();
        try {
            until = limit;
        } finally {
            lock.unlock();
        }
        runUntil(until);
    }
}
