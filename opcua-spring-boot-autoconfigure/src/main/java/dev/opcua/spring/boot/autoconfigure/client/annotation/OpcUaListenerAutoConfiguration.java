package dev.opcua.spring.boot.autoconfigure.client.annotation;

import dev.opcua.spring.boot.autoconfigure.client.OpcUaClientAutoConfiguration;
import dev.opcua.spring.boot.autoconfigure.client.OpcUaClientProperties;
import dev.opcua.spring.boot.client.OpcUaClients;
import dev.opcua.spring.boot.client.annotation.OpcUaEventSubscription;
import dev.opcua.spring.boot.client.annotation.OpcUaListenerAnnotationBeanPostProcessor;
import dev.opcua.spring.boot.client.annotation.OpcUaSubscription;
import dev.opcua.spring.boot.client.listener.LoggingOpcUaListenerErrorHandler;
import dev.opcua.spring.boot.client.listener.OpcUaListenerDefaults;
import dev.opcua.spring.boot.client.listener.OpcUaListenerEndpointRegistry;
import dev.opcua.spring.boot.client.listener.OpcUaListenerErrorHandler;
import dev.opcua.stack.client.OpcUaClient;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ImportRuntimeHints;
import org.springframework.context.annotation.Role;

/**
 * Auto-configuration of annotated client listeners ({@link OpcUaSubscription},
 * {@link OpcUaEventSubscription}): the post-processor that finds them, the
 * {@link OpcUaListenerEndpointRegistry} that runs them with each connection's
 * {@code subscriptions.*} defaults, and the logging {@link OpcUaListenerErrorHandler}. Only wiring:
 * the machinery lives in {@code dev.opcua.spring.boot.client.annotation} and {@code ...client.listener}
 * and works without it.
 */
@AutoConfiguration(after = OpcUaClientAutoConfiguration.class)
@ConditionalOnClass(OpcUaClient.class)
@ConditionalOnBooleanProperty(name = "opcua.client.enabled", matchIfMissing = true)
@ConditionalOnBean(OpcUaClients.class)
@ImportRuntimeHints(OpcUaListenerRuntimeHints.class)
public final class OpcUaListenerAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static OpcUaListenerAnnotationBeanPostProcessor opcUaListenerAnnotationBeanPostProcessor() {
        return new OpcUaListenerAnnotationBeanPostProcessor();
    }

    @Bean
    @ConditionalOnMissingBean
    OpcUaListenerErrorHandler opcUaListenerErrorHandler() {
        return new LoggingOpcUaListenerErrorHandler();
    }

    @Bean
    @ConditionalOnMissingBean
    OpcUaListenerEndpointRegistry opcUaListenerEndpointRegistry(OpcUaClients clients,
            OpcUaClientProperties properties, OpcUaListenerErrorHandler errorHandler) {
        return new OpcUaListenerEndpointRegistry(clients, connection -> {
            OpcUaClientProperties.Connection c = properties.getConnections().get(connection);
            if (c == null) {
                return OpcUaListenerDefaults.STANDARD; // a client bean of the application's own
            }
            OpcUaClientProperties.Subscriptions s = c.getSubscriptions();
            return new OpcUaListenerDefaults(s.getPublishingInterval(), s.getSamplingInterval(), s.getQueueSize());
        }, errorHandler);
    }
}
