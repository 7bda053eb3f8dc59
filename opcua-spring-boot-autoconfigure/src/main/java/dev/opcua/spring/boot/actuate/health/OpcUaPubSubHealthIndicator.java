package dev.opcua.spring.boot.actuate.health;

import dev.opcua.spring.boot.pubsub.OpcUaPubSubLifecycle;
import dev.opcua.stack.pubsub.runtime.PubSubService;
import dev.opcua.stack.pubsub.runtime.PubSubStatistics;
import java.util.Map;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Health of OPC UA PubSub: UP while every broker connection is up, DOWN before the service started and while a
 * broker is unreachable (the transport keeps reconnecting). Details: {@code connections} (name to connected),
 * {@code messagesSent}, {@code messagesReceived}, {@code messagesDropped}.
 */
public class OpcUaPubSubHealthIndicator extends AbstractHealthIndicator {

    private final OpcUaPubSubLifecycle pubSub;

    public OpcUaPubSubHealthIndicator(OpcUaPubSubLifecycle pubSub) {
        super("OPC UA PubSub health check failed");
        this.pubSub = pubSub;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        PubSubService service = pubSub.getService();
        if (service == null) {
            builder.down().withDetail("state", "not started");
            return;
        }
        Map<String, Boolean> connections = service.connectionStates();
        boolean up = !connections.isEmpty() && connections.values().stream().allMatch(Boolean::booleanValue);
        (up ? builder.up() : builder.down()).withDetail("connections", connections);
        PubSubStatistics statistics = service.statistics();
        builder.withDetail("messagesSent", statistics.messagesSent())
                .withDetail("messagesReceived", statistics.messagesReceived())
                .withDetail("messagesDropped", statistics.messagesDropped());
        if (!up) {
            builder.withDetail("reason", "the MQTT broker is not connected; the transport keeps reconnecting");
        }
    }
}
