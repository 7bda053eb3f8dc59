package dev.opcua.spring.boot.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.actuate.health.OpcUaClientHealthIndicator;
import dev.opcua.spring.boot.autoconfigure.client.OpcUaClientAutoConfiguration;
import dev.opcua.stack.client.OpcUaClient;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.autoconfigure.registry.HealthContributorRegistryAutoConfiguration;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.health.registry.HealthContributorRegistry;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class OpcUaClientHealthAutoConfigurationTest {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaClientAutoConfiguration.class,
                    OpcUaClientHealthAutoConfiguration.class))
            .withPropertyValues("opcua.client.connections.plant.endpoint-url=opc.tcp://127.0.0.1:4840/",
                    "opcua.client.connections.plant.connect-on-start=false",
                    "opcua.client.connections.line2.endpoint-url=opc.tcp://127.0.0.1:4841/",
                    "opcua.client.connections.line2.connect-on-start=false");

    @Test
    void registers_one_indicator_per_connection_under_the_opcuaClients_composite() {
        contextRunner.run(context -> {
            assertThat(context).hasBean("opcuaClientsHealthContributor");
            CompositeHealthContributor composite = context.getBean("opcuaClientsHealthContributor",
                    CompositeHealthContributor.class);
            assertThat(composite.getContributor("plant")).isInstanceOf(OpcUaClientHealthIndicator.class);
            assertThat(composite.getContributor("line2")).isInstanceOf(OpcUaClientHealthIndicator.class);
            Health plant = ((HealthIndicator) composite.getContributor("plant")).health();
            assertThat(plant.getStatus()).isEqualTo(Status.DOWN);
            assertThat(plant.getDetails()).containsEntry("state", "DISCONNECTED");
        });
    }

    @Test
    void the_composite_is_the_opcuaClients_component_of_the_health_endpoint() {
        contextRunner.withConfiguration(AutoConfigurations.of(HealthContributorAutoConfiguration.class,
                        HealthContributorRegistryAutoConfiguration.class))
                .run(context -> {
                    HealthContributor contributor = context.getBean(HealthContributorRegistry.class)
                            .getContributor("opcuaClients");
                    assertThat(contributor).isInstanceOf(CompositeHealthContributor.class);
                    assertThat(((CompositeHealthContributor) contributor).getContributor("plant")).isNotNull();
                });
    }

    @Test
    void is_not_registered_without_client_connections() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(OpcUaClientAutoConfiguration.class,
                        OpcUaClientHealthAutoConfiguration.class))
                .run(context -> assertThat(context).doesNotHaveBean("opcuaClientsHealthContributor"));
    }

    @Test
    void is_not_registered_when_the_indicator_is_disabled() {
        contextRunner.withPropertyValues("management.health.opcua-clients.enabled=false")
                .run(context -> assertThat(context).hasBean("plantOpcUaClient")
                        .doesNotHaveBean("opcuaClientsHealthContributor"));
    }

    @Test
    void is_not_registered_when_default_health_indicators_are_disabled() {
        contextRunner.withPropertyValues("management.health.defaults.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean("opcuaClientsHealthContributor"));
    }

    @Test
    void backs_off_without_spring_boot_health_on_the_classpath() {
        contextRunner.withClassLoader(new FilteredClassLoader(AbstractHealthIndicator.class))
                .run(context -> assertThat(context).hasBean("plantOpcUaClient")
                        .doesNotHaveBean("opcuaClientsHealthContributor"));
    }

    @Test
    void backs_off_when_the_clients_are_disabled() {
        contextRunner.withPropertyValues("opcua.client.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(OpcUaClient.class)
                        .doesNotHaveBean("opcuaClientsHealthContributor"));
    }

    @Test
    void an_application_contributor_named_opcuaClientsHealthContributor_replaces_the_auto_configured_one() {
        HealthIndicator own = () -> Health.up().withDetail("own", true).build();
        contextRunner.withBean("opcuaClientsHealthContributor", HealthIndicator.class, () -> own)
                .run(context -> assertThat(context.getBean("opcuaClientsHealthContributor")).isSameAs(own));
    }
}
