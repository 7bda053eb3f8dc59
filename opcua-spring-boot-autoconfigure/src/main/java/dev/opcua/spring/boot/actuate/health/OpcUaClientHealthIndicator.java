package dev.opcua.spring.boot.actuate.health;

import dev.opcua.spring.boot.client.OpcUaClientSnapshot;
import dev.opcua.stack.client.OpcUaClient;
import java.util.Objects;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Health of one {@link OpcUaClient} connection: UP while it has an active session (CONNECTED), DOWN while
 * it is CONNECTING, RECONNECTING or DISCONNECTED, with the error that took it there. Reading it sends
 * nothing to the server: the client's own keep-alive and Publish traffic tell when the connection is lost.
 *
 * <p>Details: {@code state}, {@code endpointUrl}, {@code reconnects}; when UP also {@code securityPolicy},
 * {@code securityMode} and {@code sessionId}; when DOWN {@code lastError} if there was one.
 */
public class OpcUaClientHealthIndicator extends AbstractHealthIndicator {

    private final OpcUaClient client;

    public OpcUaClientHealthIndicator(OpcUaClient client) {
        super("OPC UA client health check failed");
        this.client = Objects.requireNonNull(client, "client");
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
        }
        builder.withDetail("reconnects", snapshot.reconnects());
    }

    /** Health details may not be null; a value the client does not have (yet) is left out. */
    private static void detail(Health.Builder builder, String key, String value) {
        if (value != null) {
            builder.withDetail(key, value);
        }
    }
}
