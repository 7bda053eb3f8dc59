package dev.opcua.spring.boot.autoconfigure.actuate;

import dev.opcua.spring.boot.actuate.endpoint.OpcUaClientsEndpointSection;
import dev.opcua.spring.boot.actuate.endpoint.OpcUaEndpoint;
import dev.opcua.spring.boot.actuate.endpoint.OpcUaServerEndpointSection;
import dev.opcua.spring.boot.client.OpcUaClients;
import dev.opcua.spring.boot.client.listener.OpcUaListenerEndpointRegistry;
import dev.opcua.stack.server.OpcUaServer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.ConfigurationCondition;

/**
 * The sections of the {@link OpcUaEndpoint opcua endpoint}, each in a configuration of its own that the class
 * path and the application's beans decide on: the server's when {@code opcua-stack-server} is present and there
 * is an {@link OpcUaServer} bean, the clients' when {@code opcua-stack-client} is present and there are client
 * connections. Imported by the endpoint's and the console's auto-configurations, which both show them; the
 * conditions name the stack's classes by name so that nothing here is loaded from a module that is absent.
 */
public abstract class OpcUaEndpointSectionsConfiguration {

    static final String SERVER = "dev.opcua.stack.server.OpcUaServer";
    static final String CLIENT = "dev.opcua.stack.client.OpcUaClient";
    static final String CLIENTS = "dev.opcua.spring.boot.client.OpcUaClients";

    private OpcUaEndpointSectionsConfiguration() {
    }

    /** The server's section, in an application with an OPC UA server. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = SERVER)
    @ConditionalOnBean(type = SERVER)
    public static class Server {

        @Bean
        @ConditionalOnMissingBean
        OpcUaServerEndpointSection opcUaServerEndpointSection(OpcUaServer server) {
            return new OpcUaServerEndpointSection(server);
        }
    }

    /** The clients' section, in an application with client connections (a registry with at least one client). */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = CLIENT)
    @ConditionalOnBean(type = { CLIENTS, CLIENT })
    public static class Clients {

        @Bean
        @ConditionalOnMissingBean
        OpcUaClientsEndpointSection opcUaClientsEndpointSection(OpcUaClients clients,
                ObjectProvider<OpcUaListenerEndpointRegistry> listeners) {
            OpcUaListenerEndpointRegistry registry = listeners.getIfUnique();
            return registry == null ? new OpcUaClientsEndpointSection(clients)
                    : new OpcUaClientsEndpointSection(clients, registry::listeners);
        }
    }

    /**
     * An OPC UA server, or client connections: the endpoint and the console have something to show. It names
     * the beans' types rather than the sections', so that it holds also where it is evaluated before the
     * sections are registered (on a configuration nested in the one that imports them).
     */
    public static final class OnServerOrClients extends AnyNestedCondition {

        OnServerOrClients() {
            super(ConfigurationCondition.ConfigurationPhase.REGISTER_BEAN);
        }

        @ConditionalOnBean(type = SERVER)
        static final class ServerBean {
        }

        @ConditionalOnBean(type = { CLIENTS, CLIENT })
        static final class ClientBeans {
        }
    }
}
