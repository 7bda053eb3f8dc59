package dev.opcua.stack.server.subscriptions;

import dev.opcua.stack.core.transport.uasc.WriteBatch;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.util.concurrent.Delayed;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The production {@link PublishingScheduler}: one daemon thread, {@code opcua-publisher}, whose
 * {@link ScheduledThreadPoolExecutor} holds one timer per subscription. It is a
 * {@link FastThreadLocalThread} because responses are encoded on it. The cycles due at one moment (on
 * the grid, see {@link #firstDeadline}) run as one pass with a {@link WriteBatch} open, so each event loop
 * is woken once for the responses of the pass rather than once per response. Cancelled timers leave the queue
 * at once, so modifying or deleting subscriptions does not accumulate dead entries.
 */
final class ExecutorPublishingScheduler implements PublishingScheduler {

    private static final Logger log = LoggerFactory.getLogger(ExecutorPublishingScheduler.class);

    static final String THREAD_NAME = "opcua-publisher";

    /** The longest a pass holds its responses back before waking their event loops. */
    static final long MAX_BATCH_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final ScheduledThreadPoolExecutor executor;

    ExecutorPublishingScheduler() {
        executor = new ScheduledThreadPoolExecutor(1, task -> {
            Thread thread = new FastThreadLocalThread(task, THREAD_NAME);
            thread.setDaemon(true);
            return thread;
        }) {
            @Override
            protected void beforeExecute(Thread thread, Runnable task) {
                WriteBatch.open();
            }

            @Override
            protected void afterExecute(Runnable task, Throwable failure) {
                // the pass of due cycles is over: wake the event loops once each; a long pass (many or large
                // subscriptions) hands its responses over every millisecond, so the first do not wait for it all
                if (!nextTaskIsDue() || WriteBatch.isOpenLongerThan(MAX_BATCH_NANOS)) {
                    WriteBatch.close();
                }
            }
        };
        executor.setRemoveOnCancelPolicy(true);
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    /** Whether another task is due now: the cycles of one grid point run as one pass, one batch of writes. */
    private boolean nextTaskIsDue() {
        Runnable next = executor.getQueue().peek();
        return next instanceof Delayed delayed && delayed.getDelay(TimeUnit.NANOSECONDS) <= 0;
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    /**
     * On a grid of the interval: subscriptions of equal publishing intervals share their deadlines, so the
     * thread wakes once per interval for all of them instead of once per subscription (a wake-up costs
     * more than an idle cycle). The first cycle comes within one interval, never later.
     */
    @Override
    public long firstDeadline(long nowNanos, long intervalNanos) {
        long deadline = nowNanos + intervalNanos;
        return deadline - Math.floorMod(deadline, intervalNanos);
    }

    @Override
    public Timer schedule(Runnable task, long delayNanos) {
        ScheduledFuture<?> future = executor.schedule(guarded(task), Math.max(0, delayNanos), TimeUnit.NANOSECONDS);
        return () -> future.cancel(false);
    }

    @Override
    public void execute(Runnable task) {
        executor.execute(guarded(task));
    }

    /** A failing task is logged instead of vanishing into its future; the thread carries on. */
    private static Runnable guarded(Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                log.error("publishing task failed", e);
            }
        };
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }

    /** For tests: whether the thread has ended. */
    boolean awaitTermination(long millis) throws InterruptedException {
        return executor.awaitTermination(millis, TimeUnit.MILLISECONDS);
    }
}
