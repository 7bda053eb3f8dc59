package dev.opcua.spring.boot.autoconfigure.observation;

import dev.opcua.spring.boot.client.OpcUaClientRequestObservers;
import dev.opcua.spring.boot.observation.DefaultOpcUaClientRequestObservationConvention;
import dev.opcua.spring.boot.observation.ObservationRequestObservers;
import dev.opcua.spring.boot.observation.OpcUaClientRequestObservationConvention;
import dev.opcua.stack.client.OpcUaClient;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration that makes every request of the auto-configured OPC UA clients an Observation of
 * the application's {@link ObservationRegistry}: the timer {@code opcua.client.requests} with Spring
 * Boot's metrics (this is the only source of that timer), spans with micrometer-tracing. The observers
 * reach each client as an {@link OpcUaClientRequestObservers} bean; with no observation handler
 * registered the registry is a no-op and the clients get {@code RequestObserver.NONE}.
 */
@AutoConfiguration(
        afterName = "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
        beforeName = "dev.opcua.spring.boot.autoconfigure.client.OpcUaClientAutoConfiguration")
@ConditionalOnClass({ ObservationRegistry.class, OpcUaClient.class })
@ConditionalOnBean(ObservationRegistry.class)
@ConditionalOnBooleanProperty(name = "opcua.client.enabled", matchIfMissing = true)
public final class OpcUaClientObservationAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    OpcUaClientRequestObservationConvention opcUaClientRequestObservationConvention() {
        return new DefaultOpcUaClientRequestObservationConvention();
    }

    @Bean
    @ConditionalOnMissingBean
    ObservationRequestObservers opcUaClientObservationRequestObservers(ObservationRegistry registry,
            OpcUaClientRequestObservationConvention convention) {
        return new ObservationRequestObservers(registry, convention);
    }
}
