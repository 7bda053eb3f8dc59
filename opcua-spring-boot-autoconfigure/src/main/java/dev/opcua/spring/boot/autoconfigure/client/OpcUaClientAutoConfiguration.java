package dev.opcua.spring.boot.autoconfigure.client;

import dev.opcua.spring.boot.client.OpcUaClientCustomizer;
import dev.opcua.spring.boot.client.OpcUaClientLifecycle;
import dev.opcua.spring.boot.client.OpcUaClientRequestObservers;
import dev.opcua.spring.boot.client.OpcUaClients;
import dev.opcua.spring.boot.client.OpcUaReverseConnectListeners;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.transport.ClientResources;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * Auto-configuration of OPC UA clients from {@code opcua.client.connections.<name>.*}: one
 * {@link OpcUaClient} bean per connection ({@code <name>OpcUaClient}, qualified
 * {@code @OpcUaConnection("<name>")}, injectable by type when it is the only one), with every
 * {@link OpcUaClientCustomizer} applied; the {@link OpcUaClients} registry of all client beans; and the
 * {@link OpcUaClientLifecycle} that connects them with the context; the {@link OpcUaReverseConnectListeners} of
 * the connections with {@code reverse-connect.listen-port}, open before the clients are built and closed after
 * them (the clients' factory depends on them, so the context destroys the clients first). Independent of the server's
 * auto-configuration: an application may have either or both.
 */
@AutoConfiguration
@ConditionalOnClass(OpcUaClient.class)
@ConditionalOnBooleanProperty(name = "opcua.client.enabled", matchIfMissing = true)
@EnableConfigurationProperties(OpcUaClientProperties.class)
@Import(OpcUaClientBeanRegistrar.class)
public final class OpcUaClientAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    OpcUaReverseConnectListeners opcUaReverseConnectListeners(OpcUaClientProperties properties) {
        // the clients' own default resources: the channels handed over run on the listener's event loops
        return ReverseConnectListenersFactory.open(properties, ClientResources::shared);
    }

    @Bean(OpcUaClientBeanRegistrar.FACTORY_BEAN_NAME)
    @ConditionalOnMissingBean
    OpcUaClientFactory opcUaClientFactory(OpcUaClientProperties properties,
            ObjectProvider<OpcUaClientCustomizer> customizers, ObjectProvider<OpcUaClientRequestObservers> observers,
            ObjectProvider<SslBundles> sslBundles, OpcUaReverseConnectListeners reverseConnectListeners) {
        return new OpcUaClientFactory(properties, customizers, observers, sslBundles.getIfAvailable(),
                reverseConnectListeners);
    }

    @Bean
    @ConditionalOnMissingBean
    OpcUaClients opcUaClients(ListableBeanFactory beanFactory) {
        Map<String, OpcUaClient> clients = new LinkedHashMap<>();
        for (String beanName : beanFactory.getBeanNamesForType(OpcUaClient.class)) {
            clients.put(OpcUaClients.connectionName(beanName), beanFactory.getBean(beanName, OpcUaClient.class));
        }
        return new OpcUaClients(clients);
    }

    @Bean
    @ConditionalOnMissingBean
    OpcUaClientLifecycle opcUaClientLifecycle(OpcUaClients clients, OpcUaClientProperties properties) {
        Map<String, OpcUaClientLifecycle.StartOptions> options = new LinkedHashMap<>();
        properties.getConnections().forEach((name, connection) -> options.put(name,
                new OpcUaClientLifecycle.StartOptions(connection.isConnectOnStart(), connection.isFailFast())));
        return new OpcUaClientLifecycle(clients.asMap(), options);
    }
}
