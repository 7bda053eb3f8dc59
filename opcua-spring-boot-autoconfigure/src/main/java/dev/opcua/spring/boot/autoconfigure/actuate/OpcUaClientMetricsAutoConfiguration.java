package dev.opcua.spring.boot.autoconfigure.actuate;

import dev.opcua.spring.boot.actuate.metrics.OpcUaClientMetrics;
import dev.opcua.spring.boot.actuate.metrics.OpcUaClientMetricsBinder;
import dev.opcua.spring.boot.actuate.metrics.OpcUaClientPublishLatency;
import dev.opcua.spring.boot.client.OpcUaClients;
import dev.opcua.spring.boot.client.OpcUaReverseConnectListeners;
import dev.opcua.spring.boot.client.listener.OpcUaListenerEndpointRegistry;
import dev.opcua.stack.client.OpcUaClient;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the {@link OpcUaClientMetrics OPC UA client meters}, bound to the application's
 * {@link MeterRegistry} once the application has started, and of the Publish timer
 * {@code opcua.client.publish.latency}, which reaches every client as a request observer. The request
 * timer {@code opcua.client.requests} comes from {@code OpcUaClientObservationAutoConfiguration}'s
 * observations, not from here. Without a {@code MeterRegistry} nothing is created and the clients carry
 * no observer for metrics.
 */
@AutoConfiguration(afterName = {
        "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
        "dev.opcua.spring.boot.autoconfigure.client.OpcUaClientAutoConfiguration" })
@ConditionalOnClass({ MeterRegistry.class, MeterBinder.class, OpcUaClient.class })
@ConditionalOnBean({ MeterRegistry.class, OpcUaClients.class })
public final class OpcUaClientMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    OpcUaClientMetricsBinder opcUaClientMetricsBinder(OpcUaClients clients, MeterRegistry registry,
            ObjectProvider<OpcUaListenerEndpointRegistry> listeners,
            ObjectProvider<OpcUaReverseConnectListeners> reverseConnectListeners) {
        OpcUaClientMetricsBinder binder = new OpcUaClientMetricsBinder(clients, registry);
        listeners.ifAvailable(listenerRegistry -> binder.setAnnotatedListenerErrors(listenerRegistry::errors));
        reverseConnectListeners.ifAvailable(binder::setReverseConnectListeners);
        return binder;
    }

    @Bean
    @ConditionalOnMissingBean
    OpcUaClientPublishLatency opcUaClientPublishLatency(MeterRegistry registry) {
        return new OpcUaClientPublishLatency(registry);
    }
}
