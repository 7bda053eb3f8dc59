package dev.opcua.spring.boot.autoconfigure.actuate;

import dev.opcua.spring.boot.actuate.endpoint.OpcUaClientsEndpointSection;
import dev.opcua.spring.boot.actuate.endpoint.OpcUaEndpoint;
import dev.opcua.spring.boot.actuate.endpoint.OpcUaServerEndpointSection;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Import;

/**
 * Auto-configuration of the {@link OpcUaEndpoint opcua endpoint}, when it is enabled and exposed
 * ({@code management.endpoints.web.exposure.include=opcua}) and the application has an OPC UA server,
 * OPC UA client connections, or both. Each of those is a section of the endpoint made by a configuration of
 * {@link OpcUaEndpointSectionsConfiguration} only when its stack module is on the class path, so that a
 * client-only or server-only application has the endpoint too.
 */
@AutoConfiguration(afterName = { "dev.opcua.spring.boot.autoconfigure.server.OpcUaServerAutoConfiguration",
        "dev.opcua.spring.boot.autoconfigure.client.OpcUaClientAutoConfiguration" })
@ConditionalOnClass({ Endpoint.class, ConditionalOnAvailableEndpoint.class })
@ConditionalOnAvailableEndpoint(OpcUaEndpoint.class)
@Import({ OpcUaEndpointSectionsConfiguration.Server.class, OpcUaEndpointSectionsConfiguration.Clients.class })
public final class OpcUaEndpointAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    @Conditional(OpcUaEndpointSectionsConfiguration.OnServerOrClients.class)
    OpcUaEndpoint opcUaEndpoint(ObjectProvider<OpcUaServerEndpointSection> server,
            ObjectProvider<OpcUaClientsEndpointSection> clients) {
        return new OpcUaEndpoint(server.getIfUnique(), clients.getIfUnique());
    }
}
