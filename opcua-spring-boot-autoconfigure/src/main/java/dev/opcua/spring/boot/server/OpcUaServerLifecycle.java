package dev.opcua.spring.boot.server;

import dev.opcua.stack.server.OpcUaServer;
import java.time.Duration;
import java.util.Objects;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.SmartLifecycle;

/**
 * Starts an {@link OpcUaServer} late in the application context's start-up, once every other bean is
 * ready, publishes {@link OpcUaServerStartedEvent} with the bound port, and stops the server early in
 * shutdown. With a shutdown delay the stop is graceful (Part 5, 6.3.1): the server announces it,
 * counts SecondsTillShutdown down so that clients can leave, then closes; the countdown runs on a
 * thread of its own, so that the context stops other beans of the same phase meanwhile. A delay longer
 * than {@code spring.lifecycle.timeout-per-shutdown-phase} (30 s by default) is cut short by the context.
 *
 * <p>From the first moment of a stop the application refuses traffic: the lifecycle publishes
 * {@link ReadinessState#REFUSING_TRAFFIC} before the announcement, so that a readiness probe fails while
 * the server counts down (Kubernetes takes the pod out of its Services), whatever kind of context stops
 * it; liveness is left alone. Started again after such a stop, it publishes
 * {@link ReadinessState#ACCEPTING_TRAFFIC}; the first start leaves that to Spring Boot, which accepts
 * traffic once the application is ready.
 */
public class OpcUaServerLifecycle implements SmartLifecycle {

    /** Starts after the embedded web server and stops before its graceful shutdown begins. */
    public static final int DEFAULT_PHASE = SmartLifecycle.DEFAULT_PHASE - 512;

    private static final Log log = LogFactory.getLog(OpcUaServerLifecycle.class);

    private final OpcUaServer server;
    private final Duration shutdownDelay;
    private final ApplicationEventPublisher eventPublisher;
    /** How long the server is expected to be away after a stop; null when not known. */
    private final Duration expectedDowntime;
    /** Whether a stop refused traffic, so that a later start accepts it again. */
    private volatile boolean refusedTraffic;

    /**
     * @param shutdownDelay how long the server announces its shutdown before it closes; zero closes at once
     */
    public OpcUaServerLifecycle(OpcUaServer server, Duration shutdownDelay, ApplicationEventPublisher eventPublisher) {
        this(server, shutdownDelay, null, eventPublisher);
    }

    /**
     * @param shutdownDelay how long the server announces its shutdown before it closes; zero closes at once
     * @param expectedDowntime how long the server is expected to be away once stopped (a restart, an upgrade):
     *        during the announced shutdown Server.EstimatedReturnTime (Part 5, 6.3.1) shows the stop's end plus
     *        this; null when not known
     */
    public OpcUaServerLifecycle(OpcUaServer server, Duration shutdownDelay, Duration expectedDowntime,
            ApplicationEventPublisher eventPublisher) {
        this.expectedDowntime = expectedDowntime;
        this.server = Objects.requireNonNull(server, "server");
        this.shutdownDelay = Objects.requireNonNull(shutdownDelay, "shutdownDelay");
        this.eventPublisher = Objects.requireNonNull(eventPublisher, "eventPublisher");
        if (shutdownDelay.isNegative()) {
            throw new IllegalArgumentException("shutdownDelay must not be negative, was " + shutdownDelay);
        }
    }

    @Override
    public void start() {
        if (server.isRunning()) {
            return;
        }
        server.start();
        eventPublisher.publishEvent(new OpcUaServerStartedEvent(server, server.port()));
        if (refusedTraffic) {
            refusedTraffic = false;
            AvailabilityChangeEvent.publish(eventPublisher, this, ReadinessState.ACCEPTING_TRAFFIC);
        }
    }

    @Override
    public void stop() {
        if (server.isRunning()) {
            refuseTraffic();
            close();
        }
    }

    @Override
    public void stop(Runnable callback) {
        if (!server.isRunning()) {
            callback.run();
            return;
        }
        refuseTraffic(); // before the countdown thread starts: the probe fails from now on
        if (shutdownDelay.isZero()) {
            try {
                close();
            } finally {
                callback.run();
            }
            return;
        }
        Thread countdown = new Thread(() -> {
            try {
                close();
            } finally {
                callback.run();
            }
        }, "opcua-server-shutdown");
        countdown.start();
    }

    private void refuseTraffic() {
        refusedTraffic = true;
        AvailabilityChangeEvent.publish(eventPublisher, this, ReadinessState.REFUSING_TRAFFIC);
    }

    private void close() {
        log.info("Stopping OPC UA server " + server.endpointUrl() + " (state " + server.serverStatus().state()
                + ", " + sessionCount() + " sessions)"
                + (shutdownDelay.isZero() ? "" : ", announcing the shutdown for " + shutdownDelay));
        if (shutdownDelay.isZero()) {
            server.close();
        } else {
            server.close(shutdownDelay, "application context closing", expectedDowntime == null ? null
                    : java.time.Instant.now().plus(shutdownDelay).plus(expectedDowntime));
        }
        log.info("OPC UA server stopped (state " + server.serverStatus().state() + ")");
    }

    private int sessionCount() {
        return server.statistics().currentSessions();
    }

    @Override
    public boolean isRunning() {
        return server.isRunning();
    }

    @Override
    public int getPhase() {
        return DEFAULT_PHASE;
    }
}
