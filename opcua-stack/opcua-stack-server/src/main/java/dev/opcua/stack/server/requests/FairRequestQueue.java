package dev.opcua.stack.server.requests;

import io.netty.util.collection.LongObjectHashMap;
import java.util.ArrayList;
import java.util.List;

/**
 * The server's request queue (MaxQueuedRequestCount): one FIFO per owner, served round-robin, so that
 * one greedy session or channel cannot starve the others, plus a small priority lane for session
 * establishment and control calls that is served first. A request that fits nowhere is refused, to be
 * answered with BadServerTooBusy (DESIGN.md section 3).
 *
 * <ul>
 *   <li>Round-robin: the owners with waiting requests form a ring; each turn takes the head of the
 *       current owner's FIFO and moves on, so an owner with one request waits for at most one request
 *       of every other owner. An owner that arrives joins the ring at the end of the current round.
 *       An owner leaves the ring, and the map, when it has nothing queued.</li>
 *   <li>The priority lane is one FIFO bounded by {@code maxPriorityQueued}, and each owner may have at
 *       most {@value #PRIORITY_PER_OWNER} requests in it; the rest of a priority request's kind go to
 *       its owner's ordinary FIFO. Anyone may call GetEndpoints or CreateSession without a session, so
 *       the lane must not be a way around the round-robin: after {@value #PRIORITY_BURST} priority
 *       requests in a row, one ordinary request is served if any waits.</li>
 *   <li>A priority request may overtake earlier ordinary requests of its own owner (a CloseSession
 *       behind that session's Reads); Part 4 does not order the requests of a session.</li>
 *   <li>Fair admission: when the ordinary part is full, a request whose owner has fewer requests
 *       waiting than the owner with the most still gets in, and the oldest waiting request of that
 *       largest owner makes room ({@link #takeEvicted()}, to be answered BadServerTooBusy). So a flood
 *       from one session fills the queue only until others need room: the flooder is refused, the
 *       others are not. The largest owner is tracked incrementally (it becomes the largest when it grows
 *       past the one known; it is forgotten when it empties), so the choice costs no scan; an owner is
 *       only ever evicted from when it has at least two more waiting than the newcomer's owner.</li>
 *   <li>Running bound ({@code maxRunningPerOwner}, 0 = none): an owner whose ordinary requests hold that
 *       many workers leaves the ring until one of them is {@link #done done}; its further requests wait
 *       in its FIFO (and count towards fair admission). So a flooding session keeps a few workers busy,
 *       not all of them, and the event loops that read the other sessions' requests keep their share of
 *       the cores.</li>
 * </ul>
 *
 * <p>Not thread-safe: {@link RequestWorkerPool} guards it with one lock, held only for these O(1)
 * operations (a map lookup and a few link updates, no allocation but the owner of a newly active
 * owner).
 */
public final class FairRequestQueue {

    /** Priority requests one owner may have in the lane; more go to its ordinary FIFO. */
    public static final int PRIORITY_PER_OWNER = 4;

    /** Priority requests served in a row while ordinary ones wait, before one ordinary. */
    public static final int PRIORITY_BURST = 4;

    private final int maxQueued;
    private final int maxPriorityQueued;
    private final int maxRunningPerOwner;
    private final LongObjectHashMap<Owner> owners = new LongObjectHashMap<>();

    private Owner cursor; // the owner served next; null when no ordinary request waits
    private Owner largest; // the owner with the most ordinary requests waiting, as far as known; or null
    private QueuedRequest evicted; // made room for a fairer request in the last offer; taken by takeEvicted
    private QueuedRequest priorityHead;
    private QueuedRequest priorityTail;
    private int queued;
    private int priorityQueued;
    private int priorityStreak;

    /**
     * @param maxQueued ordinary requests that may wait, over all owners (MaxQueuedRequestCount)
     * @param maxPriorityQueued requests that may wait in the priority lane, in addition
     */
    public FairRequestQueue(int maxQueued, int maxPriorityQueued) {
        this(maxQueued, maxPriorityQueued, 0);
    }

