package dev.opcua.stack.server.requests;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters of a {@link RequestWorkerPool} and the services it runs, for the server diagnostics (Part 5,
 * ServerDiagnosticsSummaryDataType: RejectedRequestsCount) and the metrics of the design
 * ({@code opcua.server.requests.*}).
 * Recording costs a striped {@link LongAdder} increment, no lock; reading sums them and may miss the
 * increments of a request in flight.
 */
public final class RequestStatistics {

    /** The service name under which requests that could not be decoded are counted. */
    public static final String UNDECODABLE = "Undecodable";

    private final RequestWorkerPool pool;
    private final LongAdder admitted = new LongAdder();
    private final LongAdder ranInline = new LongAdder();
    private final LongAdder[] rejected = new LongAdder[RejectReason.values().length];
    private final LongAdder active = new LongAdder();
    private final LongAdder waitCount = new LongAdder();
    private final LongAdder waitNanos = new LongAdder();
    private final LongAccumulator waitMaxNanos = new LongAccumulator(Math::max, 0);
    private final ConcurrentHashMap<Class<?>, ServiceCounters> services = new ConcurrentHashMap<>();
    private final ServiceCounters undecodable = new ServiceCounters(UNDECODABLE);

    RequestStatistics(RequestWorkerPool pool) {
        this.pool = pool;
        for (int i = 0; i < rejected.length; i++) {
            rejected[i] = new LongAdder();
        }
    }

    // ---- recorded by the pool

    void recordAdmitted() {
        admitted.increment();
    }

    void recordInline() {
        admitted.increment();
        ranInline.increment();
    }

    public void recordRejected(RejectReason reason) {
        rejected[reason.ordinal()].increment();
    }

    /**
     * A queued request removed to make room for a fairer one (fair admission): it no longer counts as
     * admitted, and counts as refused for lack of room.
     */
    void recordEvicted() {
        admitted.decrement();
        rejected[RejectReason.TOO_BUSY.ordinal()].increment();
    }

    void recordWait(long nanos) {
        waitCount.increment();
        waitNanos.add(nanos);
        waitMaxNanos.accumulate(nanos);
    }

    // ---- recorded by the dispatcher

    /** A worker began to run a request; it is active until {@link #requestFinished}. */
    public void requestStarted() {
        active.increment();
    }

    /**
     * A request began with {@link #requestStarted} was answered.
     *
     * @param type the request's class, null when it could not be decoded
     * @param nanos from the start of its run to its answer
     * @param fault whether it was answered with a ServiceFault
     */
    public void requestFinished(Class<?> type, long nanos, boolean fault) {
        ServiceCounters counters = type == null ? undecodable : services.get(type);
        if (counters == null) {
            counters = services.computeIfAbsent(type, t -> new ServiceCounters(t.getSimpleName()));
        }
        counters.record(nanos, fault);
        active.decrement(); // last: a reader that sees no active request sees its counts
    }

    // ---- read

    /** Requests waiting, both lanes. */
    public int queued() {
        return pool.queuedNow();
    }

    /** Requests waiting in the priority lane. */
    public int priorityQueued() {
        return pool.priorityQueuedNow();
    }

    /** The bound of the ordinary queue (MaxQueuedRequestCount). */
    public int queueCapacity() {
        return pool.settings().maxQueued();
    }

    /** The bound of the priority lane. */
    public int priorityQueueCapacity() {
        return pool.settings().maxPriorityQueued();
    }

    /** Worker threads alive. */
    public int workers() {
        return pool.liveWorkers();
    }

    /** Worker threads running a request now. */
    public int busyWorkers() {
        return pool.busyWorkers();
    }

    /** Requests begun and not yet answered, including those whose handler completes asynchronously. */
    public long activeRequests() {
        return active.sum();
    }

    /**
     * Requests taken: into the queue, or to run at once on their event loop ({@link #ranInline()}); less
     * those later evicted from the queue by fair admission (counted as refused instead).
     */
    public long admitted() {
        return admitted.sum();
    }

