package dev.opcua.spring.boot.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.actuate.testing.TestClient;
import dev.opcua.spring.boot.actuate.testing.TestServers;
import dev.opcua.spring.boot.autoconfigure.console.OpcUaConsoleAutoConfiguration;
import dev.opcua.spring.boot.autoconfigure.server.OpcUaServerAutoConfiguration;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.web.servlet.config.annotation.EnableWebMvc;

/** The console's page and JSON with Spring MVC, against a real server started by the starter. */
class OpcUaConsoleMvcTest {

    private final WebApplicationContextRunner contextRunner = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaServerAutoConfiguration.class,
                    OpcUaConsoleAutoConfiguration.class))
            .withUserConfiguration(Mvc.class)
            .withBean(InMemoryNodeManager.class, ConsoleTestPlant::plant)
            .withPropertyValues(ConsoleTestPlant.PROPERTIES);

    @Test
    void serves_the_page_below_opcua_console_with_its_script_and_style_sheet() {
        contextRunner.run(context -> {
            MockMvcTester mvc = MockMvcTester.from(context);
            assertThat(mvc.get().uri("/opcua-console")).hasStatus(302).hasHeader("Location", "opcua-console/");
            assertThat(mvc.get().uri("/opcua-console/")).hasStatusOk().hasContentTypeCompatibleWith(MediaType.TEXT_HTML)
                    .bodyText().contains("<title>OPC UA console</title>", "console.js", "webjars/echarts");
            assertThat(mvc.get().uri("/opcua-console/console.js")).hasStatusOk().bodyText().contains("api/overview");
            assertThat(mvc.get().uri("/opcua-console/console.css")).hasStatusOk()
                    .hasContentTypeCompatibleWith("text/css");
        });
    }

    @Test
    void the_overview_is_the_actuator_descriptor_with_the_session_of_a_client_and_its_requests_by_service() {
        contextRunner.run(context -> {
            MockMvcTester mvc = MockMvcTester.from(context);
            OpcUaServer server = context.getBean(OpcUaServer.class);
            try (TestClient client = TestClient.connect(server)) {
                client.read(NodeId.ns0(2258));
                // counted once the response is sent: the client may have it a moment before
                TestServers.waitUntil(() -> server.statistics().requests().activeRequests() == 0);

                var overview = assertThat(mvc.get().uri("/opcua-console/api/overview")).hasStatusOk().bodyJson();
                overview.extractingPath("$.server.applicationUri").isEqualTo("urn:test:console:server");
                overview.extractingPath("$.server.state").isEqualTo("RUNNING");
                overview.extractingPath("$.server.serverState").isEqualTo("Running");
                overview.extractingPath("$.endpoints[0].securityPolicy").isEqualTo("None");
                overview.extractingPath("$.sessions[0].clientApplicationName").isEqualTo(TestClient.APPLICATION_NAME);
                overview.extractingPath("$.sessions[0].identityType").isEqualTo("Anonymous");
                overview.extractingPath("$.requests.capacity").isNotNull();
                overview.extractingPath("$.requests.services.Read.count").isEqualTo(1);
                overview.extractingPath("$.subscriptions.subscriptions").isEqualTo(0);
            }
        });
    }

    @Test
    void browses_the_objects_folder_in_process_and_a_child_below_it() {
        contextRunner.run(context -> {
            MockMvcTester mvc = MockMvcTester.from(context);
            var objects = assertThat(mvc.get().uri("/opcua-console/api/browse")).hasStatusOk().bodyJson();
            objects.extractingPath("$[?(@.browseName == 'Server')].nodeId").asArray().containsExactly("i=2253");
            objects.extractingPath("$[?(@.browseName == 'Server')].hasChildren").asArray().containsExactly(true);
            objects.extractingPath("$[?(@.browseName == 'Line')].nodeClass").asArray().containsExactly("Object");

            String line = context.getBean(InMemoryNodeManager.class).nodeId("Line").toString();
            var children = assertThat(mvc.get().uri("/opcua-console/api/browse").param("node", line)).hasStatusOk()
                    .bodyJson();
            children.extractingPath("$[*].browseName").asArray().containsExactly("Speed", "Counter", "SetPoint");
            children.extractingPath("$[*].nodeClass").asArray().containsOnly("Variable");
        });
    }

    @Test
    void reads_a_value_and_sees_it_change() {
        contextRunner.run(context -> {
            MockMvcTester mvc = MockMvcTester.from(context);
            InMemoryNodeManager plant = context.getBean(InMemoryNodeManager.class);
            var speed = assertThat(mvc.get().uri("/opcua-console/api/read").param("node", plant.nodeId("Line.Speed").toString()))
                    .hasStatusOk().bodyJson();
            speed.extractingPath("$.value").isEqualTo("1.5");
            speed.extractingPath("$.number").isEqualTo(1.5);
            speed.extractingPath("$.dataType").isEqualTo("Double");
            speed.extractingPath("$.status").isEqualTo("Good");

            String counter = plant.nodeId("Line.Counter").toString();
            assertThat(mvc.get().uri("/opcua-console/api/read").param("node", counter)).hasStatusOk().bodyJson()
                    .extractingPath("$.number").isEqualTo(1.0);
            assertThat(mvc.get().uri("/opcua-console/api/read").param("node", counter)).hasStatusOk().bodyJson()
                    .extractingPath("$.number").isEqualTo(2.0);
        });
    }

    @Test
    void reading_an_object_gives_its_bad_status_and_an_unknown_or_malformed_node_an_error() {
        contextRunner.run(context -> {
            MockMvcTester mvc = MockMvcTester.from(context);
            assertThat(mvc.get().uri("/opcua-console/api/read").param("node", "i=85")).hasStatusOk().bodyJson()
                    .extractingPath("$.status").isEqualTo("BadAttributeIdInvalid");
            assertThat(mvc.get().uri("/opcua-console/api/browse").param("node", "ns=77;s=Nowhere")).hasStatus(404)
                    .bodyJson().extractingPath("$.error").asString().contains("BadNodeIdUnknown");
            assertThat(mvc.get().uri("/opcua-console/api/browse").param("node", "Objects")).hasStatus(400)
                    .bodyJson().extractingPath("$.error").asString().contains("Objects");
        });
    }

    @Configuration(proxyBeanMethods = false)
    @EnableWebMvc
    static class Mvc {
    }
}
