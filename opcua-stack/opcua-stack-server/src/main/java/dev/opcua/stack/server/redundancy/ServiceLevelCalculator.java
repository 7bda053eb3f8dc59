package dev.opcua.stack.server.redundancy;

import dev.opcua.stack.core.types.enumerated.ServerState;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;

/**
 * The server's ServiceLevel (Part 5, 6.3.1 ServerType.ServiceLevel; sub-ranges of Part 4, 6.6.2.4.2, Table 103),
 * computed on every read as the lowest of:
 * <ul>
 *   <li>0 (Maintenance) when ServerState is not Running: an announced shutdown (the drain has started, clients
 *       shall leave) or a stopped server;</li>
 *   <li>Degraded from {@value #QUEUE_DEGRADED_TOP} down to {@value #QUEUE_FULL_LEVEL} as the request queue fills
 *       from half to full (MaxQueuedRequestCount): a saturated server answers late or refuses;</li>
 *   <li>each {@link ServiceLevelContributor} of the application (data sources down);</li>
 *   <li>the manual {@link #set override} of an operator or a test, a ceiling until {@link #clear() cleared};</li>
 *   <li>255 (Healthy) otherwise.</li>
 * </ul>
 * All servers of a redundant set must use the same algorithm (Part 4, 6.6.2.4.2); this one depends on nothing but
 * the server's own state, so servers built from the same application agree.
 *
 * <p>Thread-safe; reading costs the contributors' answers and two counters, no lock.
 */
public final class ServiceLevelCalculator {

    /** The level of a request queue filled completely. */
    public static final int QUEUE_FULL_LEVEL = 100;
    /** The level of a request queue just over half full. */
    public static final int QUEUE_DEGRADED_TOP = 199;
    /** The fill of the request queue from which the level degrades. */
    public static final double QUEUE_DEGRADED_FROM = 0.5;
    /** The level of {@link #degrade(String)}. */
    public static final int MANUAL_DEGRADED_LEVEL = 100;
    /** The level a contributor that throws stands for: it cannot tell, so the server is not sure either. */
    public static final int FAILED_CHECK_LEVEL = 100;

    private final Supplier<ServerState> state;
    private final DoubleSupplier queueFill;
    private final List<ServiceLevelContributor> contributors = new CopyOnWriteArrayList<>();
    private volatile ServiceLevelStatus override;

    /**
     * @param state the ServerState now (Running, Shutdown ...)
     * @param queueFill the request queue's fill now, queued / MaxQueuedRequestCount, 0 before start
     * @param contributors the application's health checks
     */
    public ServiceLevelCalculator(Supplier<ServerState> state, DoubleSupplier queueFill,
            List<ServiceLevelContributor> contributors) {
        this.state = Objects.requireNonNull(state, "state");
        this.queueFill = Objects.requireNonNull(queueFill, "queueFill");
        this.contributors.addAll(contributors);
    }

    /** The ServiceLevel now, 0..255. */
    public short level() {
        return (short) assess().level();
    }

    /** The ServiceLevel now with the reason of the lowest contribution. */
    public ServiceLevelStatus assess() {
        ServerState now = state.get();
        if (now != ServerState.Running) {
            return ServiceLevelStatus.maintenance("ServerState is " + now
                    + (now == ServerState.Shutdown ? ": the server is shutting down or stopped" : ""));
        }
        ServiceLevelStatus lowest = ServiceLevelStatus.OK;
        lowest = lower(lowest, queue(queueFill.getAsDouble()));
        for (ServiceLevelContributor contributor : contributors) {
            ServiceLevelStatus status;
            try {
                status = contributor.assess();
            } catch (RuntimeException e) {
                status = new ServiceLevelStatus(FAILED_CHECK_LEVEL, "health check " + contributor + " failed: " + e);
            }
            lowest = lower(lowest, status);
        }
        return lower(lowest, override);
    }

    /** The contribution of the request queue at {@code fill} (0..1). */
    static ServiceLevelStatus queue(double fill) {
        if (!(fill >= QUEUE_DEGRADED_FROM)) { // NaN too
            return ServiceLevelStatus.OK;
        }
        double over = Math.min(1.0, (fill - QUEUE_DEGRADED_FROM) / (1.0 - QUEUE_DEGRADED_FROM));
        int level = (int) Math.round(QUEUE_DEGRADED_TOP - over * (QUEUE_DEGRADED_TOP - QUEUE_FULL_LEVEL));
        return ServiceLevelStatus.degraded(level,
                "the request queue is " + Math.round(Math.min(fill, 1.0) * 100) + "% full");
    }

    private static ServiceLevelStatus lower(ServiceLevelStatus a, ServiceLevelStatus b) {
        return b == null || a.level() <= b.level() ? a : b;
    }

    /** Adds a health check of the application, asked from the next read on. */
    public void addContributor(ServiceLevelContributor contributor) {
        contributors.add(Objects.requireNonNull(contributor, "contributor"));
    }

    /**
     * Caps the ServiceLevel at {@code level} until {@link #clear()}: for operators (take a server out of service
     * with 0 before maintenance, degrade it to move clients to the partner) and tests. A ceiling, not a value: a
     * server degraded by its own state is not declared healthy by an override.
     *
     * @throws IllegalArgumentException when {@code level} is outside 0..255
     */
    public void set(int level, String reason) {
        override = new ServiceLevelStatus(level, reason == null ? "set by the operator" : reason);
    }

    /** Caps the ServiceLevel at {@value #MANUAL_DEGRADED_LEVEL} (Degraded) with {@code reason}. */
    public void degrade(String reason) {
        set(MANUAL_DEGRADED_LEVEL, reason == null ? "degraded by the operator" : reason);
    }

    /** Removes the override: the ServiceLevel is the computed one again. */
    public void clear() {
        override = null;
    }

    /** The override in force, or null. */
    public ServiceLevelStatus override() {
        return override;
    }
}
