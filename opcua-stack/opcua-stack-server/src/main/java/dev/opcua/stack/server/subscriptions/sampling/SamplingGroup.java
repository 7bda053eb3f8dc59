package dev.opcua.stack.server.subscriptions.sampling;

import java.util.ArrayList;
import java.util.Arrays;

/**
 * The members sampled at one interval. Add and remove are O(1): an array with swap-remove, each
 * member holding its slot. The group's lock is held only for that bookkeeping and for copying
 * the members into the scheduler's batch, never while the sampler runs. A group that becomes
 * empty retires for good (a later member of that interval gets a new group, which ticks at once).
 */
final class SamplingGroup<T> {

    private static final int MIN_CAPACITY = 8;

    final long intervalNanos;
    private final SamplingScheduler<T> owner;

    // Guarded by this.
    private SamplingMember<?>[] members = new SamplingMember<?>[MIN_CAPACITY];
    private int size;
    // Written under the lock, read by the scheduler thread without it.
    private volatile boolean retired;

    /** Scheduler thread only: set when the thread takes the group in. */
    private SamplingTimeline timeline;

    SamplingGroup(SamplingScheduler<T> owner, long intervalNanos) {
        this.owner = owner;
        this.intervalNanos = intervalNanos;
    }

    /** Adds the member, unless the group has retired (the caller then takes a fresh group). */
    boolean add(SamplingMember<T> member) {
        synchronized (this) {
            if (retired) {
                return false;
            }
            if (size == members.length) {
                members = Arrays.copyOf(members, size * 2);
            }
            member.index = size;
            members[size++] = member;
            return true;
        }
    }

    /** Removes the member (idempotent); the last one out retires the group. */
    void remove(SamplingMember<T> member) {
        boolean emptied;
        synchronized (this) {
            int index = member.index;
            if (index < 0) {
                return;
            }
            int last = --size;
            SamplingMember<?> moved = members[last];
            members[index] = moved;
            moved.index = index;
            members[last] = null;
            member.index = -1;
            emptied = size == 0;
            if (emptied) {
                retired = true;
            } else if (size < members.length / 4 && members.length > MIN_CAPACITY) {
                // Give back the memory of a group that shrank a lot; amortised O(1).
                members = Arrays.copyOf(members, Math.max(MIN_CAPACITY, members.length / 2));
            }
        }
        owner.memberRemoved(this, emptied);
    }

    /** Copies the current members into {@code batch} (cleared first). */
    @SuppressWarnings("unchecked")
    void copyMembersTo(ArrayList<T> batch) {
        batch.clear();
        synchronized (this) {
            batch.ensureCapacity(size);
            for (int i = 0; i < size; i++) {
                batch.add(((SamplingMember<T>) members[i]).value);
            }
        }
    }

    boolean isRetired() {
        return retired;
    }

    SamplingTimeline timeline() {
        return timeline;
    }

    void startTimeline(long nowNanos, long leadNanos) {
        timeline = new SamplingTimeline(intervalNanos, nowNanos, leadNanos);
    }
}
