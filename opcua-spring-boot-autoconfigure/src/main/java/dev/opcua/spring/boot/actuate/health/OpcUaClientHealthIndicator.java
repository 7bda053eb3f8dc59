package dev.opcua.spring.boot.actuate.health;

import dev.opcua.spring.boot.client.OpcUaClientSnapshot;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.redundancy.RedundancyStatus;
import dev.opcua.stack.client.redundancy.RedundantServer;
import dev.opcua.stack.client.transport.ReverseConnectListener;
import dev.opcua.stack.client.transport.ReverseConnectListenerStatistics;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Health of one {@link OpcUaClient} connection: UP while it has an active session (CONNECTED), DOWN while
 * it is CONNECTING, RECONNECTING or DISCONNECTED, with the error that took it there. Reading it sends
 * nothing to the server: the client's own keep-alive and Publish traffic tell when the connection is lost.
 *
 * <p>Details: {@code state}, {@code endpointUrl}, {@code reconnects}; when UP also {@code securityPolicy},
 * {@code securityMode} and {@code sessionId}; when DOWN {@code lastError} if there was one. With reverse connect
 * (Part 6, 7.1.3) also {@code reverseConnect}: the port listened on, the ServerUri expected and what the listener
 * did, so that a client waiting in vain shows why (servers refused for another ServerUri or endpoint, or none
 * dialling at all).
 */
public class OpcUaClientHealthIndicator extends AbstractHealthIndicator {

    private final OpcUaClient client;
    private final ReverseConnectListener reverseConnectListener;

    public OpcUaClientHealthIndicator(OpcUaClient client) {
        this(client, null);
    }

    /** @param reverseConnectListener the listener the client waits on for its server; null when it dials */
    public OpcUaClientHealthIndicator(OpcUaClient client, ReverseConnectListener reverseConnectListener) {
        super("OPC UA client health check failed");
        this.client = Objects.requireNonNull(client, "client");
        this.reverseConnectListener = reverseConnectListener;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        OpcUaClientSnapshot snapshot = OpcUaClientSnapshot.of(client);
        builder.withDetail("state", snapshot.state()).withDetail("endpointUrl", snapshot.endpointUrl());
        if (snapshot.connected()) {
            builder.up();
            detail(builder, "securityPolicy", snapshot.securityPolicy());
            detail(builder, "securityMode", snapshot.securityMode());
            detail(builder, "sessionId", snapshot.sessionId());
        } else {
            builder.down();
            detail(builder, "lastError", snapshot.lastError());
            if (snapshot.lastErrorAt() != null) {
                builder.withDetail("lastErrorAt", snapshot.lastErrorAt().toString());
            }
        }
        builder.withDetail("reconnects", snapshot.reconnects());
        RedundancyStatus redundancy = client.redundancy();
        if (redundancy != null) {
            builder.withDetail("activeServer", redundancy.activeServer());
            builder.withDetail("redundancy", redundancy(redundancy));
        }
        if (reverseConnectListener != null) {
            builder.withDetail("reverseConnect", reverseConnect());
        }
    }

    /** Part 4, 6.6.2.4: the mode, each server of the set with its last ServiceLevel, and the failovers. */
    private static Map<String, Object> redundancy(RedundancyStatus status) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("mode", status.mode().name());
        List<Map<String, Object>> servers = new ArrayList<>();
        for (RedundantServer s : status.servers()) {
            Map<String, Object> server = new LinkedHashMap<>();
            server.put("endpointUrl", s.endpointUrl());
            if (s.serverUri() != null) {
                server.put("serverUri", s.serverUri());
            }
            server.put("serviceLevel", s.serviceLevel());
            server.put("reachable", s.reachable());
            server.put("active", s.active());
            servers.add(server);
        }
        details.put("servers", servers);
        details.put("failovers", status.failovers());
        if (status.lastFailoverDuration() != null) {
            details.put("lastFailoverMillis", status.lastFailoverDuration().toMillis());
        }
        details.put("notificationsPossiblyLost", status.notificationsPossiblyLost());
        return details;
    }

    private Map<String, Object> reverseConnect() {
        ReverseConnectListenerStatistics statistics = reverseConnectListener.statistics();
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("listenPort", reverseConnectListener.port());
        String serverUri = client.config().reverseConnectServerUri();
        if (serverUri != null) {
            details.put("serverUri", serverUri);
        }
        details.put("connections", statistics.connections());
        details.put("accepted", statistics.accepted());
        details.put("refused", statistics.refused());
        details.put("timedOut", statistics.timedOut());
        details.put("dropped", statistics.dropped());
        details.put("held", statistics.held());
        return details;
    }

    /** Health details may not be null; a value the client does not have (yet) is left out. */
    private static void detail(Health.Builder builder, String key, String value) {
        if (value != null) {
            builder.withDetail(key, value);
        }
    }
}
