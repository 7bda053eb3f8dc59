package dev.opcua.spring.boot.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.actuate.testing.TestServers;
import dev.opcua.spring.boot.autoconfigure.server.OpcUaServerAutoConfiguration;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.jackson.JacksonEndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.webmvc.autoconfigure.DispatcherServletAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.actuate.web.WebMvcEndpointManagementContextConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.web.servlet.config.annotation.EnableWebMvc;

/**
 * {@code GET /actuator/opcua/nodeset/{namespace}} over Spring MVC: the NodeSet2 export of a namespace named
 * by its index or its URI, as application/xml; 404 for a namespace the server lacks or holds no nodes of.
 */
class OpcUaEndpointNodeSetMvcTest {

    private final WebApplicationContextRunner contextRunner = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaServerAutoConfiguration.class,
                    EndpointAutoConfiguration.class, WebEndpointAutoConfiguration.class,
                    JacksonEndpointAutoConfiguration.class, DispatcherServletAutoConfiguration.class,
                    WebMvcEndpointManagementContextConfiguration.class,
                    OpcUaEndpointAutoConfiguration.class))
            .withUserConfiguration(Mvc.class)
            .withBean(InMemoryNodeManager.class, TestServers::plant)
            .withPropertyValues("management.endpoints.web.exposure.include=opcua", "opcua.server.port=0",
                    "opcua.server.bind-address=127.0.0.1", "opcua.server.application-uri=urn:test:actuate:server");

    @Test
    void a_namespace_named_by_index_or_uri_is_exported_as_nodeset2_xml() {
        contextRunner.run(context -> {
            MockMvcTester mvc = MockMvcTester.from(context);
            int index = context.getBean(OpcUaServer.class).namespaces().indexOf(TestServers.NAMESPACE);

            assertThat(mvc.get().uri("/actuator/opcua/nodeset/" + index)).hasStatusOk()
                    .hasContentTypeCompatibleWith(MediaType.APPLICATION_XML)
                    .bodyText().startsWith("<?xml version=\"1.0\" encoding=\"utf-8\"?>")
                    .contains("<Uri>" + TestServers.NAMESPACE + "</Uri>", "<UAVariable NodeId=\"ns=1;");
            assertThat(mvc.get().uri("/actuator/opcua/nodeset/" + TestServers.NAMESPACE)).hasStatusOk()
                    .bodyText().contains("<Model ModelUri=\"" + TestServers.NAMESPACE + "\">");
        });
    }

    @Test
    void an_unknown_namespace_or_one_without_nodes_in_memory_is_not_found() {
        contextRunner.run(context -> {
            MockMvcTester mvc = MockMvcTester.from(context);

            assertThat(mvc.get().uri("/actuator/opcua/nodeset/99")).hasStatus(404);
            assertThat(mvc.get().uri("/actuator/opcua/nodeset/99999999999")).hasStatus(404);
            assertThat(mvc.get().uri("/actuator/opcua/nodeset/urn:test:nowhere")).hasStatus(404);
            // index 1 is the server's own application URI, which no node manager holds here
            assertThat(mvc.get().uri("/actuator/opcua/nodeset/1")).hasStatus(404);
            assertThat(mvc.get().uri("/actuator/opcua/sessions/1")).hasStatus(404);
            assertThat(mvc.get().uri("/actuator/opcua")).hasStatusOk();
        });
    }

    @Configuration(proxyBeanMethods = false)
    @EnableWebMvc
    static class Mvc {
    }
}
