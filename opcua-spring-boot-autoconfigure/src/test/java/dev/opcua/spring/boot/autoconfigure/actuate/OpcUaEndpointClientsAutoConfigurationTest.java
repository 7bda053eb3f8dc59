package dev.opcua.spring.boot.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.actuate.endpoint.OpcUaEndpoint;
import dev.opcua.spring.boot.actuate.endpoint.OpcUaEndpoint.OpcUaServerDescriptor;
import dev.opcua.spring.boot.autoconfigure.client.OpcUaClientAutoConfiguration;
import dev.opcua.spring.boot.autoconfigure.server.OpcUaServerAutoConfiguration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.autoconfigure.endpoint.jackson.JacksonEndpointAutoConfiguration;
import org.springframework.boot.actuate.endpoint.jackson.EndpointJsonMapper;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The {@code opcua} endpoint in client-only applications and in applications with a server and clients. */
class OpcUaEndpointClientsAutoConfigurationTest {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaClientAutoConfiguration.class,
                    OpcUaEndpointAutoConfiguration.class))
            .withPropertyValues("management.endpoints.web.exposure.include=opcua",
                    "opcua.client.connections.plant.endpoint-url=opc.tcp://127.0.0.1:4840/",
                    "opcua.client.connections.plant.connect-on-start=false");

    @Test
    void a_client_only_application_has_the_endpoint_with_its_connections() {
        contextRunner.run(context -> {
            assertThat(context).hasSingleBean(OpcUaEndpoint.class);
            OpcUaServerDescriptor descriptor = context.getBean(OpcUaEndpoint.class).opcua();
            assertThat(descriptor.server()).isNull();
            assertThat(descriptor.clients()).containsOnlyKeys("plant");
            assertThat(descriptor.clients().get("plant").state()).isEqualTo("DISCONNECTED");
        });
    }

    @Test
    void an_application_with_a_server_and_clients_lists_both() {
        contextRunner.withConfiguration(AutoConfigurations.of(OpcUaServerAutoConfiguration.class))
                .withPropertyValues("opcua.server.port=0", "opcua.server.bind-address=127.0.0.1")
                .run(context -> {
                    OpcUaServerDescriptor descriptor = context.getBean(OpcUaEndpoint.class).opcua();
                    assertThat(descriptor.server().state()).isEqualTo("RUNNING");
                    assertThat(descriptor.clients()).containsOnlyKeys("plant");
                });
    }

    @Test
    void a_server_only_application_writes_what_it_wrote_before_clients_were_added() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(OpcUaServerAutoConfiguration.class,
                        OpcUaClientAutoConfiguration.class, OpcUaEndpointAutoConfiguration.class,
                        JacksonEndpointAutoConfiguration.class))
                .withPropertyValues("management.endpoints.web.exposure.include=opcua", "opcua.server.port=0",
                        "opcua.server.bind-address=127.0.0.1")
                .run(context -> {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> json = context.getBean(EndpointJsonMapper.class).get()
                            .convertValue(context.getBean(OpcUaEndpoint.class).opcua(), Map.class);
                    assertThat(json).containsOnlyKeys("server", "endpoints", "sessions", "requests",
                            "subscriptions");
                });
    }

    @Test
    void is_not_registered_without_a_server_or_client_connections() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(OpcUaClientAutoConfiguration.class,
                        OpcUaEndpointAutoConfiguration.class))
                .withPropertyValues("management.endpoints.web.exposure.include=opcua")
                .run(context -> assertThat(context).doesNotHaveBean(OpcUaEndpoint.class));
    }

    @Test
    void is_not_registered_when_the_clients_are_disabled() {
        contextRunner.withPropertyValues("opcua.client.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(OpcUaEndpoint.class));
    }

    @Test
    void is_not_registered_while_the_endpoint_is_not_exposed() {
        contextRunner.withPropertyValues("management.endpoints.web.exposure.include=health")
                .run(context -> assertThat(context).hasBean("plantOpcUaClient")
                        .doesNotHaveBean(OpcUaEndpoint.class));
    }
}