    /**
     * Requests of {@link #admitted()} that ran on the event loop that received them, because no request
     * waited ({@link RequestPoolSettings#inlineWhenIdle()}); they never waited and are not in the queue wait.
     */
    public long ranInline() {
        return ranInline.sum();
    }

    /** Requests answered with a ServiceFault of {@code reason} without being run. */
    public long rejected(RejectReason reason) {
        return rejected[reason.ordinal()].sum();
    }

    /**
     * Requests that could not be decoded, answered with a ServiceFault (BadDecodingError,
     * BadEncodingLimitsExceeded over the quotas' string, array and nesting limits, BadServiceUnsupported).
     */
    public long undecodable() {
        return undecodable.count.sum();
    }

    /** Requests answered without being run, for every reason. */
    public long rejected() {
        long sum = 0;
        for (LongAdder adder : rejected) {
            sum += adder.sum();
        }
        return sum;
    }

    /** Requests a worker took from the queue. */
    public long queueWaitCount() {
        return waitCount.sum();
    }

    /** Their summed time in the queue. */
    public long queueWaitTotalNanos() {
        return waitNanos.sum();
    }

    /** The longest time a request spent in the queue. */
    public long queueWaitMaxNanos() {
        return waitMaxNanos.get();
    }

    /** The counters of one service, by the simple name of its request class; null when none ran. */
    public ServiceSnapshot service(String name) {
        return services().get(name);
    }

    /** The counters of every service that ran, by the simple name of its request class. */
    public Map<String, ServiceSnapshot> services() {
        Map<String, ServiceSnapshot> result = new TreeMap<>();
        for (ServiceCounters counters : services.values()) {
            result.merge(counters.name, counters.snapshot(), ServiceSnapshot::plus);
        }
        if (undecodable.count.sum() > 0) {
            result.put(UNDECODABLE, undecodable.snapshot());
        }
        return Collections.unmodifiableMap(result);
    }

    /** All counters at once; each read without a lock, so not one instant. */
    public Snapshot snapshot() {
        Map<RejectReason, Long> rejections = new EnumMap<>(RejectReason.class);
        for (RejectReason reason : RejectReason.values()) {
            rejections.put(reason, rejected(reason));
        }
        return new Snapshot(queued(), priorityQueued(), queueCapacity(), priorityQueueCapacity(), workers(),
                busyWorkers(), activeRequests(), admitted(), ranInline(), Collections.unmodifiableMap(rejections),
                queueWaitCount(), queueWaitTotalNanos(), queueWaitMaxNanos(), services());
    }

    /** The counters of a {@link RequestStatistics} at one time. */
    public record Snapshot(int queued, int priorityQueued, int queueCapacity, int priorityQueueCapacity,
            int workers, int busyWorkers, long activeRequests, long admitted, long ranInline,
            Map<RejectReason, Long> rejected,
            long queueWaitCount, long queueWaitTotalNanos, long queueWaitMaxNanos,
            Map<String, ServiceSnapshot> services) {
    }

    /**
     * The counters of one service.
     *
     * @param count requests answered
     * @param faults of them answered with a ServiceFault
     * @param totalNanos summed time from the start of their run to their answer
     * @param maxNanos the longest such time
     */
    public record ServiceSnapshot(String service, long count, long faults, long totalNanos, long maxNanos) {

        ServiceSnapshot plus(ServiceSnapshot other) {
            return new ServiceSnapshot(service, count + other.count, faults + other.faults,
                    totalNanos + other.totalNanos, Math.max(maxNanos, other.maxNanos));
        }
    }

    private static final class ServiceCounters {
        final String name;
        final LongAdder count = new LongAdder();
        final LongAdder faults = new LongAdder();
        final LongAdder totalNanos = new LongAdder();
        final LongAccumulator maxNanos = new LongAccumulator(Math::max, 0);

        ServiceCounters(String name) {
            this.name = name;
        }

        void record(long nanos, boolean fault) {
            count.increment();
            if (fault) {
                faults.increment();
            }
            totalNanos.add(nanos);
            maxNanos.accumulate(nanos);
        }

        ServiceSnapshot snapshot() {
            return new ServiceSnapshot(name, count.sum(), faults.sum(), totalNanos.sum(), maxNanos.get());
        }
    }
}
