package dev.opcua.benchmarks.load;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * The writer of the {@code sub} and {@code events} scenarios, on its own thread and session: every
 * tick (a tenth of the publishing interval, on absolute deadlines) it sends the values due at
 * {@code perSecond} as {@link Batches} (Write requests, or Emit calls), so that the changes spread over
 * the publishing interval. Open loop: it does not wait for responses, but with {@value #MAX_OUTSTANDING}
 * requests unanswered it skips ticks (values owed are capped at four ticks' worth), and after a stall
 * of more than five ticks it restarts its schedule instead of bursting.
 */
final class ValueWriter implements Runnable {

    static final int MAX_OUTSTANDING = 16;

    private final Batches batches;
    private final WriteSequence values;
    private final double perSecond;
    private final long tickNanos;
    private final AtomicInteger outstanding = new AtomicInteger();
    private final LongAdder skippedTicks = new LongAdder();
    private volatile boolean stop;
    private volatile Thread thread;

    /**
     * @param perSecond values per second, all slots together
     * @param tickNanos how often it sends
     */
    ValueWriter(Batches batches, WriteSequence values, double perSecond, long tickNanos) {
        this.batches = batches;
        this.values = values;
        this.perSecond = perSecond;
        this.tickNanos = tickNanos;
    }

    /** Ticks skipped because {@value #MAX_OUTSTANDING} requests were unanswered. */
    long skippedTicks() {
        return skippedTicks.sum();
    }

    /** Makes {@link #run()} return after its current tick. */
    void stop() {
        stop = true;
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    @Override
    public void run() {
        thread = Thread.currentThread();
        double perTick = perSecond * tickNanos / 1e9;
        double maxOwed = Math.max(1, 4 * perTick);
        int perRequest = batches.maxPerRequest();
        long last = System.nanoTime();
        long deadline = last;
        double owed = 0;
        long next = values.base();
        while (!stop) {
            deadline += tickNanos;
            long now = sleepUntil(deadline);
            if (stop) {
                return;
            }
            if (now - deadline > 5 * tickNanos) {
                deadline = now;
            }
            owed = Math.min(maxOwed, owed + perSecond * (now - last) / 1e9);
            last = now;
            int n = (int) owed;
            if (n == 0) {
                continue;
            }
            if (outstanding.get() >= MAX_OUTSTANDING) {
                skippedTicks.increment();
                continue;
            }
            owed -= n;
            for (long from = next; from < next + n; from += perRequest) {
                send(from, Math.min(next + n, from + perRequest));
            }
            next += n;
        }
    }

    private long sleepUntil(long deadline) {
        long now;
        while ((now = System.nanoTime()) < deadline && !stop) {
            LockSupport.parkNanos(deadline - now);
        }
        return now;
    }

    private void send(long from, long to) {
        outstanding.incrementAndGet();
        values.sent(from, to, System.nanoTime());
        batches.send(from, to).whenComplete((ignored, failure) -> outstanding.decrementAndGet());
    }
}
