package dev.opcua.stack.server.requests;

/**
 * A request waiting in a {@link FairRequestQueue}: whose it is, which lane it asks for and when it
 * arrived. The dispatcher's subclass carries the channel and the encoded message; the queue links
 * requests through fields of this class, so queuing one allocates nothing more.
 *
 * <p>A request is in at most one queue, once.
 */
public abstract class QueuedRequest {

    private final long owner;
    private final boolean priority;
    private final long arrivalNanos;
    private final long timeoutHintNanos;

    // Bookkeeping of the queue, guarded by its owner's lock.
    QueuedRequest next;
    FairRequestQueue.Owner queueOwner;
    FairRequestQueue.Owner runningOwner; // set while it runs under its owner's running bound

    /**
     * @param owner the key of its owner: a session's authentication token, or the secure channel
     *        before a session exists; requests of one owner are served in order, owners in turn
     * @param priority whether it asks for the priority lane (session establishment and control)
     * @param arrivalNanos {@link System#nanoTime()} when it arrived
     * @param timeoutHintMillis the RequestHeader's timeoutHint (Part 4, 7.32); 0 = none
     */
    protected QueuedRequest(long owner, boolean priority, long arrivalNanos, long timeoutHintMillis) {
        this.owner = owner;
        this.priority = priority;
        this.arrivalNanos = arrivalNanos;
        this.timeoutHintNanos = timeoutHintMillis <= 0 ? 0 : timeoutHintMillis * 1_000_000L;
    }

    public final long owner() {
        return owner;
    }

    public final boolean priority() {
        return priority;
    }

    public final long arrivalNanos() {
        return arrivalNanos;
    }

    /** The timeoutHint in nanoseconds; 0 = none. */
    public final long timeoutHintNanos() {
        return timeoutHintNanos;
    }
}
