package dev.opcua.stack.server.requests;

import dev.opcua.stack.server.util.NamedThreadFactory;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker threads ({@code opcua-worker-N}) that serve a {@link FairRequestQueue}: the design's
 * request path between admission and the service sets (Part 4, 5).
 *
 * <ul>
 *   <li>Admission, on the submitting thread (the channel's event loop): a request that does not fit
 *       is refused at once through {@link RequestRunner#reject} with {@link RejectReason#TOO_BUSY},
 *       without reaching a worker; after {@link #close()}, with {@link RejectReason#HALTED}. When the
 *       queue makes room for a fairer request by evicting the largest owner's oldest one
 *       ({@link FairRequestQueue#takeEvicted()}), that one is refused with TOO_BUSY instead.</li>
 *   <li>Threads: started on demand when a request waits and no worker is idle, up to
 *       {@code maxThreads}; a worker idle for {@code workerKeepAlive} ends while more than
 *       {@code minThreads} live. With {@code virtualThreads} (Java 21+), each worker is a virtual
 *       thread that ends as soon as the queue is empty, and {@code maxThreads} bounds the requests
 *       running at once, so that the queue still orders them fairly.</li>
 *   <li>Age: a worker answers a request that waited longer than {@code maxRequestAge}, or longer than
 *       its own timeoutHint, with BadTimeout instead of running it.</li>
 *   <li>Inline: with {@code inlineWhenIdle}, {@link #admitInline()} lets the event loop run a request
 *       itself while the queue is empty; the dispatcher decides which requests are small and safe.</li>
 *   <li>Close: refuses new requests, answers the queued ones with BadServerHalted, lets running ones
 *       finish for {@code shutdownTimeout}, then interrupts the workers.</li>
 * </ul>
 *
 * <p>Locking: one {@link ReentrantLock} guards the queue and the worker counts. It is held only for
 * the O(1) bookkeeping of an offer or a poll (a waiting worker releases it), never while a request
 * runs or is answered or a thread starts; everything else on the request path (statistics, decoding,
 * the channel's send lock) is per request, per thread or per channel. The .NET stack's lesson (no lock shared by all
 * sessions on the request path) is kept to this one short critical section, which a queue shared by
 * all sessions needs for its order and its bound.
 */
public final class RequestWorkerPool implements AutoCloseable {

    /** The name prefix of the worker threads. */
    public static final String THREAD_PREFIX = "opcua-worker-";

    private static final Logger log = LoggerFactory.getLogger(RequestWorkerPool.class);

    private final RequestPoolSettings settings;
    private final RequestRunner runner;
    private final RequestStatistics statistics;
    private final ThreadFactory threadFactory;
    private final boolean virtual;
    private final int minThreads;
    private final long keepAliveNanos;
    private final long maxAgeNanos;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition available = lock.newCondition();
    private final Condition terminated = lock.newCondition();
    private final FairRequestQueue queue; // guarded by lock
    private final Set<Thread> threads = ConcurrentHashMap.newKeySet();

    // Written under the lock; volatile so that statistics read them without it.
    private volatile int live;
    private volatile int waiting;
    private volatile int queuedNow;
    private volatile int priorityQueuedNow;
    private volatile boolean closed;

    public RequestWorkerPool(RequestPoolSettings settings, RequestRunner runner) {
        this.settings = settings;
        this.runner = runner;
        this.queue = new FairRequestQueue(settings.maxQueued(), settings.maxPriorityQueued(),
                settings.maxRunningPerSession());
        this.statistics = new RequestStatistics(this);
        ThreadFactory virtualFactory = settings.virtualThreads() ? VirtualThreads.factory(THREAD_PREFIX) : null;
        if (settings.virtualThreads() && virtualFactory == null) {
            log.warn("virtual threads need Java 21 or later (this is {}); using platform worker threads",
                    Runtime.version().feature());
        }
        this.virtual = virtualFactory != null;
        this.threadFactory = virtual ? virtualFactory : new NamedThreadFactory(THREAD_PREFIX);
        this.minThreads = virtual ? 0 : settings.minThreads();
        this.keepAliveNanos = settings.workerKeepAlive().toNanos();
        this.maxAgeNanos = settings.maxRequestAge().toNanos();
    }

    /**
     * Queues {@code request} for a worker, or answers it at once through {@link RequestRunner#reject}
     * when the queue has no room (TOO_BUSY) or the pool is closed (HALTED).
     *
     * @return whether it was queued
     */
    public boolean submit(QueuedRequest request) {
        RejectReason refused = null;
        QueuedRequest evicted = null;
        boolean startWorker = false;
        lock.lock();
        try {
            if (closed) {
                refused = RejectReason.HALTED;
            } else if (!queue.offer(request)) {
                refused = RejectReason.TOO_BUSY;
            } else {
                evicted = queue.takeEvicted();
                published();
                int idle = waiting;
                boolean ready = queue.hasReady(); // not when it waits behind its session's running bound
                if (idle > 0 && ready) {
                    available.signal();
                }
                // Grow when more requests wait than idle workers can take (a signalled worker still
                // counts as waiting until it holds the lock again).
                if (ready && queue.size() > idle && live < settings.maxThreads()) {
                    live++;
                    startWorker = true;
                }
            }
        } finally {
            lock.unlock();
        }
        if (evicted != null) {
            // made room for a request of an owner with fewer waiting (fair admission): refused as if it
            // had found the queue full
            statistics.recordEvicted();
            runner.reject(evicted, RejectReason.TOO_BUSY);
        }
        if (refused != null) {
            statistics.recordRejected(refused);
            runner.reject(request, refused);
            return false;
        }
        statistics.recordAdmitted();
        if (startWorker) {
            startWorker();
        }
        return true;
    }

    /**
     * Takes a request to be run at once on the calling thread (its event loop) instead of a worker:
     * allowed only while the pool is open and nothing waits in either lane, that is, when the request
     * would have been first in line anyway ({@link RequestPoolSettings#inlineWhenIdle()}). Reads two
     * volatile fields and takes no lock; a request queued concurrently by another event loop is
     * served by a worker meanwhile, as it would be beside a busy worker.
     *
     * @return whether the caller runs the request now; if not, it {@link #submit submits} it
     */
    public boolean admitInline() {
        if (!settings.inlineWhenIdle() || closed || queuedNow != 0) {
            return false;
        }
        statistics.recordInline();
        return true;
    }

    private void startWorker() {
        try {
            threadFactory.newThread(this::work).start();
        } catch (RuntimeException | OutOfMemoryError e) {
            lock.lock();
            try {
                live--;
                if (live == 0) {
                    terminated.signalAll();
                }
            } finally {
                lock.unlock();
            }
            log.error("could not start a request worker; {} remain", live, e);
        }
    }

    /** The loop of a worker thread. */
    private void work() {
        Thread self = Thread.currentThread();
        threads.add(self);
        boolean retired = false;
        QueuedRequest running = null;
        try {
            for (QueuedRequest request = next(null); request != null; request = next(request)) {
                running = request;
                execute(request);
                running = null;
            }
            retired = true;
        } finally {
            threads.remove(self);
            if (!retired) { // an Error escaped: this worker no longer counts, another takes over its queue
                boolean replace;
                lock.lock();
                try {
                    if (running != null) {
                        queue.done(running); // its session may run another
                    }
                    retire();
                    replace = !closed && !queue.isEmpty() && live < settings.maxThreads();
                    if (replace) {
                        live++;
                    }
                } finally {
                    lock.unlock();
                }
                if (replace) {
                    startWorker();
                }
            }
        }
    }

    /**
     * The next request for this worker, waiting for one; null when the worker is to end (and no longer counts).
     *
     * @param finished the request this worker ran last, reported {@link FairRequestQueue#done done}; or null
     */
    private QueuedRequest next(QueuedRequest finished) {
        lock.lock();
        try {
            // its session may run another now: this worker polls below, and wakes an idle one only when
            // more is ready than it takes (a wake-up per request of a bounded flooder would find nothing)
            boolean rejoined = finished != null && queue.done(finished);
            long idleNanos = keepAliveNanos;
            for (;;) {
                if (closed) {
                    return retire();
                }
                QueuedRequest request = queue.poll();
                if (request != null) {
                    published();
                    if (rejoined && waiting > 0 && queue.hasReady()) {
                        available.signal();
                    }
                    return request;
                }
                if (virtual || (idleNanos <= 0 && live > minThreads)) {
                    return retire();
                }
                waiting++;
                try {
                    if (live > minThreads) {
                        idleNanos = available.awaitNanos(idleNanos);
                    } else {
                        available.await();
                    }
                } catch (InterruptedException e) {
                    // close interrupts after its timeout (closed is set then); a stray interrupt is ignored
                } finally {
                    waiting--;
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** Called under the lock: this worker ends. */
    private QueuedRequest retire() {
        live--;
        if (live == 0) {
            terminated.signalAll();
        }
        return null;
    }

    /** Called under the lock after the queue changed. */
    private void published() {
        queuedNow = queue.size();
        priorityQueuedNow = queue.prioritySize();
    }

    private void execute(QueuedRequest request) {
        long waited = System.nanoTime() - request.arrivalNanos();
        statistics.recordWait(waited);
        try {
            if (waited > maxAgeNanos) {
                statistics.recordRejected(RejectReason.TOO_OLD);
                runner.reject(request, RejectReason.TOO_OLD);
            } else if (request.timeoutHintNanos() > 0 && waited > request.timeoutHintNanos()) {
                statistics.recordRejected(RejectReason.TIMEOUT);
                runner.reject(request, RejectReason.TIMEOUT);
            } else {
                runner.run(request);
            }
        } catch (RuntimeException e) {
            log.error("request runner failed", e); // a bug: the runner answers its own failures
        }
    }

    /**
     * Stops taking requests (later ones are answered with BadServerHalted), answers the queued ones
     * with BadServerHalted, and waits up to {@code shutdownTimeout} for the workers to finish what they
     * run; then interrupts them. Called from a worker, it does not wait for itself.
     */
    @Override
    public void close() {
        long deadline = System.nanoTime() + settings.shutdownTimeout().toNanos();
        List<QueuedRequest> queued;
        List<Thread> workers;
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            queued = queue.drain();
            published();
            workers = List.copyOf(threads);
            available.signalAll();
        } finally {
            lock.unlock();
        }
        for (QueuedRequest request : queued) {
            statistics.recordRejected(RejectReason.HALTED);
            try {
                runner.reject(request, RejectReason.HALTED);
            } catch (RuntimeException e) {
                log.error("request runner failed", e);
            }
        }
        if (!awaitWorkers(deadline - System.nanoTime())) {
            log.warn("{} request workers still busy after {}; interrupting them", threads.size(),
                    settings.shutdownTimeout());
            threads.forEach(Thread::interrupt);
            return;
        }
        // Every worker has retired; wait the few instructions until their threads have ended too.
        for (Thread worker : workers) {
            long left = deadline - System.nanoTime();
            if (worker != Thread.currentThread() && left > 0) {
                try {
                    worker.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** Waits until no worker lives (but the caller, when it is one); false on timeout. */
    private boolean awaitWorkers(long nanos) {
        int self = threads.contains(Thread.currentThread()) ? 1 : 0;
        lock.lock();
        try {
            while (live > self) {
                if (nanos <= 0) {
                    return false;
                }
                nanos = terminated.awaitNanos(nanos);
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            lock.unlock();
        }
    }

    /** Waits until every worker has ended, after {@link #close()}; for tests and orderly shutdown. */
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return closed && awaitWorkers(unit.toNanos(timeout));
    }

    public RequestStatistics statistics() {
        return statistics;
    }

    public RequestPoolSettings settings() {
        return settings;
    }

    /** Whether workers are virtual threads (asked for, and Java 21+). */
    public boolean usesVirtualThreads() {
        return virtual;
    }

    public boolean isClosed() {
        return closed;
    }

    int queuedNow() {
        return queuedNow;
    }

    int priorityQueuedNow() {
        return priorityQueuedNow;
    }

    int liveWorkers() {
        return live;
    }

    int busyWorkers() {
        return Math.max(0, live - waiting);
    }
}
