package dev.opcua.spring.boot.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.actuate.metrics.OpcUaServerMetricsBinder;
import dev.opcua.spring.boot.autoconfigure.server.OpcUaServerAutoConfiguration;
import dev.opcua.stack.server.OpcUaServer;
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

class OpcUaServerMetricsAutoConfigurationTest {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
                    SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
                    OpcUaServerAutoConfiguration.class, OpcUaServerMetricsAutoConfiguration.class))
            .withPropertyValues("opcua.server.port=0", "opcua.server.bind-address=127.0.0.1",
                    "opcua.server.application-uri=urn:test:actuate:server");

    @Test
    void the_server_meters_are_registered_once_the_server_has_started() {
        contextRunner.run(context -> {
            assertThat(context).hasSingleBean(OpcUaServerMetricsBinder.class);
            assertThat(context.getBean(OpcUaServer.class).isRunning()).isTrue();
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(registry.get("opcua.server.sessions").tag("application.uri", "urn:test:actuate:server")
                    .gauge().value()).isZero();
            assertThat(registry.get("opcua.server.requests.queue.capacity").gauge().value()).isEqualTo(200);
            assertThat(registry.get("opcua.server.requests.rejected").functionCounters()).hasSize(4);
        });
    }

    @Test
    void the_meters_are_removed_when_the_context_closes() {
        contextRunner.run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(registry.find("opcua.server.sessions").gauge()).isNotNull();
            context.close();
            assertThat(registry.find("opcua.server.sessions").gauge()).isNull();
            assertThat(registry.find("opcua.server.transport.received").functionCounter()).isNull();
        });
    }

    @Test
    void backs_off_without_micrometer_on_the_classpath() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(OpcUaServerAutoConfiguration.class,
                        OpcUaServerMetricsAutoConfiguration.class))
                .withPropertyValues("opcua.server.port=0", "opcua.server.bind-address=127.0.0.1")
                .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .withClassLoader(new FilteredClassLoader(MeterRegistry.class))
                .run(context -> assertThat(context).hasSingleBean(OpcUaServer.class)
                        .doesNotHaveBean(OpcUaServerMetricsBinder.class));
    }

    @Test
    void backs_off_without_a_meter_registry() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(OpcUaServerAutoConfiguration.class,
                        OpcUaServerMetricsAutoConfiguration.class))
                .withPropertyValues("opcua.server.port=0", "opcua.server.bind-address=127.0.0.1")
                .run(context -> assertThat(context).hasSingleBean(OpcUaServer.class)
                        .doesNotHaveBean(OpcUaServerMetricsBinder.class));
    }

    @Test
    void backs_off_when_the_server_is_disabled() {
        contextRunner.withPropertyValues("opcua.server.enabled=false")
                .run(context -> assertThat(context).hasSingleBean(MeterRegistry.class)
                        .doesNotHaveBean(OpcUaServer.class)
                        .doesNotHaveBean(OpcUaServerMetricsBinder.class));
    }

    @Test
    void an_application_binder_replaces_the_auto_configured_one() {
        contextRunner.withUserConfiguration(OwnBinderConfiguration.class).run(context -> {
            assertThat(context).hasSingleBean(OpcUaServerMetricsBinder.class).hasBean("plantMetricsBinder");
            assertThat(context.getBean(MeterRegistry.class).get("opcua.server.sessions").tag("site", "plant-1")
                    .gauge()).isNotNull();
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnBinderConfiguration {

        @Bean
        OpcUaServerMetricsBinder plantMetricsBinder(OpcUaServer server, MeterRegistry registry) {
            return new OpcUaServerMetricsBinder(server, registry, Tags.of("site", "plant-1"));
        }
    }
}
