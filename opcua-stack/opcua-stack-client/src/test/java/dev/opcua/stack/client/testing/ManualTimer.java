package dev.opcua.stack.client.testing;

import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A timer and clock the test advances: timeouts run on the test thread, in deadline order; its clock
 * ({@link #nanoTime()}) stands in for System.nanoTime where the code under test takes one.
 */
public final class ManualTimer implements Timer {

    private final List<ManualTimeout> scheduled = new ArrayList<>();
    private long nowNanos = 1_000_000_000L;

    /** The test's clock, in nanoseconds. */
    public long nanoTime() {
        return nowNanos;
    }

    @Override
    public Timeout newTimeout(TimerTask task, long delay, TimeUnit unit) {
        ManualTimeout t = new ManualTimeout(task, nowNanos + unit.toNanos(delay));
        scheduled.add(t);
        return t;
    }

    /** Moves the clock forward and runs every timeout that falls due, including ones scheduled meanwhile. */
    public void advance(long millis) {
        long target = nowNanos + TimeUnit.MILLISECONDS.toNanos(millis);
        while (true) {
            ManualTimeout next = scheduled.stream().filter(t -> t.deadline <= target)
                    .min(Comparator.comparingLong(t -> t.deadline)).orElse(null);
            if (next == null) {
                break;
            }
            scheduled.remove(next);
            nowNanos = Math.max(nowNanos, next.deadline);
            if (!next.cancelled) {
                next.expired = true;
                try {
                    next.task.run(next);
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            }
        }
        nowNanos = target;
    }

    /** Delays from now, in milliseconds, of the timeouts neither run nor cancelled. */
    public List<Long> pendingDelays() {
        return scheduled.stream().filter(t -> !t.cancelled)
                .map(t -> TimeUnit.NANOSECONDS.toMillis(t.deadline - nowNanos)).sorted().toList();
    }

    /** How many timeouts are neither run nor cancelled. */
    public int pending() {
        return pendingDelays().size();
    }

    @Override
    public Set<Timeout> stop() {
        Set<Timeout> left = new HashSet<>(scheduled);
        scheduled.clear();
        return left;
    }

    private final class ManualTimeout implements Timeout {
        final TimerTask task;
        final long deadline;
        boolean cancelled;
        boolean expired;

        ManualTimeout(TimerTask task, long deadline) {
            this.task = task;
            this.deadline = deadline;
        }

        @Override
        public Timer timer() {
            return ManualTimer.this;
        }

        @Override
        public TimerTask task() {
            return task;
        }

        @Override
        public boolean isExpired() {
            return expired;
        }

        @Override
        public boolean isCancelled() {
            return cancelled;
        }

        @Override
        public boolean cancel() {
            if (expired || cancelled) {
                return false;
            }
            cancelled = true;
            return true;
        }
    }
}
