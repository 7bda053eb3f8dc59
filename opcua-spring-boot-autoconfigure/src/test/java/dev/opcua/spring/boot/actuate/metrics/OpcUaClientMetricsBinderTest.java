package dev.opcua.spring.boot.actuate.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.client.OpcUaClients;
import dev.opcua.stack.client.OpcUaClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.context.event.ContextRefreshedEvent;
import org.springframework.context.support.GenericApplicationContext;

/** When the client binder registers the meters of every connection and when it removes them. */
class OpcUaClientMetricsBinderTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final OpcUaClient plant = OpcUaClient.create("opc.tcp://127.0.0.1:4840/");
    private final OpcUaClient line2 = OpcUaClient.create("opc.tcp://127.0.0.1:4841/");
    private final OpcUaClientMetricsBinder binder = new OpcUaClientMetricsBinder(clients(), registry);

    private OpcUaClients clients() {
        Map<String, OpcUaClient> clients = new LinkedHashMap<>();
        clients.put("plant", plant);
        clients.put("line2", line2);
        return new OpcUaClients(clients);
    }

    @AfterEach
    void close() {
        plant.close();
        line2.close();
    }

    @Test
    void binds_every_connection_once_the_context_is_refreshed_and_unbinds_when_destroyed() {
        try (GenericApplicationContext context = new GenericApplicationContext()) {
            binder.onApplicationEvent(new ContextRefreshedEvent(context));
        }
        assertThat(binder.isBound()).isTrue();
        assertThat(registry.get("opcua.client.session.state").gauges()).hasSize(2);
        assertThat(registry.get("opcua.client.session.state").tag("connection", "line2").gauge()).isNotNull();

        binder.destroy();

        assertThat(binder.isBound()).isFalse();
        assertThat(registry.getMeters()).isEmpty();
    }

    @Test
    void binds_only_once_when_the_application_start_follows_the_refresh() {
        try (GenericApplicationContext context = new GenericApplicationContext()) {
            binder.onApplicationEvent(new ContextRefreshedEvent(context));
            binder.onApplicationEvent(new ApplicationStartedEvent(new SpringApplication(), new String[0], context,
                    Duration.ZERO));
        }

        assertThat(registry.get("opcua.client.reconnects").functionCounters()).hasSize(2);
        assertThat(binder.supportsEventType(ContextRefreshedEvent.class)).isTrue();
        assertThat(binder.supportsEventType(ApplicationStartedEvent.class)).isTrue();
    }

    @Test
    void registers_nothing_before_the_application_started() {
        assertThat(binder.isBound()).isFalse();
        assertThat(registry.getMeters()).isEmpty();
    }
}
