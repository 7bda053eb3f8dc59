package dev.opcua.spring.boot.autoconfigure.server.annotation;

import dev.opcua.spring.boot.autoconfigure.server.OpcUaServerAutoConfiguration;
import dev.opcua.spring.boot.server.OpcUaServerCustomizer;
import dev.opcua.spring.boot.server.annotation.OpcUaAnnotatedNodeManagers;
import dev.opcua.spring.boot.server.annotation.OpcUaNamespace;
import dev.opcua.spring.boot.server.annotation.UaValueChangedEvent;
import dev.opcua.stack.server.OpcUaServer;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of annotated node managers: every bean annotated {@link OpcUaNamespace}
 * becomes nodes of the auto-configured {@link OpcUaServer}, added through an
 * {@link OpcUaServerCustomizer}, and every {@link UaValueChangedEvent} the application publishes
 * reaches the server's monitored items.
 *
 * <p>Ordered before the server's auto-configuration so that the customizer is there when the
 * server is built; it backs off with the server ({@code opcua.server.enabled=false}).
 */
@AutoConfiguration(before = OpcUaServerAutoConfiguration.class)
@ConditionalOnClass(OpcUaServer.class)
@ConditionalOnBooleanProperty(name = "opcua.server.enabled", matchIfMissing = true)
public final class OpcUaAnnotationAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    OpcUaAnnotatedNodeManagers opcUaAnnotatedNodeManagers(ListableBeanFactory beanFactory) {
        return OpcUaAnnotatedNodeManagers.of(beanFactory.getBeansWithAnnotation(OpcUaNamespace.class));
    }

    @Bean
    OpcUaServerCustomizer opcUaAnnotatedNodeManagersCustomizer(OpcUaAnnotatedNodeManagers nodeManagers) {
        return nodeManagers::registerWith;
    }

    @Bean
    @ConditionalOnMissingBean
    OpcUaValueChangeListener opcUaValueChangeListener(ObjectProvider<OpcUaAnnotatedNodeManagers> nodeManagers,
            ObjectProvider<OpcUaServer> server) {
        return new OpcUaValueChangeListener(nodeManagers, server);
    }
}
