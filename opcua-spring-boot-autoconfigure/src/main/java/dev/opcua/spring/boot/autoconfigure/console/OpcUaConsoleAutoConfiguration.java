package dev.opcua.spring.boot.autoconfigure.console;

import dev.opcua.spring.boot.actuate.endpoint.OpcUaClientsEndpointSection;
import dev.opcua.spring.boot.actuate.endpoint.OpcUaEndpoint;
import dev.opcua.spring.boot.actuate.endpoint.OpcUaServerEndpointSection;
import dev.opcua.spring.boot.autoconfigure.actuate.OpcUaEndpointSectionsConfiguration;
import dev.opcua.spring.boot.autoconfigure.actuate.OpcUaEndpointSectionsConfiguration.OnServerOrClients;
import dev.opcua.spring.boot.console.AddressSpaceBrowser;
import dev.opcua.spring.boot.console.ConsoleAddressSpace;
import dev.opcua.spring.boot.console.ConsolePubSub;
import dev.opcua.spring.boot.console.ConsoleWriteAccess;
import dev.opcua.spring.boot.console.ConsoleWriteAudit;
import dev.opcua.spring.boot.console.SpringSecurityRoleWriteAccess;
import dev.opcua.spring.boot.console.OpcUaConsole;
import dev.opcua.spring.boot.console.OpcUaConsoleController;
import dev.opcua.spring.boot.console.OpcUaConsolePubSubController;
import dev.opcua.spring.boot.pubsub.OpcUaPubSubLifecycle;
import dev.opcua.stack.server.OpcUaServer;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.audit.listener.AuditApplicationEvent;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.config.WebFluxConfigurer;
import org.springframework.web.servlet.config.annotation.ResourceHandlerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Auto-configuration of the live console at {@code /opcua-console}, off unless
 * {@code opcua.console.enabled=true}, in a Spring MVC or WebFlux application with an OPC UA server, client
 * connections or both: the {@link OpcUaConsole} (the {@code /actuator/opcua} descriptor, from the
 * application's {@link OpcUaEndpoint} bean when there is one, and the server's address space), its
 * controller, and a resource handler for the page's script and style sheet. The server's and the clients'
 * parts are made only when their stack module is on the class path (the endpoint's sections of
 * {@link OpcUaEndpointSectionsConfiguration}, and the server's address space as a {@link ConsoleAddressSpace}),
 * so that a client-only or server-only application has the console too. With PubSub running
 * ({@code opcua-stack-pubsub} on the class path and {@code opcua.pubsub.enabled=true}) the page has a PubSub card
 * from {@code /opcua-console/api/pubsub}. With {@code opcua.console.write-role} and Spring Security, users of that
 * role may write variables from the address-space browser, each write audited. The console is protected by whatever
 * protects the application's other URLs; without Spring Security a warning says at start-up that it is open.
 */
@AutoConfiguration(afterName = { "dev.opcua.spring.boot.autoconfigure.server.OpcUaServerAutoConfiguration",
        "dev.opcua.spring.boot.autoconfigure.client.OpcUaClientAutoConfiguration",
        "dev.opcua.spring.boot.autoconfigure.client.annotation.OpcUaListenerAutoConfiguration",
        "dev.opcua.spring.boot.autoconfigure.actuate.OpcUaEndpointAutoConfiguration",
        "dev.opcua.spring.boot.autoconfigure.pubsub.OpcUaPubSubAutoConfiguration" })
@ConditionalOnClass(RestController.class)
@ConditionalOnWebApplication
@ConditionalOnBooleanProperty("opcua.console.enabled")
@EnableConfigurationProperties(OpcUaConsoleProperties.class)
@Import({ OpcUaEndpointSectionsConfiguration.Server.class, OpcUaEndpointSectionsConfiguration.Clients.class })
public final class OpcUaConsoleAutoConfiguration {

    private static final String WRITE_ROLE = "opcua.console.write-role";

    @Bean
    @ConditionalOnMissingBean
    @Conditional(OnServerOrClients.class)
    OpcUaConsole opcUaConsole(ObjectProvider<OpcUaEndpoint> endpoint,
            ObjectProvider<OpcUaServerEndpointSection> server, ObjectProvider<OpcUaClientsEndpointSection> clients,
            ObjectProvider<ConsoleAddressSpace> addressSpace) {
        // The endpoint bean exists only while /actuator/opcua is exposed; the console needs its descriptor anyway.
        OpcUaEndpoint source = endpoint.getIfUnique(
                () -> new OpcUaEndpoint(server.getIfUnique(), clients.getIfUnique()));
        return new OpcUaConsole(source, addressSpace.getIfUnique());
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(OpcUaConsole.class)
    OpcUaConsoleController opcUaConsoleController(OpcUaConsole console, ObjectProvider<ConsoleWriteAccess> writeAccess,
            ObjectProvider<ConsoleWriteAudit> audit) {
        return new OpcUaConsoleController(console, writeAccess.getIfUnique(() -> ConsoleWriteAccess.DISABLED),
                audit.getIfUnique(() -> ConsoleWriteAudit.NONE));
    }

    /**
     * Writing from the address-space browser for the users of {@code opcua.console.write-role}, each write published
     * as an {@link AuditApplicationEvent} (into the application's AuditEventRepository, when it has one).
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(WRITE_ROLE)
    static class Writing {

        /** With Spring Boot Actuator: the writes as audit events. */
        @Configuration(proxyBeanMethods = false)
        @ConditionalOnClass(name = "org.springframework.boot.actuate.audit.listener.AuditApplicationEvent")
        static class Audit {

            @Bean
            @ConditionalOnMissingBean
            ConsoleWriteAudit opcUaConsoleWriteAudit(ApplicationEventPublisher events) {
                return (user, write) -> events.publishEvent(new AuditApplicationEvent(user, ConsoleWriteAudit.TYPE,
                        auditData(write)));
            }

            private static Map<String, Object> auditData(ConsoleAddressSpace.ConsoleWrite write) {
                Map<String, Object> data = new LinkedHashMap<>();
                data.put("node", write.nodeId());
                data.put("dataType", write.dataType());
                data.put("oldValue", write.oldValue());
                data.put("newValue", write.newValue());
                data.put("status", write.status());
                return data;
            }
        }

        /** The role's users, known from Spring Security's Authentication of the request. */
        @Configuration(proxyBeanMethods = false)
        @ConditionalOnClass(name = { "org.springframework.security.core.Authentication",
            "org.springframework.security.web.csrf.CsrfToken" })
        static class WithSpringSecurity {

            @Bean
            @ConditionalOnMissingBean
            ConsoleWriteAccess opcUaConsoleWriteAccess(OpcUaConsoleProperties properties) {
                String role = properties.getWriteRole();
                if (role == null || role.isBlank() || role.contains(",")) {
                    throw new InvalidOpcUaConsolePropertyException(WRITE_ROLE, role,
                            "it is not one role name", "one Spring Security role, such as ENGINEER or ROLE_ENGINEER");
                }
                return new SpringSecurityRoleWriteAccess(role.strip());
            }
        }

        /** Without Spring Security the console cannot know a user's roles: the start stops rather than ignore the key. */
        @Configuration(proxyBeanMethods = false)
        @ConditionalOnMissingClass("org.springframework.security.core.Authentication")
        static class WithoutSpringSecurity {

            @Bean
            ConsoleWriteAccess opcUaConsoleWriteAccess(OpcUaConsoleProperties properties) {
                throw new InvalidOpcUaConsolePropertyException(WRITE_ROLE, properties.getWriteRole(),
                        "writing is for users of a Spring Security role, and Spring Security is not on the class path",
                        "a role, with spring-boot-starter-security and a SecurityFilterChain that signs users in;"
                                + " or no value (nobody writes)");
            }
        }
    }

    /** The address space of the application's server, to browse. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "dev.opcua.stack.server.OpcUaServer")
    @ConditionalOnBean(type = "dev.opcua.stack.server.OpcUaServer")
    static class ServerAddressSpace {

        @Bean
        @ConditionalOnMissingBean
        ConsoleAddressSpace opcUaConsoleAddressSpace(OpcUaServer server, OpcUaConsoleProperties properties) {
            return new AddressSpaceBrowser(server, properties.getTimeout());
        }
    }

    /**
     * The PubSub card's JSON, when the application runs PubSub: its own class so that an application without
     * {@code opcua-stack-pubsub} loads no type of it.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = { "dev.opcua.stack.pubsub.runtime.PubSubService",
        "dev.opcua.spring.boot.pubsub.OpcUaPubSubLifecycle" })
    @ConditionalOnBean(type = "dev.opcua.spring.boot.pubsub.OpcUaPubSubLifecycle")
    @Conditional(OnServerOrClients.class)
    static class PubSub {

        @Bean
        @ConditionalOnMissingBean
        ConsolePubSub opcUaConsolePubSub(ObjectProvider<OpcUaPubSubLifecycle> pubSub) {
            return new ConsolePubSub(pubSub.getObject());
        }

        @Bean
        @ConditionalOnMissingBean
        OpcUaConsolePubSubController opcUaConsolePubSubController(ConsolePubSub pubSub) {
            return new OpcUaConsolePubSubController(pubSub);
        }
    }

    /** The script and style sheet with Spring MVC. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    @ConditionalOnClass(WebMvcConfigurer.class)
    @Conditional(OnServerOrClients.class)
    static class ServletResources {

        @Bean
        WebMvcConfigurer opcUaConsoleResources() {
            return new WebMvcConfigurer() {
                @Override
                public void addResourceHandlers(ResourceHandlerRegistry registry) {
                    registry.addResourceHandler(OpcUaConsoleController.PATH + "/**")
                            .addResourceLocations(OpcUaConsoleController.RESOURCES);
                }
            };
        }
    }

    /** The script and style sheet with WebFlux. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
    @ConditionalOnClass(WebFluxConfigurer.class)
    @Conditional(OnServerOrClients.class)
    static class ReactiveResources {

        @Bean
        WebFluxConfigurer opcUaConsoleResources() {
            return new WebFluxConfigurer() {
                @Override
                public void addResourceHandlers(org.springframework.web.reactive.config.ResourceHandlerRegistry registry) {
                    registry.addResourceHandler(OpcUaConsoleController.PATH + "/**")
                            .addResourceLocations(OpcUaConsoleController.RESOURCES);
                }
            };
        }
    }

    /** Without Spring Security nothing protects the console: say so. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingClass("org.springframework.security.web.SecurityFilterChain")
    @Conditional(OnServerOrClients.class)
    static class Unprotected {

        @Bean
        static OpcUaConsoleSecurityWarning opcUaConsoleSecurityWarning() {
            return new OpcUaConsoleSecurityWarning();
        }
    }
}
