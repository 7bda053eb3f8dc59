package dev.opcua.spring.boot.console;

import dev.opcua.spring.boot.autoconfigure.console.OpcUaConsoleAutoConfiguration;
import dev.opcua.spring.boot.autoconfigure.server.OpcUaServerAutoConfiguration;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.config.EnableWebFlux;

/** The same console in a WebFlux application: the page, its script, and the JSON from the server. */
class OpcUaConsoleWebFluxTest {

    private final ReactiveWebApplicationContextRunner contextRunner = new ReactiveWebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaServerAutoConfiguration.class,
                    OpcUaConsoleAutoConfiguration.class))
            .withUserConfiguration(Flux.class)
            .withBean(InMemoryNodeManager.class, ConsoleTestPlant::plant)
            .withPropertyValues(ConsoleTestPlant.PROPERTIES);

    @Test
    void serves_the_page_the_overview_a_browse_and_a_read() {
        contextRunner.run(context -> {
            WebTestClient client = WebTestClient.bindToApplicationContext(context).build();
            client.get().uri("/opcua-console").exchange().expectStatus().isFound()
                    .expectHeader().location("opcua-console/");
            client.get().uri("/opcua-console/").exchange().expectStatus().isOk()
                    .expectHeader().contentTypeCompatibleWith(MediaType.TEXT_HTML)
                    .expectBody(String.class).value(body -> org.assertj.core.api.Assertions.assertThat(body)
                            .contains("<title>OPC UA console</title>"));
            client.get().uri("/opcua-console/console.js").exchange().expectStatus().isOk();
            client.get().uri("/opcua-console/api/overview").exchange().expectStatus().isOk().expectBody()
                    .jsonPath("$.server.applicationUri").isEqualTo("urn:test:console:server")
                    .jsonPath("$.server.state").isEqualTo("RUNNING");
            client.get().uri("/opcua-console/api/browse").exchange().expectStatus().isOk().expectBody()
                    .jsonPath("$[?(@.browseName == 'Line')].nodeClass").isEqualTo("Object");
            String speed = context.getBean(InMemoryNodeManager.class).nodeId("Line.Speed").toString();
            client.get().uri(b -> b.path("/opcua-console/api/read").queryParam("node", "{node}").build(speed))
                    .exchange().expectStatus().isOk().expectBody()
                    .jsonPath("$.number").isEqualTo(1.5)
                    .jsonPath("$.dataType").isEqualTo("Double");
            client.get().uri("/opcua-console/api/browse?node=ns=77;s=Nowhere").exchange().expectStatus().isNotFound();
        });
    }

    @Configuration(proxyBeanMethods = false)
    @EnableWebFlux
    static class Flux {
    }
}
