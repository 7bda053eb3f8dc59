package dev.opcua.stack.client.transport;

import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client's timer: one thread that sleeps until the earliest deadline, instead of a wheel that wakes every
 * tick whether anything is due or not. The client's timeouts are few (one request deadline per channel, see
 * {@code RequestDeadlines}, keep-alives, subscription watchdogs, reconnect and retry delays), so a heap under
 * a lock is cheap, while every needless wake-up costs a context switch on each side: a 50 ms wheel woke the
 * thread 20 times a second, 4 ms of CPU a second on the development VM, about a tenth of what the client
 * spent to receive 10,000 notifications a second.
 *
 * <p>Deadlines are rounded up to a grid of {@code resolutionNanos} so that timeouts close to each other share
 * one wake-up: a timeout fires at most one resolution late, never early. Tasks run on the timer thread one
 * after the other (they hand real work to executors); one that throws is logged and the others still run.
 */
final class DeadlineTimer implements Timer {

    private static final Logger log = LoggerFactory.getLogger(DeadlineTimer.class);

    private final long resolutionNanos;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final PriorityQueue<Entry> queue = new PriorityQueue<>();
    private final Thread thread;
    private long sequence;
    private boolean stopped;

    /**
     * @param threadFactory makes the (one) timer thread, started at once
     * @param resolutionNanos the grid deadlines are rounded up to, at least 1
     */
    DeadlineTimer(ThreadFactory threadFactory, long resolutionNanos) {
        if (resolutionNanos < 1) {
            throw new IllegalArgumentException("resolutionNanos must be >= 1: " + resolutionNanos);
        }
        this.resolutionNanos = resolutionNanos;
        this.thread = threadFactory.newThread(this::run);
        thread.start();
    }

    @Override
    public Timeout newTimeout(TimerTask task, long delay, TimeUnit unit) {
        Objects.requireNonNull(task, "task");
        Objects.requireNonNull(unit, "unit");
        long now = System.nanoTime();
        long delayNanos = Math.max(0, unit.toNanos(delay));
        // on the grid, rounded up: never early, and neighbours share a wake-up
        long deadline = now + delayNanos;
        long rest = Math.floorMod(deadline, resolutionNanos);
        if (rest != 0) {
            deadline += resolutionNanos - rest;
        }
        lock.lock();
        try {
            if (stopped) {
                throw new IllegalStateException("the client's timer is stopped");
            }
            Entry entry = new Entry(task, deadline, sequence++);
            queue.add(entry);
            if (queue.peek() == entry) {
                changed.signal(); // earlier than what the thread sleeps for
            }
            return entry;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Set<Timeout> stop() {
        List<Timeout> pending;
        lock.lock();
        try {
            if (stopped) {
                return Set.of();
            }
            stopped = true;
            pending = new ArrayList<>(queue);
            queue.clear();
            changed.signal();
        } finally {
            lock.unlock();
        }
        if (Thread.currentThread() != thread) {
            try {
                thread.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return Set.copyOf(pending);
    }

    private void run() {
        while (true) {
            Entry due;
            lock.lock();
            try {
                while (true) {
                    if (stopped) {
                        return;
                    }
                    Entry head = queue.peek();
                    if (head == null) {
                        changed.awaitUninterruptibly();
                        continue;
                    }
                    long wait = head.deadline - System.nanoTime();
                    if (wait <= 0) {
                        due = queue.poll();
                        due.state = Entry.EXPIRED;
                        break;
                    }
                    try {
                        changed.awaitNanos(wait);
                    } catch (InterruptedException e) {
                        // only stop() ends the thread
                    }
                }
            } finally {
                lock.unlock();
            }
            try {
                due.task.run(due);
            } catch (Exception | LinkageError | AssertionError e) {
                log.warn("a client timer task failed", e);
            }
        }
    }

    private final class Entry implements Timeout, Comparable<Entry> {

        static final int PENDING = 0;
        static final int EXPIRED = 1;
        static final int CANCELLED = 2;

        final TimerTask task;
        final long deadline;
        final long order;
        int state; // guarded by lock

        Entry(TimerTask task, long deadline, long order) {
            this.task = task;
            this.deadline = deadline;
            this.order = order;
        }

        @Override
        public Timer timer() {
            return DeadlineTimer.this;
        }

        @Override
        public TimerTask task() {
            return task;
        }

        @Override
        public boolean isExpired() {
            return stateIs(EXPIRED);
        }

        @Override
        public boolean isCancelled() {
            return stateIs(CANCELLED);
        }

        private boolean stateIs(int expected) {
            lock.lock();
            try {
                return state == expected;
            } finally {
                lock.unlock();
            }
        }

        /** Removes the entry (the queue is small: linear removal costs less than a wake-up to purge it). */
        @Override
        public boolean cancel() {
            lock.lock();
            try {
                if (state != PENDING) {
                    return false;
                }
                state = CANCELLED;
                queue.remove(this);
                return true;
            } finally {
                lock.unlock();
            }
        }

        @Override
        public int compareTo(Entry other) {
            int c = Long.compare(deadline - other.deadline, 0); // nanoTime order, overflow-safe
            return c != 0 ? c : Long.compare(order, other.order);
        }
    }
}
