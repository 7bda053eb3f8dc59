package dev.opcua.spring.boot.autoconfigure.client;

import dev.opcua.spring.boot.client.OpcUaClients;
import dev.opcua.spring.boot.client.OpcUaConnection;
import dev.opcua.stack.client.OpcUaClient;
import java.util.Map;
import org.springframework.beans.factory.support.AutowireCandidateQualifier;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Declares one {@link OpcUaClient} bean per entry of {@code opcua.client.connections}: named
 * {@code <name>OpcUaClient}, qualified {@code @OpcUaConnection("<name>")}, made by
 * {@link OpcUaClientFactory#create(String)} and closed with the context. A bean of that name that the
 * application defines itself wins.
 */
class OpcUaClientBeanRegistrar implements ImportBeanDefinitionRegistrar, EnvironmentAware {

    static final String FACTORY_BEAN_NAME = "opcUaClientFactory";

    private Environment environment;

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
        // only the names here: the values are bound, and checked, with OpcUaClientProperties
        Map<String, Object> connections = Binder.get(environment)
                .bind(OpcUaClientPropertiesMapper.CONNECTIONS, Bindable.mapOf(String.class, Object.class))
                .orElse(Map.of());
        for (String connection : connections.keySet()) {
            String beanName = OpcUaClients.beanName(connection);
            if (registry.containsBeanDefinition(beanName)) {
                continue;
            }
            RootBeanDefinition definition = new RootBeanDefinition();
            definition.setTargetType(OpcUaClient.class);
            definition.setFactoryBeanName(FACTORY_BEAN_NAME);
            definition.setFactoryMethodName("create");
            definition.getConstructorArgumentValues().addIndexedArgumentValue(0, connection);
            definition.addQualifier(new AutowireCandidateQualifier(OpcUaConnection.class, connection));
            definition.setDestroyMethodName("close");
            registry.registerBeanDefinition(beanName, definition);
        }
    }
}
