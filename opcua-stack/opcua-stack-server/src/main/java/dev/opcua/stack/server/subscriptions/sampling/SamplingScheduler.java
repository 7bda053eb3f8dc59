package dev.opcua.stack.server.subscriptions.sampling;

import io.netty.util.concurrent.FastThreadLocalThread;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Samples members (monitored items) at their sampling interval (Part 4, 5.12.1.2: a best-effort
 * cyclic rate) on one named daemon thread shared by all of them. Intervals arrive already revised
 * to what the server supports; this class only keeps them.
 *
 * <ul>
 *   <li>Members are grouped by interval; each group is sampled with one {@link BatchSampler} call
 *       per tick, holding the members due.</li>
 *   <li>Aligned: after its first tick, a group's ticks lie on the grid of its interval on the clock (the
 *       multiples of the interval), a little ahead: publishing cycles of the same interval fall on that grid,
 *       so a sample is reported by the next cycle rather than up to an interval later.</li>
 *   <li>Absolute deadlines: tick k of a group is due at {@code start + k * interval}. A late wake-up
 *       runs the tick at once and shortens the next wait, so timer overshoot and sampling time never
 *       accumulate into drift. A group lagging by up to three intervals makes its missed ticks up;
 *       one lagging further (a long GC, a sampler slower than its interval) restarts its timeline
 *       from the current time instead of bursting.</li>
 *   <li>A new group ticks at once, so a new item gets its initial value without waiting an
 *       interval; a member joining an existing group is sampled from that group's next tick.</li>
 *   <li>{@link #add} and {@link Registration#cancel} are O(1) and thread-safe; they take only the
 *       lock of their group, never one that all groups share. A group that becomes empty is dropped.</li>
 *   <li>The thread waits until the earliest deadline of all groups; adding a group wakes it.</li>
 * </ul>
 *
 * @param <T> the members, e.g. monitored items
 */
public final class SamplingScheduler<T> implements AutoCloseable {

    /** The longest lead of an aligned group's ticks ahead of the publishing grid. */
    static final long MAX_LEAD_MILLIS = 5;

    /** Lag, in intervals, beyond which a group restarts its timeline instead of making up the missed ticks. */
    static final int MAX_LAG_INTERVALS = 3;

    /** The longest interval accepted (about 73 years): deadline arithmetic stays far from overflow. */
    static final long MAX_INTERVAL_NANOS = Long.MAX_VALUE / (MAX_LAG_INTERVALS + 1);

    private static final Logger log = LoggerFactory.getLogger(SamplingScheduler.class);
    private static final long FAILURE_LOG_PERIOD_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final long CLOSE_TIMEOUT_MILLIS = 5_000;

    private final String threadName;
    private final boolean aligned;
    private final BatchSampler<T> sampler;
    private final LongSupplier nanoClock;
    private final Sleeper sleeper;
    private final Thread thread;
    private final AtomicBoolean closed = new AtomicBoolean();

    private final ConcurrentHashMap<Long, SamplingGroup<T>> groups = new ConcurrentHashMap<>();
    /** Groups created by {@link #add}, handed to the scheduler thread. */
    private final ConcurrentLinkedQueue<SamplingGroup<T>> newGroups = new ConcurrentLinkedQueue<>();
    private final LongAdder members = new LongAdder();

    // Scheduler thread only.
    private final PriorityQueue<SamplingGroup<T>> byDeadline = new PriorityQueue<>(SamplingScheduler::earliestFirst);
    private final ArrayList<T> batch = new ArrayList<>();
    private final List<T> batchView = Collections.unmodifiableList(batch);
    private long lastFailureLogNanos;
    private long failuresNotLogged;

    // Written by the scheduler thread only; volatile so that statistics() reads them from any thread.
    private volatile long ticks;
    private volatile long lateTicks;
    private volatile long restarts;
    private volatile long maxLatenessNanos;
    private volatile long samplerFailures;

    /**
     * Starts the scheduler thread.
     *
     * @param threadName the name of the scheduler thread, e.g. {@code "opcua-sampling"}
     * @param sampler called on the scheduler thread with the members of each group tick
     */
    public SamplingScheduler(String threadName, BatchSampler<T> sampler) {
        this(threadName, sampler, System::nanoTime, Sleeper.PARKING, true);
    }

    /** With another clock and way of waiting, ticks one interval from each group's start: simulated time in tests. */
    SamplingScheduler(String threadName, BatchSampler<T> sampler, LongSupplier nanoClock, Sleeper sleeper) {
        this(threadName, sampler, nanoClock, sleeper, false);
    }

    /**
     * @param aligned whether ticks after a group's first lie on the grid of its interval, {@link #leadNanos}
     *     ahead of the publishing cycles of that interval
     */
    SamplingScheduler(String threadName, BatchSampler<T> sampler, LongSupplier nanoClock, Sleeper sleeper,
            boolean aligned) {
        this.aligned = aligned;
        if (threadName == null || threadName.isBlank()) {
            throw new IllegalArgumentException("the sampling thread needs a name, got '" + threadName + "'");
        }
        this.threadName = threadName;
        this.sampler = Objects.requireNonNull(sampler, "sampler");
        this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
        this.thread = new FastThreadLocalThread(this::run, threadName);
        thread.setDaemon(true);
        thread.setUncaughtExceptionHandler((t, e) ->
                log.error("sampling thread {} ended by an error; no member is sampled any more", t.getName(), e));
        thread.start();
    }

    /**
     * Adds a member to the group of its interval, creating the group (which ticks at once) on first
     * use. O(1), thread-safe.
     *
     * @param intervalNanos the sampling interval, 1 ns to about 73 years
     * @param member what the sampler is given, not null
     * @return the handle that removes the member
     * @throws IllegalStateException after {@link #close()}
     */
    public Registration add(long intervalNanos, T member) {
        Objects.requireNonNull(member, "member");
        if (intervalNanos <= 0 || intervalNanos > MAX_INTERVAL_NANOS) {
            throw new IllegalArgumentException("sampling interval of " + intervalNanos
                    + " ns is outside 1.." + MAX_INTERVAL_NANOS + " ns");
        }
        ensureOpen();
        Long key = intervalNanos;
        for (;;) {
            SamplingGroup<T> group = groups.get(key);
            boolean created = false;
            if (group == null) {
                SamplingGroup<T> fresh = new SamplingGroup<>(this, intervalNanos);
                group = groups.putIfAbsent(key, fresh);
                if (group == null) {
                    group = fresh;
                    created = true;
                }
            }
            SamplingMember<T> registration = new SamplingMember<>(group, member);
            if (group.add(registration)) {
                members.increment();
                if (created) {
                    // The creator hands the group over once it holds a member; an empty group
                    // (its members cancelled meanwhile) never reaches the thread.
                    newGroups.add(group);
                    sleeper.wake(thread);
                }
                if (closed.get()) {
                    registration.cancel();
                    ensureOpen();
                }
                return registration;
            }
            // The group emptied and retired since we looked it up: take a fresh one.
            groups.remove(key, group);
        }
    }

    /** The groups (distinct intervals) that have members. */
    public int groupCount() {
        return groups.size();
    }

    /** The members of all groups. */
    public long memberCount() {
        return members.sum();
    }

    public SamplingStatistics statistics() {
        return new SamplingStatistics(ticks, lateTicks, restarts, maxLatenessNanos, samplerFailures);
    }

    /**
     * Stops the scheduler thread, after the sampler call in progress returns (waiting up to 5 s,
     * then interrupting it). Idempotent; {@link #add} throws afterwards, {@link Registration#cancel}
     * still works.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        sleeper.wake(thread);
        if (Thread.currentThread() == thread) {
            return; // closed by the sampler: the loop ends when the call returns
        }
        try {
            thread.join(CLOSE_TIMEOUT_MILLIS);
            if (thread.isAlive()) {
                log.warn("sampling thread {} did not stop within {} ms: its sampler call has not returned;"
                        + " interrupting it", threadName, CLOSE_TIMEOUT_MILLIS);
                thread.interrupt();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Called by a group after a member left it; the last member out drops the group. */
    void memberRemoved(SamplingGroup<T> group, boolean groupEmptied) {
        members.decrement();
        if (groupEmptied) {
            groups.remove(group.intervalNanos, group);
        }
    }

    /** The groups in the scheduler thread's queue, retired ones included; read by tests while the thread rests. */
    int queuedGroups() {
        return byDeadline.size();
    }

    private void ensureOpen() {
        if (closed.get()) {
            throw new IllegalStateException("sampling scheduler " + threadName + " is closed");
        }
    }

    private void run() {
        try {
            while (!closed.get()) {
                takeNewGroups();
                if (byDeadline.size() > 2 * groups.size() + 16) {
                    // Groups retired before their deadline (a long interval whose items come and
                    // go) would pile up until due: drop them once they outnumber the live ones.
                    byDeadline.removeIf(SamplingGroup::isRetired);
                }
                SamplingGroup<T> group = byDeadline.peek();
                if (group == null) {
                    sleeper.sleep(Long.MAX_VALUE);
                    continue;
                }
                if (group.isRetired()) {
                    byDeadline.poll();
                    continue;
                }
                long now = nanoClock.getAsLong();
                long wait = group.timeline().nextDeadline() - now;
                if (wait > 0) {
                    sleeper.sleep(wait);
                    continue;
                }
                byDeadline.poll();
                tick(group, now);
                if (!group.isRetired()) {
                    byDeadline.add(group);
                }
            }
        } finally {
            byDeadline.clear();
            batch.clear();
        }
    }

    private void takeNewGroups() {
        SamplingGroup<T> group;
        while ((group = newGroups.poll()) != null) {
            if (!group.isRetired()) {
                group.startTimeline(nanoClock.getAsLong(), aligned ? leadNanos(group.intervalNanos) : -1);
                byDeadline.add(group);
            }
        }
    }

    private void tick(SamplingGroup<T> group, long now) {
        SamplingTimeline timeline = group.timeline();
        long lateness = now - timeline.nextDeadline();
        if (timeline.lagsTooFar(now)) {
            restarts++;
        }
        long deadline = timeline.takeTick(now);
        ticks++;
        if (lateness >= group.intervalNanos) {
            lateTicks++;
        }
        if (lateness > maxLatenessNanos) {
            maxLatenessNanos = lateness;
        }
        group.copyMembersTo(batch);
        if (batch.isEmpty()) {
            return;
        }
        try {
            sampler.sample(group.intervalNanos, batchView, deadline);
        } catch (Throwable e) {
            samplerFailed(group, e);
        } finally {
            batch.clear();
            if (Thread.interrupted() && !closed.get()) {
                // A sampler's interrupt must not turn every later wait into a busy loop.
                log.debug("sampling thread {}: cleared an interrupt left by the sampler", threadName);
            }
        }
    }

    private void samplerFailed(SamplingGroup<T> group, Throwable e) {
        samplerFailures++;
        long now = nanoClock.getAsLong();
        if (samplerFailures > 1 && now - lastFailureLogNanos < FAILURE_LOG_PERIOD_NANOS) {
            failuresNotLogged++;
            return;
        }
        log.warn("sampler of {} failed on the {} ms group ({} members); sampling goes on"
                        + " ({} failures not logged in the last {} s)",
                threadName, group.intervalNanos / 1e6, batch.size(), failuresNotLogged,
                TimeUnit.NANOSECONDS.toSeconds(FAILURE_LOG_PERIOD_NANOS), e);
        lastFailureLogNanos = now;
        failuresNotLogged = 0;
    }

    /**
     * How far ahead of the publishing grid an aligned group samples: a quarter of the interval, at most
     * {@value #MAX_LEAD_MILLIS} ms, time for a tick of thousands of items to finish before the cycle.
     */
    static long leadNanos(long intervalNanos) {
        return Math.min(intervalNanos / 4, MAX_LEAD_MILLIS * 1_000_000L);
    }

    /** Earliest deadline first, the shorter interval first on a tie. */
    private static int earliestFirst(SamplingGroup<?> a, SamplingGroup<?> b) {
        // nanoTime values: compared by difference, which stays right across a wrap of the clock.
        int byDeadline = Long.signum(a.timeline().nextDeadline() - b.timeline().nextDeadline());
        return byDeadline != 0 ? byDeadline : Long.compare(a.intervalNanos, b.intervalNanos);
    }

    /** A member's place in its group; {@link #cancel()} removes it. */
    public interface Registration {

        /**
         * Removes the member, O(1), thread-safe and idempotent. A tick that copied its members just
         * before may still pass this member to the sampler once.
         */
        void cancel();

        /** The interval the member is sampled at. */
        long intervalNanos();
    }

    /** Samples the members of one group tick; called on the scheduler thread. */
    @FunctionalInterface
    public interface BatchSampler<T> {

        /**
         * Samples the group's members that are due.
         *
         * @param intervalNanos the group's interval
         * @param members the members, read-only and reused after the call returns: not to be kept
         * @param deadlineNanos the tick's deadline on the {@link System#nanoTime()} scale (the
         *     group's grid, or the time of a restart); deadlines of a group are one interval apart,
         *     except that the tick after the first or after a restart may come sooner, onto the grid
         */
        void sample(long intervalNanos, List<T> members, long deadlineNanos);
    }
}
