package dev.opcua.stack.server.subscriptions;

import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;

/**
 * A {@link PublishingScheduler} on a virtual clock: nothing runs until the test advances the time, and
 * then everything runs on the test thread, in deadline order, so publishing cycles are deterministic.
 */
final class ManualScheduler implements PublishingScheduler {

    private final PriorityQueue<Entry> queue = new PriorityQueue<>();
    private long now = TimeUnit.HOURS.toNanos(1);
    private long sequence;
    private boolean closed;

    private static final class Entry implements Comparable<Entry>, Timer {
        final long time;
        final long order;
        final Runnable task;
        boolean cancelled;

        Entry(long time, long order, Runnable task) {
            this.time = time;
            this.order = order;
            this.task = task;
        }

        @Override
        public int compareTo(Entry other) {
            int byTime = Long.compare(time, other.time);
            return byTime != 0 ? byTime : Long.compare(order, other.order);
        }

        @Override
        public void cancel() {
            cancelled = true;
        }
    }

    @Override
    public long nanoTime() {
        return now;
    }

    @Override
    public Timer schedule(Runnable task, long delayNanos) {
        Entry entry = new Entry(now + Math.max(0, delayNanos), sequence++, task);
        if (!closed) {
            queue.add(entry);
        }
        return entry;
    }

    @Override
    public void execute(Runnable task) {
        schedule(task, 0);
    }

    /** Runs what is due now (tasks handed to {@link #execute}, late timers). */
    void runDue() {
        advanceNanos(0);
    }

    void advanceMillis(long millis) {
        advanceNanos(TimeUnit.MILLISECONDS.toNanos(millis));
    }

    /** Moves the clock forward, running every timer that falls due, each at its own time. */
    void advanceNanos(long nanos) {
        long target = now + nanos;
        Entry next;
        while ((next = queue.peek()) != null && next.time <= target) {
            queue.poll();
            if (!next.cancelled) {
                now = Math.max(now, next.time);
                next.task.run();
            }
        }
        now = target;
    }

    /** Timers pending, cancelled ones excluded. */
    int pending() {
        return (int) queue.stream().filter(e -> !e.cancelled).count();
    }

    boolean isClosed() {
        return closed;
    }

    @Override
    public void close() {
        closed = true;
        queue.clear();
    }
}
