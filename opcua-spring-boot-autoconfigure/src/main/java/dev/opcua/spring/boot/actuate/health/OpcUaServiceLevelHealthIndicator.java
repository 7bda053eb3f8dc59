package dev.opcua.spring.boot.actuate.health;

import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.redundancy.ServiceLevelStatus;
import java.util.Objects;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/**
 * The server's ServiceLevel (Part 4, 6.6.2.4.2) as a health status, for a readiness group that should follow it:
 * UP while the level is at least the minimum (by default 2, the lowest Degraded level: a degraded server still
 * serves), OUT_OF_SERVICE below it (Maintenance 0, NoData 1: the server has nothing to serve, e.g. its data sources
 * are gone, or it is shutting down) and while the server does not run. Details: {@code level}, {@code band},
 * {@code reason}, {@code minimum}, and in a redundant set {@code partners}: what the partner monitor last saw of
 * each (reachable, its ServiceLevel and state, a mismatch of ServerUri, NamespaceArray or address space).
 *
 * <p>Not part of any group by default: a redundant pair in Kubernetes adds it to its readiness group
 * ({@code management.endpoint.health.group.readiness.include: readinessState, opcua, opcuaServiceLevel}) so that a
 * Service stops routing to a server its clients would leave anyway.
 */
public class OpcUaServiceLevelHealthIndicator extends AbstractHealthIndicator {

    /** The default minimum: the Degraded band's lowest level. */
    public static final int DEFAULT_MINIMUM = 2;

    private final OpcUaServer server;
    private final int minimum;

    /**
     * @param server the server
     * @param minimum the lowest ServiceLevel reported UP, 0 to 255
     */
    public OpcUaServiceLevelHealthIndicator(OpcUaServer server, int minimum) {
        super("OPC UA ServiceLevel health check failed");
        if (minimum < 0 || minimum > 255) {
            throw new IllegalArgumentException("minimum must be a ServiceLevel from 0 to 255, was " + minimum);
        }
        this.server = Objects.requireNonNull(server, "server");
        this.minimum = minimum;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        ServiceLevelStatus level = server.serviceLevel().assess();
        boolean serving = server.isRunning() && level.level() >= minimum;
        builder.status(serving ? Status.UP : Status.OUT_OF_SERVICE)
                .withDetail("level", level.level())
                .withDetail("band", level.band().name())
                .withDetail("reason", level.reason())
                .withDetail("minimum", minimum);
        dev.opcua.stack.server.redundancy.PartnerMonitor monitor = server.partnerMonitor();
        if (monitor != null) {
            java.util.List<java.util.Map<String, Object>> partners = new java.util.ArrayList<>();
            for (dev.opcua.stack.server.redundancy.PartnerStatus partner : monitor.partners()) {
                java.util.Map<String, Object> detail = new java.util.LinkedHashMap<>();
                detail.put("serverUri", partner.serverUri());
                detail.put("endpointUrl", partner.endpointUrl());
                detail.put("reachable", partner.reachable());
                detail.put("serviceLevel", partner.serviceLevel());
                detail.put("state", partner.state().name());
                if (partner.mismatch() != null) {
                    detail.put("mismatch", partner.mismatch());
                }
                if (partner.problem() != null) {
                    detail.put("problem", partner.problem());
                }
                partners.add(detail);
            }
            builder.withDetail("partners", partners);
        }
    }
}
