package dev.opcua.spring.boot.autoconfigure.actuate;

import dev.opcua.spring.boot.actuate.metrics.OpcUaServerMetrics;
import dev.opcua.spring.boot.actuate.metrics.OpcUaServerMetricsBinder;
import dev.opcua.stack.server.OpcUaServer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the {@link OpcUaServerMetrics OPC UA server meters}:
 * bound to the application's {@link MeterRegistry} once the application has started. The request timer
 * {@code opcua.server.requests} comes from {@code OpcUaObservationAutoConfiguration}'s observations.
 */
@AutoConfiguration(afterName = {
        "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
        "dev.opcua.spring.boot.autoconfigure.server.OpcUaServerAutoConfiguration" })
@ConditionalOnClass({ MeterRegistry.class, MeterBinder.class, OpcUaServer.class })
@ConditionalOnBean({ MeterRegistry.class, OpcUaServer.class })
public final class OpcUaServerMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    OpcUaServerMetricsBinder opcUaServerMetricsBinder(OpcUaServer server, MeterRegistry registry) {
        return new OpcUaServerMetricsBinder(server, registry);
    }
}
