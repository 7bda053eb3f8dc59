package dev.opcua.spring.boot.autoconfigure.actuate;

import dev.opcua.spring.boot.actuate.health.OpcUaPubSubHealthIndicator;
import dev.opcua.spring.boot.actuate.metrics.OpcUaPubSubMetrics;
import dev.opcua.spring.boot.pubsub.OpcUaPubSubLifecycle;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Auto-configuration of PubSub's actuator parts: the {@link OpcUaPubSubMetrics meters} (a {@link MeterBinder},
 * reading 0 until the service runs) and the health indicator {@code opcuaPubSub}
 * ({@code /actuator/health/opcuaPubSub}, off with {@code management.health.opcua-pub-sub.enabled=false}).
 */
@AutoConfiguration(afterName = "dev.opcua.spring.boot.autoconfigure.pubsub.OpcUaPubSubAutoConfiguration")
@ConditionalOnClass(OpcUaPubSubLifecycle.class)
@ConditionalOnBean(OpcUaPubSubLifecycle.class)
public final class OpcUaPubSubActuatorAutoConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({ MeterRegistry.class, MeterBinder.class })
    static class Metrics {

        @Bean
        @ConditionalOnMissingBean
        OpcUaPubSubMetrics opcUaPubSubMetrics(OpcUaPubSubLifecycle pubSub) {
            return new OpcUaPubSubMetrics(pubSub);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({ AbstractHealthIndicator.class, ConditionalOnEnabledHealthIndicator.class })
    @ConditionalOnEnabledHealthIndicator("opcua-pub-sub")
    static class Health {

        @Bean
        @ConditionalOnMissingBean(name = "opcuaPubSubHealthIndicator")
        OpcUaPubSubHealthIndicator opcuaPubSubHealthIndicator(OpcUaPubSubLifecycle pubSub) {
            return new OpcUaPubSubHealthIndicator(pubSub);
        }
    }
}
