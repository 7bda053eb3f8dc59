package dev.opcua.spring.boot.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.actuate.health.OpcUaServerHealthIndicator;
import dev.opcua.spring.boot.actuate.health.OpcUaServiceLevelHealthIndicator;
import dev.opcua.spring.boot.autoconfigure.server.OpcUaServerAutoConfiguration;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.redundancy.ServiceLevelContributor;
import dev.opcua.stack.server.redundancy.ServiceLevelStatus;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class OpcUaServerHealthAutoConfigurationTest {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaServerAutoConfiguration.class,
                    OpcUaServerHealthAutoConfiguration.class))
            .withPropertyValues("opcua.server.port=0", "opcua.server.bind-address=127.0.0.1");

    @Test
    void registers_the_opcua_health_indicator_which_reports_the_started_server_UP() {
        contextRunner.run(context -> {
            assertThat(context).hasSingleBean(OpcUaServerHealthIndicator.class).hasBean("opcuaHealthIndicator");
            Health health = context.getBean(OpcUaServerHealthIndicator.class).health();
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("state", "RUNNING").containsKey("endpoints");
        });
    }

    @Test
    void the_indicator_reports_DOWN_once_the_context_stopped_the_server() {
        contextRunner.run(context -> {
            OpcUaServerHealthIndicator indicator = context.getBean(OpcUaServerHealthIndicator.class);
            context.stop();
            assertThat(indicator.health().getStatus()).isEqualTo(Status.DOWN);
        });
    }

    @Test
    void is_not_registered_when_the_opcua_health_indicator_is_disabled() {
        contextRunner.withPropertyValues("management.health.opcua.enabled=false")
                .run(context -> assertThat(context).hasSingleBean(OpcUaServer.class)
                        .doesNotHaveBean(OpcUaServerHealthIndicator.class));
    }

    @Test
    void is_not_registered_when_default_health_indicators_are_disabled() {
        contextRunner.withPropertyValues("management.health.defaults.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(OpcUaServerHealthIndicator.class));
    }

    @Test
    void backs_off_without_spring_boot_health_on_the_classpath() {
        contextRunner.withClassLoader(new FilteredClassLoader(AbstractHealthIndicator.class))
                .run(context -> assertThat(context).hasSingleBean(OpcUaServer.class)
                        .doesNotHaveBean(OpcUaServerHealthIndicator.class));
    }

    @Test
    void backs_off_when_the_server_is_disabled() {
        contextRunner.withPropertyValues("opcua.server.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(OpcUaServerHealthIndicator.class));
    }

    @Test
    void an_application_indicator_named_opcuaHealthIndicator_replaces_the_auto_configured_one() {
        HealthIndicator own = () -> Health.up().withDetail("own", true).build();
        contextRunner.withBean("opcuaHealthIndicator", HealthIndicator.class, () -> own)
                .run(context -> {
                    assertThat(context).doesNotHaveBean(OpcUaServerHealthIndicator.class);
                    assertThat(context.getBean("opcuaHealthIndicator")).isSameAs(own);
                });
    }

    @Test
    void service_level_contributor_beans_lower_the_service_level_and_take_the_server_out_of_opcuaServiceLevel() {
        contextRunner.withBean("plcLine1", ServiceLevelContributor.class,
                        () -> () -> ServiceLevelStatus.noData("PLC line 1 unreachable"))
                .withPropertyValues("opcua.server.redundancy.readiness-min-service-level=2")
                .run(context -> {
                    OpcUaServer server = context.getBean(OpcUaServer.class);
                    assertThat(server.serviceLevel().assess().reason()).isEqualTo("PLC line 1 unreachable");
                    assertThat(context).hasBean("opcuaServiceLevelHealthIndicator");
                    Health health = context.getBean(OpcUaServiceLevelHealthIndicator.class).health();
                    assertThat(health.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
                    assertThat(health.getDetails()).containsEntry("level", 1).containsEntry("minimum", 2);
                });
    }

    @Test
    void a_readiness_minimum_outside_0_to_255_stops_the_start() {
        contextRunner.withPropertyValues("opcua.server.redundancy.readiness-min-service-level=300")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("readinessMinServiceLevel"));
    }
}
