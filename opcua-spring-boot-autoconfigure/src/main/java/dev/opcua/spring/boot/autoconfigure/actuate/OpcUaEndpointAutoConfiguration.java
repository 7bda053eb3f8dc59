package dev.opcua.spring.boot.autoconfigure.actuate;

import dev.opcua.spring.boot.actuate.endpoint.OpcUaEndpoint;
import dev.opcua.stack.server.OpcUaServer;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the {@link OpcUaEndpoint opcua endpoint}, when it is enabled and exposed
 * ({@code management.endpoints.web.exposure.include=opcua}).
 */
@AutoConfiguration(afterName = "dev.opcua.spring.boot.autoconfigure.server.OpcUaServerAutoConfiguration")
@ConditionalOnClass({ Endpoint.class, ConditionalOnAvailableEndpoint.class, OpcUaServer.class })
@ConditionalOnAvailableEndpoint(OpcUaEndpoint.class)
public final class OpcUaEndpointAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(OpcUaServer.class)
    OpcUaEndpoint opcUaEndpoint(OpcUaServer server) {
        return new OpcUaEndpoint(server);
    }
}
