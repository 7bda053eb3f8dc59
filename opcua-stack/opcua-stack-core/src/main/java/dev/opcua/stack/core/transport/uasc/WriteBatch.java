package dev.opcua.stack.core.transport.uasc;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.AbstractEventExecutor;
import java.util.ArrayList;

/**
 * Lets a thread that sends messages on many channels in a row (the server's publishing thread, one
 * Publish response per subscription and cycle) wake each event loop once for the lot instead of once
 * per message: while the thread has a batch open, the writes it hands to event loops are queued
 * without waking them ({@link AbstractEventExecutor#lazyExecute}), and {@link #close()} wakes each
 * loop that got one. Order is kept: a loop runs its queued tasks in the order they were queued. A
 * thread without an open batch (a worker answering a request) writes as before.
 *
 * <p>Wake-ups are what a cycle of small responses costs most on a virtual machine: with a batch, ten
 * responses on four event loops cost four wake-ups, not ten.
 * The caller must close what it opened, in a finally block: writes of an unclosed batch wait until
 * something else wakes their loop.
 */
public final class WriteBatch {

    private static final ThreadLocal<WriteBatch> CURRENT = ThreadLocal.withInitial(WriteBatch::new);
    /** A task that only wakes the loop it is given to. */
    static final Runnable WAKE_UP = () -> { };

    private boolean open;
    private long openedAtNanos;
    /** The loops that got a lazy task; few (one per event loop), so a list beats a set. */
    private final ArrayList<EventLoop> loops = new ArrayList<>(8);

    private WriteBatch() {
    }

    /** Opens a batch on this thread; one already open stays open (and keeps its opening time). */
    public static void open() {
        WriteBatch batch = CURRENT.get();
        if (!batch.open) {
            batch.open = true;
            batch.openedAtNanos = System.nanoTime();
        }
    }

    /** Whether this thread has a batch open. */
    public static boolean isOpen() {
        return CURRENT.get().open;
    }

    /** Whether this thread's batch has been open for more than {@code nanos}: false when none is open. */
    public static boolean isOpenLongerThan(long nanos) {
        WriteBatch batch = CURRENT.get();
        return batch.open && System.nanoTime() - batch.openedAtNanos > nanos;
    }

    /** Closes this thread's batch and wakes each event loop that got a write in it; nothing when none is open. */
    public static void close() {
        WriteBatch batch = CURRENT.get();
        if (!batch.open) {
            return;
        }
        batch.open = false;
        ArrayList<EventLoop> loops = batch.loops;
        try {
            for (int i = 0; i < loops.size(); i++) {
                loops.get(i).execute(WAKE_UP);
            }
        } finally {
            loops.clear();
        }
    }

    /**
     * Queues {@code task} on {@code loop}: without waking it while this thread has a batch open.
     *
     * @return whether the task waits for this thread's batch to close
     */
    static boolean execute(EventLoop loop, Runnable task) {
        WriteBatch batch = CURRENT.get();
        if (!batch.open || !(loop instanceof AbstractEventExecutor lazy)) {
            loop.execute(task);
            return false;
        }
        lazy.lazyExecute(task);
        if (!batch.loops.contains(loop)) {
            batch.loops.add(loop);
        }
        return true;
    }
}
