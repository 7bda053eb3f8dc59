package dev.opcua.spring.boot.test.autoconfigure;

import dev.opcua.spring.boot.autoconfigure.server.OpcUaServerAutoConfiguration;
import dev.opcua.spring.boot.test.client.OpcUaTestClient;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.server.OpcUaServer;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of an {@link OpcUaTestClient} connected to the application's {@link OpcUaServer} once it has
 * started, from {@code opcua.test.client.*}; imported by {@link AutoConfigureOpcUaTestClient}, or listed in an
 * {@code ApplicationContextRunner}'s configurations. Backs off when the test defines its own test client, and when
 * there is no server.
 */
@AutoConfiguration(after = OpcUaServerAutoConfiguration.class)
@ConditionalOnClass({OpcUaServer.class, OpcUaClient.class})
@ConditionalOnBooleanProperty(name = "opcua.test.client.enabled", matchIfMissing = true)
@EnableConfigurationProperties(OpcUaTestClientProperties.class)
public final class OpcUaTestClientAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(OpcUaServer.class)
    OpcUaTestClient opcUaTestClient(OpcUaServer server, OpcUaTestClientProperties properties) {
        try {
            return OpcUaTestClient.builder(server)
                    .user(properties.getUsername(), properties.getPassword())
                    .security(properties.effectiveSecurityPolicy(), properties.getSecurityMode())
                    .requestTimeout(properties.getRequestTimeout())
                    .build();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("opcua.test.client: " + e.getMessage() + " (opcua.test.client"
                    + ".security-policy=" + properties.getSecurityPolicy() + ", security-mode="
                    + properties.getSecurityMode() + ", username=" + properties.getUsername() + ", request-timeout="
                    + properties.getRequestTimeout() + ")");
        }
    }
}
