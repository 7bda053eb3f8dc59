package dev.opcua.spring.boot.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.actuate.metrics.OpcUaClientMetricsBinder;
import dev.opcua.spring.boot.actuate.metrics.OpcUaClientPublishLatency;
import dev.opcua.spring.boot.autoconfigure.client.OpcUaClientAutoConfiguration;
import dev.opcua.spring.boot.client.OpcUaClients;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.services.RequestObserver;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

class OpcUaClientMetricsAutoConfigurationTest {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
                    SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
                    OpcUaClientAutoConfiguration.class, OpcUaClientMetricsAutoConfiguration.class))
            .withPropertyValues("opcua.client.connections.plant.endpoint-url=opc.tcp://127.0.0.1:4840/",
                    "opcua.client.connections.plant.connect-on-start=false");

    @Test
    void the_meters_of_each_connection_are_registered_once_the_context_is_refreshed() {
        contextRunner.run(context -> {
            assertThat(context).hasSingleBean(OpcUaClientMetricsBinder.class)
                    .hasSingleBean(OpcUaClientPublishLatency.class);
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(registry.get("opcua.client.session.state").tag("connection", "plant").gauge().value())
                    .isZero();
            assertThat(registry.get("opcua.client.reconnects").functionCounter().count()).isZero();
            assertThat(registry.get("opcua.client.publish.latency").tag("connection", "plant").timer())
                    .isNotNull();
            assertThat(context.getBean(OpcUaClient.class).config().requestObserver())
                    .as("the Publish timer observes the client").isNotSameAs(RequestObserver.NONE);
        });
    }

    @Test
    void the_meters_are_removed_when_the_context_closes() {
        contextRunner.run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(registry.find("opcua.client.subscriptions").gauge()).isNotNull();
            context.close();
            assertThat(registry.find("opcua.client.subscriptions").gauge()).isNull();
            assertThat(registry.find("opcua.client.publish.latency").timer()).isNull();
        });
    }

    @Test
    void backs_off_without_a_meter_registry_and_the_clients_carry_no_observer() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(OpcUaClientAutoConfiguration.class,
                        OpcUaClientMetricsAutoConfiguration.class))
                .withPropertyValues("opcua.client.connections.plant.endpoint-url=opc.tcp://127.0.0.1:4840/",
                        "opcua.client.connections.plant.connect-on-start=false")
                .run(context -> {
                    assertThat(context).hasSingleBean(OpcUaClient.class)
                            .doesNotHaveBean(OpcUaClientMetricsBinder.class)
                            .doesNotHaveBean(OpcUaClientPublishLatency.class);
                    assertThat(context.getBean(OpcUaClient.class).config().requestObserver())
                            .isSameAs(RequestObserver.NONE);
                });
    }

    @Test
    void backs_off_without_micrometer_on_the_classpath() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(OpcUaClientAutoConfiguration.class,
                        OpcUaClientMetricsAutoConfiguration.class))
                .withPropertyValues("opcua.client.connections.plant.endpoint-url=opc.tcp://127.0.0.1:4840/",
                        "opcua.client.connections.plant.connect-on-start=false")
                .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .withClassLoader(new FilteredClassLoader(MeterRegistry.class))
                .run(context -> assertThat(context).hasSingleBean(OpcUaClient.class)
                        .doesNotHaveBean(OpcUaClientMetricsBinder.class));
    }

    @Test
    void backs_off_when_the_clients_are_disabled() {
        contextRunner.withPropertyValues("opcua.client.enabled=false")
                .run(context -> assertThat(context).hasSingleBean(MeterRegistry.class)
                        .doesNotHaveBean(OpcUaClientMetricsBinder.class)
                        .doesNotHaveBean(OpcUaClientPublishLatency.class));
    }

    @Test
    void an_application_binder_replaces_the_auto_configured_one() {
        contextRunner.withUserConfiguration(OwnBinderConfiguration.class).run(context -> {
            assertThat(context).hasSingleBean(OpcUaClientMetricsBinder.class).hasBean("plantMetricsBinder");
            assertThat(context.getBean(MeterRegistry.class).get("opcua.client.session.state")
                    .tag("site", "plant-1").gauge()).isNotNull();
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnBinderConfiguration {

        @Bean
        OpcUaClientMetricsBinder plantMetricsBinder(OpcUaClients clients, MeterRegistry registry) {
            return new OpcUaClientMetricsBinder(clients, registry, Tags.of("site", "plant-1"));
        }
    }
}
