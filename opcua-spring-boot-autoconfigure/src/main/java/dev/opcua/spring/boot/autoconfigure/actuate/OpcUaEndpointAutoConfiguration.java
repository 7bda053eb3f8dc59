package dev.opcua.spring.boot.autoconfigure.actuate;

import dev.opcua.spring.boot.actuate.endpoint.OpcUaEndpoint;
import dev.opcua.spring.boot.client.OpcUaClients;
import dev.opcua.spring.boot.client.listener.OpcUaListenerEndpointRegistry;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.server.OpcUaServer;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConfigurationCondition;
import org.springframework.context.annotation.Conditional;

/**
 * Auto-configuration of the {@link OpcUaEndpoint opcua endpoint}, when it is enabled and exposed
 * ({@code management.endpoints.web.exposure.include=opcua}) and the application has an OPC UA server,
 * OPC UA client connections, or both.
 */
@AutoConfiguration(afterName = { "dev.opcua.spring.boot.autoconfigure.server.OpcUaServerAutoConfiguration",
        "dev.opcua.spring.boot.autoconfigure.client.OpcUaClientAutoConfiguration" })
@ConditionalOnClass({ Endpoint.class, ConditionalOnAvailableEndpoint.class, OpcUaServer.class, OpcUaClient.class })
@ConditionalOnAvailableEndpoint(OpcUaEndpoint.class)
public final class OpcUaEndpointAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    @Conditional(OnServerOrClients.class)
    OpcUaEndpoint opcUaEndpoint(ObjectProvider<OpcUaServer> server, ObjectProvider<OpcUaClients> clients,
            ObjectProvider<OpcUaListenerEndpointRegistry> listeners) {
        return endpoint(server.getIfUnique(), clients.getIfUnique(), listeners);
    }

    /**
     * The endpoint over the server and clients there are (either may be null), with the listener registry
     * when there is one; also what the console uses while the endpoint is not exposed.
     */
    public static OpcUaEndpoint endpoint(OpcUaServer server, OpcUaClients clients,
            ObjectProvider<OpcUaListenerEndpointRegistry> listeners) {
        OpcUaEndpoint endpoint = new OpcUaEndpoint(server, clients, Clock.systemUTC());
        listeners.ifUnique(registry -> endpoint.setListeners(registry::listeners));
        return endpoint;
    }

    /** An OPC UA server, or client connections (their registry with at least one client). */
    static final class OnServerOrClients extends AnyNestedCondition {

        OnServerOrClients() {
            super(ConfigurationCondition.ConfigurationPhase.REGISTER_BEAN);
        }

        @ConditionalOnBean(OpcUaServer.class)
        static final class Server {
        }

        @ConditionalOnBean({ OpcUaClients.class, OpcUaClient.class })
        static final class Clients {
        }
    }
}
