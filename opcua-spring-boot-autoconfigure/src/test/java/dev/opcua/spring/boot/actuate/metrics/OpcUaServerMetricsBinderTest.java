package dev.opcua.spring.boot.actuate.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.actuate.testing.TestServers;
import dev.opcua.spring.boot.server.OpcUaServerStartedEvent;
import dev.opcua.stack.server.OpcUaServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.context.support.GenericApplicationContext;

/** When the binder registers the meters and when it removes them. */
class OpcUaServerMetricsBinderTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final OpcUaServer server = TestServers.builder(TestServers.plant()).build();
    private final OpcUaServerMetricsBinder binder = new OpcUaServerMetricsBinder(server, registry);

    @Test
    void binds_when_its_server_has_started_and_unbinds_when_destroyed() {
        binder.onApplicationEvent(new OpcUaServerStartedEvent(server, 4840));
        assertThat(binder.isBound()).isTrue();
        assertThat(registry.find("opcua.server.sessions").gauge()).isNotNull();

        binder.destroy();

        assertThat(binder.isBound()).isFalse();
        assertThat(registry.getMeters()).isEmpty();
    }

    @Test
    void ignores_the_start_of_another_server() {
        OpcUaServer other = TestServers.builder(TestServers.plant()).build();

        binder.onApplicationEvent(new OpcUaServerStartedEvent(other, 4841));

        assertThat(binder.isBound()).isFalse();
        assertThat(registry.getMeters()).isEmpty();
    }

    @Test
    void binds_at_application_start_for_a_server_started_another_way_and_only_once() {
        try (GenericApplicationContext context = new GenericApplicationContext()) {
            ApplicationStartedEvent started = new ApplicationStartedEvent(new SpringApplication(), new String[0],
                    context, Duration.ZERO);
            binder.onApplicationEvent(started);
            binder.onApplicationEvent(new OpcUaServerStartedEvent(server, 4840));
            binder.onApplicationEvent(started);
        }

        assertThat(registry.get("opcua.server.sessions").gauges()).hasSize(1);
        assertThat(binder.supportsEventType(ApplicationStartedEvent.class)).isTrue();
        assertThat(binder.supportsEventType(OpcUaServerStartedEvent.class)).isTrue();
    }
}
