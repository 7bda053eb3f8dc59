package dev.opcua.spring.boot.autoconfigure.observation;

import dev.opcua.spring.boot.observation.DefaultOpcUaServiceObservationConvention;
import dev.opcua.spring.boot.observation.ObservationServiceObserver;
import dev.opcua.spring.boot.observation.OpcUaServiceObservationConvention;
import dev.opcua.spring.boot.server.OpcUaServerCustomizer;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.services.ServiceObserver;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration that makes every OPC UA service call an Observation of the application's
 * {@link ObservationRegistry}: timers {@code opcua.server.requests} with Spring Boot's metrics, spans with
 * micrometer-tracing. The observer reaches the server through an {@link OpcUaServerCustomizer}. With no
 * observation handler registered the registry is a no-op and the server skips the observer entirely. It runs
 * before the server's auto-configuration, so it cannot wait for the server bean: it asks the server's own
 * switch, {@code opcua.server.enabled}, instead.
 */
@AutoConfiguration(
        afterName = "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
        beforeName = "dev.opcua.spring.boot.autoconfigure.server.OpcUaServerAutoConfiguration")
@ConditionalOnClass({ ObservationRegistry.class, OpcUaServer.class })
@ConditionalOnBean(ObservationRegistry.class)
@ConditionalOnBooleanProperty(name = "opcua.server.enabled", matchIfMissing = true)
public final class OpcUaObservationAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    OpcUaServiceObservationConvention opcUaServiceObservationConvention() {
        return new DefaultOpcUaServiceObservationConvention();
    }

    @Bean
    @ConditionalOnMissingBean(ServiceObserver.class)
    ObservationServiceObserver opcUaServiceObserver(ObservationRegistry registry,
            OpcUaServiceObservationConvention convention) {
        return new ObservationServiceObserver(registry, convention);
    }

    @Bean
    OpcUaServerCustomizer opcUaServerObservationCustomizer(ServiceObserver observer) {
        return builder -> builder.serviceObserver(observer);
    }
}