    /**
     * @param maxRunningPerOwner ordinary requests of one owner that may be running at once (taken by
     *        {@link #poll()}, not yet {@link #done done}); 0 = no bound
     */
    public FairRequestQueue(int maxQueued, int maxPriorityQueued, int maxRunningPerOwner) {
        if (maxQueued < 1 || maxPriorityQueued < 0 || maxRunningPerOwner < 0) {
            throw new IllegalArgumentException("need maxQueued >= 1, maxPriorityQueued >= 0 and maxRunningPerOwner"
                    + " >= 0, was " + maxQueued + ", " + maxPriorityQueued + " and " + maxRunningPerOwner);
        }
        this.maxQueued = maxQueued;
        this.maxPriorityQueued = maxPriorityQueued;
        this.maxRunningPerOwner = maxRunningPerOwner;
    }

    /**
     * Queues {@code request}; false when there is no room for it. When the ordinary part is full and
     * {@code request}'s owner has at least two fewer waiting than the largest owner, the largest owner's
     * oldest request is removed to make room: take it with {@link #takeEvicted()} and refuse it.
     */
    public boolean offer(QueuedRequest request) {
        Owner owner = owners.get(request.owner());
        if (request.priority() && priorityQueued < maxPriorityQueued
                && (owner == null || owner.priorityCount < PRIORITY_PER_OWNER)) {
            owner = ownerFor(owner, request.owner());
            owner.priorityCount++;
            request.queueOwner = owner;
            if (priorityTail == null) {
                priorityHead = request;
            } else {
                priorityTail.next = request;
            }
            priorityTail = request;
            priorityQueued++;
            return true;
        }
        if (queued >= maxQueued) {
            int waiting = owner == null ? 0 : owner.count;
            if (largest == null || largest == owner || largest.count < waiting + 2) {
                return false;
            }
            evicted = removeHead(largest);
        }
        owner = ownerFor(owner, request.owner());
        request.queueOwner = owner;
        if (owner.tail == null) {
            owner.head = request;
            if (!atRunningBound(owner)) {
                joinRing(owner);
            }
        } else {
            owner.tail.next = request;
        }
        owner.tail = request;
        owner.count++;
        queued++;
        if (largest == null || owner.count > largest.count) {
            largest = owner;
        }
        return true;
    }

    /**
     * The request the last {@link #offer} removed to make room for a fairer one, or null; each is
     * returned once. The caller refuses it (BadServerTooBusy), as if it had found the queue full.
     */
    public QueuedRequest takeEvicted() {
        QueuedRequest request = evicted;
        evicted = null;
        return request;
    }

    /** The next request to serve, or null when none waits. */
    public QueuedRequest poll() {
        boolean ordinaryWaits = cursor != null; // owners at their running bound are out of the ring
        if (priorityHead != null && (!ordinaryWaits || priorityStreak < PRIORITY_BURST)) {
            QueuedRequest request = priorityHead;
            priorityHead = request.next;
            if (priorityHead == null) {
                priorityTail = null;
            }
            priorityQueued--;
            priorityStreak = ordinaryWaits ? priorityStreak + 1 : 0;
            Owner owner = request.queueOwner;
            owner.priorityCount--;
            forgetIfIdle(owner);
            return unlinked(request);
        }
        if (!ordinaryWaits) {
            return null;
        }
        priorityStreak = 0;
        Owner owner = cursor;
        boolean empties = owner.head.next == null;
        if (maxRunningPerOwner > 0) {
            owner.running++; // before removeHead, which forgets an owner with nothing waiting or running
        }
        QueuedRequest request = removeHead(owner);
        if (maxRunningPerOwner > 0) {
            request.runningOwner = owner;
        }
        if (!empties) {
            if (atRunningBound(owner)) {
                leaveRing(owner); // moves the cursor on
            } else {
                cursor = owner.next;
            }
        }
        return request;
    }

