package dev.opcua.stack.client.transport;

import io.netty.util.concurrent.FastThreadLocalThread;
import io.netty.util.internal.PlatformDependent;
import java.util.Queue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the client completes response futures: a fixed set of named daemon threads, each with its
 * own multi-producer queue (array chunks, no node per task, no lock) that it drains in order and
 * parks on when empty. A task goes to a worker that is awake when there is one (no wake-up needed),
 * else to the next in turn, which is woken. Per completed request this saves the node and the two locks of a
 * {@link java.util.concurrent.ThreadPoolExecutor} on a LinkedBlockingQueue.
 *
 * <p>A task that throws is logged and the worker goes on. After {@link #shutdown()} new tasks are
 * rejected and the workers end once their queues are empty.
 */
final class CallbackExecutor implements Executor {

    private static final Logger log = LoggerFactory.getLogger(CallbackExecutor.class);

    private final Worker[] workers;
    private final AtomicInteger next = new AtomicInteger();
    private volatile boolean shutdown;

    CallbackExecutor(int threads, String namePrefix) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1: " + threads);
        }
        workers = new Worker[threads];
        for (int i = 0; i < threads; i++) {
            workers[i] = new Worker();
            Thread t = new FastThreadLocalThread(workers[i], namePrefix + (i + 1));
            t.setDaemon(true);
            workers[i].thread = t;
        }
        for (Worker w : workers) {
            w.thread.start();
        }
    }

    @Override
    public void execute(Runnable task) {
        if (shutdown) {
            throw new RejectedExecutionException("the client's callback executor is shut down");
        }
        Worker w = pick();
        w.queue.offer(task);
        if (w.parked) {
            LockSupport.unpark(w.thread);
        }
    }

    /**
     * A worker that is awake, so that the task needs no wake-up (each costs a system call on both
     * sides), looking from the next in turn; the next in turn when all are parked.
     */
    private Worker pick() {
        int n = workers.length;
        if (n == 1) {
            return workers[0];
        }
        int start = (next.getAndIncrement() & Integer.MAX_VALUE) % n;
        for (int i = 0; i < n; i++) {
            Worker w = workers[(start + i) % n];
            if (!w.parked) {
                return w;
            }
        }
        return workers[start];
    }

    /** Rejects new tasks; the workers run what is queued and end. */
    void shutdown() {
        shutdown = true;
        for (Worker w : workers) {
            LockSupport.unpark(w.thread);
        }
    }

    /** Waits until every worker has ended, or the timeout passed; whether they all ended. */
    boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        for (Worker w : workers) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            w.thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            if (w.thread.isAlive()) {
                return false;
            }
        }
        return true;
    }

    /** One thread and its queue. */
    private final class Worker implements Runnable {

        final Queue<Runnable> queue = PlatformDependent.newMpscQueue();
        volatile boolean parked;
        Thread thread;

        @Override
        public void run() {
            while (true) {
                Runnable task = queue.poll();
                if (task != null) {
                    try {
                        task.run();
                    } catch (Throwable t) {
                        log.warn("a client callback failed", t);
                    }
                    continue;
                }
                if (shutdown) {
                    return;
                }
                parked = true;
                // a producer that offered before seeing parked == true has its task seen here
                if (queue.isEmpty() && !shutdown) {
                    LockSupport.park(this);
                }
                parked = false;
            }
        }
    }
}
