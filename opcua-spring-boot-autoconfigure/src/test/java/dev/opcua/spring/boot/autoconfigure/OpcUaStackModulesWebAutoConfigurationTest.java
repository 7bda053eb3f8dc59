package dev.opcua.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.InstanceOfAssertFactories.LIST;
import static org.assertj.core.api.InstanceOfAssertFactories.MAP;

import dev.opcua.spring.boot.actuate.endpoint.OpcUaClientsEndpointSection;
import dev.opcua.spring.boot.actuate.endpoint.OpcUaEndpoint;
import dev.opcua.spring.boot.actuate.endpoint.OpcUaServerEndpointSection;
import dev.opcua.spring.boot.console.ConsoleAddressSpace;
import dev.opcua.spring.boot.console.OpcUaConsole;
import dev.opcua.spring.boot.console.OpcUaConsoleController;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.jackson.JacksonEndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.actuate.endpoint.jackson.EndpointJsonMapper;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.webmvc.autoconfigure.DispatcherServletAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.actuate.web.WebMvcEndpointManagementContextConfiguration;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.web.servlet.config.annotation.EnableWebMvc;

/**
 * The {@code opcua} endpoint and the console in a web application whose class path lacks the server's or the
 * client's stack module: each serves the part of the application that is there, and {@code /actuator/opcua}
 * writes the JSON it writes with both modules, less the other part.
 */
class OpcUaStackModulesWebAutoConfigurationTest {

    private static final String SERVER = "dev.opcua.stack.server.";
    private static final String CLIENT = "dev.opcua.stack.client.";
    private static final String EMBEDDED_STORE = "dev.opcua.stack.history.embedded.";
    private static final String JDBC_STORE = "dev.opcua.stack.history.jdbc.";

    @TempDir
    static Path pkiDir;

    private final WebApplicationContextRunner contextRunner = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaStackModulesAutoConfigurationTest.ourAutoConfigurations()))
            .withConfiguration(AutoConfigurations.of(EndpointAutoConfiguration.class,
                    WebEndpointAutoConfiguration.class, JacksonEndpointAutoConfiguration.class,
                    DispatcherServletAutoConfiguration.class, WebMvcEndpointManagementContextConfiguration.class))
            .withUserConfiguration(Mvc.class)
            .withPropertyValues("management.endpoints.web.exposure.include=opcua", "opcua.console.enabled=true",
                    "opcua.server.port=0", "opcua.server.bind-address=127.0.0.1",
                    "opcua.server.application-uri=urn:test:modules:server", "opcua.server.security.policies=None",
                    "opcua.server.security.pki-dir=" + pkiDir,
                    "opcua.client.connections.plant.endpoint-url=opc.tcp://127.0.0.1:4840/",
                    "opcua.client.connections.plant.connect-on-start=false");

    @Test
    void a_client_only_class_path_serves_the_endpoint_and_the_console_of_the_clients() {
        contextRunner.withClassLoader(new FilteredClassLoader(SERVER, EMBEDDED_STORE, JDBC_STORE)).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).hasSingleBean(OpcUaEndpoint.class).hasSingleBean(OpcUaClientsEndpointSection.class)
                    .doesNotHaveBean(OpcUaServerEndpointSection.class)
                    .hasSingleBean(OpcUaConsole.class).hasSingleBean(OpcUaConsoleController.class)
                    .doesNotHaveBean(ConsoleAddressSpace.class);
            MockMvcTester mvc = MockMvcTester.from(context);

            assertThat(endpointJson(context)).containsOnlyKeys("clients");
            var endpoint = assertThat(mvc.get().uri("/actuator/opcua")).hasStatusOk().bodyJson();
            endpoint.extractingPath("$.server").isNull();
            endpoint.extractingPath("$.clients").asInstanceOf(MAP).containsOnlyKeys("plant");
            endpoint.extractingPath("$.clients.plant.endpointUrl").isEqualTo("opc.tcp://127.0.0.1:4840/");
            endpoint.extractingPath("$.clients.plant.state").isEqualTo("DISCONNECTED");
            assertThat(mvc.get().uri("/actuator/opcua/nodeset/0")).hasStatus(404);

            var overview = assertThat(mvc.get().uri("/opcua-console/api/overview")).hasStatusOk().bodyJson();
            overview.extractingPath("$.clients.plant.state").isEqualTo("DISCONNECTED");
            overview.extractingPath("$.server").isNull();
            assertThat(mvc.get().uri("/opcua-console/api/browse")).hasStatus(404).bodyJson()
                    .extractingPath("$.error").isEqualTo("this application has no OPC UA server to browse");
        });
    }

    @Test
    void a_server_only_class_path_serves_the_endpoint_and_the_console_of_the_server() {
        contextRunner.withClassLoader(new FilteredClassLoader(CLIENT)).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).hasSingleBean(OpcUaEndpoint.class).hasSingleBean(OpcUaServerEndpointSection.class)
                    .doesNotHaveBean(OpcUaClientsEndpointSection.class)
                    .hasSingleBean(OpcUaConsole.class).hasSingleBean(OpcUaConsoleController.class)
                    .hasSingleBean(ConsoleAddressSpace.class);
            MockMvcTester mvc = MockMvcTester.from(context);

            assertThat(endpointJson(context))
                    .containsOnlyKeys("server", "endpoints", "sessions", "requests", "subscriptions");
            var endpoint = assertThat(mvc.get().uri("/actuator/opcua")).hasStatusOk().bodyJson();
            endpoint.extractingPath("$.clients").isNull();
            endpoint.extractingPath("$.server.applicationUri").isEqualTo("urn:test:modules:server");
            endpoint.extractingPath("$.server.state").isEqualTo("RUNNING");
            endpoint.extractingPath("$.endpoints[0].securityPolicy").isEqualTo("None");
            endpoint.extractingPath("$.requests.rejected").asInstanceOf(MAP)
                    .containsOnlyKeys("TOO_BUSY", "TOO_OLD", "TIMEOUT", "HALTED");
            assertThat(mvc.get().uri("/actuator/opcua/nodeset/0")).hasStatusOk().bodyText()
                    .contains("http://opcfoundation.org/UA/");

            var overview = assertThat(mvc.get().uri("/opcua-console/api/overview")).hasStatusOk().bodyJson();
            overview.extractingPath("$.server.applicationUri").isEqualTo("urn:test:modules:server");
            overview.extractingPath("$.clients").isNull();
            assertThat(mvc.get().uri("/opcua-console/api/browse?node=i=85")).hasStatusOk().bodyJson()
                    .extractingPath("$[*].browseName").asInstanceOf(LIST).contains("Server");
        });
    }

    /** What the endpoint's operation answers, as the Actuator's JSON mapper writes it (without nulls). */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> endpointJson(ApplicationContext context) {
        return context.getBean(EndpointJsonMapper.class).get()
                .convertValue(context.getBean(OpcUaEndpoint.class).opcua(), Map.class);
    }

    @Configuration(proxyBeanMethods = false)
    @EnableWebMvc
    static class Mvc {
    }
}