    /**
     * A request {@link #poll() taken} earlier has finished running (answered, refused or failed): its owner
     * may run another. Every polled request must be reported once.
     *
     * @return whether its owner rejoined the ring, so that a request it has waiting can now be polled
     */
    public boolean done(QueuedRequest request) {
        Owner owner = request.runningOwner;
        if (owner == null) {
            return false; // a priority request, or no running bound
        }
        request.runningOwner = null;
        boolean wasAtBound = atRunningBound(owner);
        owner.running--;
        if (wasAtBound && owner.head != null && owner.next == null) {
            joinRing(owner);
            return true;
        }
        forgetIfIdle(owner);
        return false;
    }

    /** Whether {@link #poll()} would return a request now (owners at their running bound do not count). */
    public boolean hasReady() {
        return cursor != null || priorityHead != null;
    }

    private boolean atRunningBound(Owner owner) {
        return maxRunningPerOwner > 0 && owner.running >= maxRunningPerOwner;
    }

    /** Removes {@code owner}'s oldest ordinary request; an owner left empty leaves the ring (and the map if idle). */
    private QueuedRequest removeHead(Owner owner) {
        QueuedRequest request = owner.head;
        owner.head = request.next;
        owner.count--;
        queued--;
        if (owner.head == null) {
            owner.tail = null;
            if (owner.next != null) { // an owner at its running bound is out of the ring already
                leaveRing(owner);
            }
            forgetIfIdle(owner);
            if (largest == owner) {
                largest = null;
            }
        }
        return unlinked(request);
    }

    /** Removes and returns every waiting request, the priority lane first; for closing. */
    public List<QueuedRequest> drain() {
        List<QueuedRequest> all = new ArrayList<>(size());
        for (QueuedRequest request = poll(); request != null; request = poll()) {
            all.add(request);
        }
        return all;
    }

    /** Requests waiting, both lanes. */
    public int size() {
        return queued + priorityQueued;
    }

    public boolean isEmpty() {
        return size() == 0;
    }

    /** Requests waiting in the ordinary, round-robin part. */
    public int ordinarySize() {
        return queued;
    }

    /** Requests waiting in the priority lane. */
    public int prioritySize() {
        return priorityQueued;
    }

    /** Owners with a request waiting. */
    public int owners() {
        return owners.size();
    }

    public int maxQueued() {
        return maxQueued;
    }

    public int maxPriorityQueued() {
        return maxPriorityQueued;
    }

    private Owner ownerFor(Owner known, long key) {
        if (known != null) {
            return known;
        }
        Owner owner = new Owner(key);
        owners.put(key, owner);
        return owner;
    }

    /** Links {@code owner} just before the cursor: last in the current round. */
    private void joinRing(Owner owner) {
        if (cursor == null) {
            owner.next = owner;
            owner.previous = owner;
            cursor = owner;
        } else {
            owner.next = cursor;
            owner.previous = cursor.previous;
            cursor.previous.next = owner;
            cursor.previous = owner;
        }
    }

    /**
     * Unlinks {@code owner}, which has nothing left; when it was the cursor, the next owner becomes the
     * cursor (an evicted-from owner elsewhere in the ring leaves the cursor where it is).
     */
    private void leaveRing(Owner owner) {
        if (owner.next == owner) {
            cursor = null;
        } else {
            owner.previous.next = owner.next;
            owner.next.previous = owner.previous;
            if (cursor == owner) {
                cursor = owner.next;
            }
        }
        owner.next = null;
        owner.previous = null;
    }

    private void forgetIfIdle(Owner owner) {
        if (owner.head == null && owner.priorityCount == 0 && owner.running == 0) {
            owners.remove(owner.key);
        }
    }

    private static QueuedRequest unlinked(QueuedRequest request) {
        request.next = null;
        request.queueOwner = null;
        return request;
    }

    /** One owner's FIFO of ordinary requests and their count, its count in the priority lane, and its place in the ring. */
    static final class Owner {
        final long key;
        QueuedRequest head;
        QueuedRequest tail;
        int count; // ordinary requests waiting
        int priorityCount;
        int running; // ordinary requests polled and not yet done, with a running bound
        Owner next;
        Owner previous;

        Owner(long key) {
            this.key = key;
        }
    }
}
