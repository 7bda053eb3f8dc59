package dev.opcua.spring.boot.autoconfigure.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.actuate.health.OpcUaServerHealthIndicator;
import dev.opcua.spring.boot.autoconfigure.diagnostics.StartupFailures;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.redundancy.RedundancyMode;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** {@code opcua.server.redundancy.*}: a Hot pair's server, and the properties it refuses with their keys. */
class OpcUaServerRedundancyPropertiesTest {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaServerAutoConfiguration.class))
            .withPropertyValues("opcua.server.port=0", "opcua.server.bind-address=127.0.0.1",
                    "opcua.server.application-uri=urn:test:pair:a");

    @Test
    void a_hot_pair_publishes_its_set_and_reports_service_level_in_health() {
        contextRunner.withPropertyValues("opcua.server.redundancy.mode=hot",
                "opcua.server.redundancy.partners[0].server-uri=urn:test:pair:b",
                "opcua.server.redundancy.partners[0].endpoint-url=opc.tcp://host-b:4842").run(context -> {
                    assertThat(context).hasNotFailed();
                    OpcUaServer server = context.getBean(OpcUaServer.class);
                    assertThat(server.config().redundancy().mode()).isEqualTo(RedundancyMode.Hot);
                    assertThat(server.redundancy().serverUris()).containsExactly("urn:test:pair:a", "urn:test:pair:b");

                    server.serviceLevel().degrade("test");
                    Health health = new OpcUaServerHealthIndicator(server).health();
                    assertThat(health.getDetails().get("serviceLevel"))
                            .isEqualTo(Map.of("level", 100, "band", "DEGRADED", "reason", "test"));
                    assertThat(health.getDetails().get("redundancy")).isEqualTo(Map.of("mode", "Hot",
                            "serverUris", List.of("urn:test:pair:a", "urn:test:pair:b"),
                            "partners", List.of(Map.of("serverUri", "urn:test:pair:b",
                                    "endpointUrl", "opc.tcp://host-b:4842"))));
                });
    }

    @Test
    void a_stand_alone_server_reports_mode_none() {
        contextRunner.run(context -> {
            OpcUaServer server = context.getBean(OpcUaServer.class);
            Health health = new OpcUaServerHealthIndicator(server).health();
            assertThat(health.getDetails().get("redundancy")).isEqualTo(Map.of("mode", "None"));
            assertThat(health.getDetails().get("serviceLevel"))
                    .isEqualTo(Map.of("level", 255, "band", "HEALTHY", "reason", "healthy"));
        });
    }

    @Test
    void a_partner_with_this_servers_own_uri_is_refused_naming_its_key() {
        assertFailure(analysis -> assertThat(analysis.getDescription())
                        .contains("Property: opcua.server.redundancy.partners[0].server-uri")
                        .contains("urn:test:pair:a").contains("a pair configured with itself"),
                "opcua.server.redundancy.mode=warm",
                "opcua.server.redundancy.partners[0].server-uri=urn:test:pair:a",
                "opcua.server.redundancy.partners[0].endpoint-url=opc.tcp://host-b:4842");
    }

    @Test
    void a_partner_without_an_endpoint_is_refused_naming_its_key() {
        assertFailure(analysis -> assertThat(analysis.getDescription())
                        .contains("Property: opcua.server.redundancy.partners[0].endpoint-url"),
                "opcua.server.redundancy.mode=hot",
                "opcua.server.redundancy.partners[0].server-uri=urn:test:pair:b");
    }

    @Test
    void a_redundant_mode_without_partners_and_hot_and_mirrored_without_a_store_are_refused_naming_their_keys() {
        assertFailure(analysis -> assertThat(analysis.getDescription())
                        .contains("Property: opcua.server.redundancy.partners").contains("at least one partner"),
                "opcua.server.redundancy.mode=cold");
        assertFailure(analysis -> assertThat(analysis.getDescription())
                        .contains("Property: opcua.server.redundancy.state-store").contains("HotAndMirrored"),
                "opcua.server.redundancy.mode=hot-and-mirrored",
                "opcua.server.redundancy.partners[0].server-uri=urn:test:pair:b",
                "opcua.server.redundancy.partners[0].endpoint-url=opc.tcp://host-b:4842");
    }

    @Test
    void a_mirror_interval_out_of_range_is_refused_naming_its_key() {
        assertFailure(analysis -> assertThat(analysis.getDescription())
                        .contains("Property: opcua.server.redundancy.state-store.mirror-interval")
                        .contains("1 ms to 1 min"),
                "opcua.server.redundancy.mode=hot-and-mirrored",
                "opcua.server.redundancy.state-store.mirror-interval=0ms",
                "opcua.server.redundancy.partners[0].server-uri=urn:test:pair:b",
                "opcua.server.redundancy.partners[0].endpoint-url=opc.tcp://host-b:4842");
    }

    @Test
    void a_standby_window_out_of_range_is_refused_naming_its_key() {
        assertFailure(analysis -> assertThat(analysis.getDescription())
                        .contains("Property: opcua.server.redundancy.state-store.standby-window")
                        .contains("0 (no standby sampling) to 10 min"),
                "opcua.server.redundancy.mode=hot-and-mirrored",
                "opcua.server.redundancy.state-store.standby-window=11m",
                "opcua.server.redundancy.partners[0].server-uri=urn:test:pair:b",
                "opcua.server.redundancy.partners[0].endpoint-url=opc.tcp://host-b:4842");
    }

    @Test
    void a_partner_at_this_servers_own_endpoint_is_refused_naming_its_key() {
        assertFailure(analysis -> assertThat(analysis.getDescription())
                        .contains("Property: opcua.server.redundancy.partners[0].endpoint-url")
                        .contains("opc.tcp://localhost:48411").contains("a pair configured with itself"),
                "opcua.server.port=48411",
                "opcua.server.redundancy.mode=hot",
                "opcua.server.redundancy.partners[0].server-uri=urn:test:pair:b",
                "opcua.server.redundancy.partners[0].endpoint-url=opc.tcp://localhost:48411/");
    }

    @Test
    void a_partner_monitor_interval_out_of_range_is_refused_naming_its_key() {
        assertFailure(analysis -> assertThat(analysis.getDescription())
                        .contains("Property: opcua.server.redundancy.partner-monitor.interval")
                        .contains("100 ms to 1 h"),
                "opcua.server.redundancy.mode=hot",
                "opcua.server.redundancy.partner-monitor.interval=10ms",
                "opcua.server.redundancy.partners[0].server-uri=urn:test:pair:b",
                "opcua.server.redundancy.partners[0].endpoint-url=opc.tcp://host-b:4842");
    }

    private void assertFailure(Consumer<FailureAnalysis> analysis, String... properties) {
        contextRunner.withPropertyValues(properties).run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis result = StartupFailures.analyze(context.getStartupFailure());
            assertThat(result).as("analysis of %s", context.getStartupFailure()).isNotNull();
            analysis.accept(result);
        });
    }
}
