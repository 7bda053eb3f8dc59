package dev.opcua.spring.boot.actuate.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.spring.boot.actuate.testing.TestServers;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.redundancy.ServiceLevelStatus;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/** The ServiceLevel as a readiness status: a real server whose level an application contributor sets. */
class OpcUaServiceLevelHealthIndicatorTest {

    private final AtomicReference<ServiceLevelStatus> source = new AtomicReference<>(ServiceLevelStatus.healthy());
    private OpcUaServer server;

    @AfterEach
    void closeServer() {
        if (server != null) {
            server.close();
        }
    }

    private OpcUaServer started() {
        return TestServers.started(TestServers.plant(), b -> b.serviceLevelContributor(source::get));
    }

    @Test
    void a_healthy_and_a_degraded_server_are_UP_with_their_level_band_and_reason() {
        server = started();
        OpcUaServiceLevelHealthIndicator indicator = new OpcUaServiceLevelHealthIndicator(server, 2);

        Health healthy = indicator.health();
        source.set(ServiceLevelStatus.degraded(120, "PLC line 1 slow"));
        Health degraded = indicator.health();

        assertThat(healthy.getStatus()).isEqualTo(Status.UP);
        assertThat(healthy.getDetails()).containsEntry("level", 255).containsEntry("band", "HEALTHY")
                .containsEntry("minimum", 2);
        assertThat(degraded.getStatus()).isEqualTo(Status.UP);
        assertThat(degraded.getDetails()).containsEntry("level", 120).containsEntry("band", "DEGRADED")
                .containsEntry("reason", "PLC line 1 slow");
    }

    @Test
    void a_server_without_data_is_OUT_OF_SERVICE_and_back_UP_when_its_source_returns() {
        server = started();
        OpcUaServiceLevelHealthIndicator indicator = new OpcUaServiceLevelHealthIndicator(server, 2);

        source.set(ServiceLevelStatus.noData("PLC line 1 unreachable"));
        Health noData = indicator.health();
        source.set(ServiceLevelStatus.healthy());
        Health back = indicator.health();

        assertThat(noData.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
        assertThat(noData.getDetails()).containsEntry("level", 1).containsEntry("band", "NO_DATA")
                .containsEntry("reason", "PLC line 1 unreachable");
        assertThat(back.getStatus()).isEqualTo(Status.UP);
    }

    @Test
    void a_higher_minimum_takes_a_degraded_server_out_and_a_stopped_server_is_out_whatever_its_level() {
        server = started();
        source.set(ServiceLevelStatus.degraded(150, "request queue filling"));

        assertThat(new OpcUaServiceLevelHealthIndicator(server, 200).health().getStatus())
                .isEqualTo(Status.OUT_OF_SERVICE);
        server.close();
        assertThat(new OpcUaServiceLevelHealthIndicator(server, 0).health().getStatus())
                .isEqualTo(Status.OUT_OF_SERVICE);
    }

    @Test
    void a_minimum_outside_the_service_level_range_is_refused_naming_it() {
        server = TestServers.builder(TestServers.plant()).build();

        assertThatThrownBy(() -> new OpcUaServiceLevelHealthIndicator(server, 256))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0 to 255").hasMessageContaining("256");
    }
}
