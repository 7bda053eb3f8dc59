package dev.opcua.spring.boot.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.actuate.endpoint.OpcUaEndpoint;
import dev.opcua.spring.boot.actuate.endpoint.OpcUaServerEndpointSection;
import dev.opcua.spring.boot.autoconfigure.server.OpcUaServerAutoConfiguration;
import dev.opcua.stack.server.OpcUaServer;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class OpcUaEndpointAutoConfigurationTest {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaServerAutoConfiguration.class,
                    OpcUaEndpointAutoConfiguration.class))
            .withPropertyValues("opcua.server.port=0", "opcua.server.bind-address=127.0.0.1",
                    "opcua.server.application-uri=urn:test:actuate:server");

    @Test
    void registers_the_endpoint_when_it_is_exposed_over_the_web() {
        contextRunner.withPropertyValues("management.endpoints.web.exposure.include=opcua").run(context -> {
            assertThat(context).hasSingleBean(OpcUaEndpoint.class);
            OpcUaEndpoint.OpcUaServerDescriptor descriptor = context.getBean(OpcUaEndpoint.class).opcua();
            assertThat(descriptor.server().applicationUri()).isEqualTo("urn:test:actuate:server");
            assertThat(descriptor.server().state()).isEqualTo("RUNNING");
        });
    }

    @Test
    void is_not_registered_while_the_endpoint_is_not_exposed() {
        contextRunner.run(context -> assertThat(context).hasSingleBean(OpcUaServer.class)
                .doesNotHaveBean(OpcUaEndpoint.class));
    }

    @Test
    void is_not_registered_when_access_to_the_endpoint_is_none() {
        contextRunner.withPropertyValues("management.endpoints.web.exposure.include=opcua",
                        "management.endpoint.opcua.access=NONE")
                .run(context -> assertThat(context).doesNotHaveBean(OpcUaEndpoint.class));
    }

    @Test
    void backs_off_without_the_actuator_on_the_classpath() {
        contextRunner.withPropertyValues("management.endpoints.web.exposure.include=opcua")
                .withClassLoader(new FilteredClassLoader(Endpoint.class))
                .run(context -> assertThat(context).hasSingleBean(OpcUaServer.class)
                        .doesNotHaveBean(OpcUaEndpoint.class));
    }

    @Test
    void backs_off_when_the_server_is_disabled() {
        contextRunner.withPropertyValues("management.endpoints.web.exposure.include=opcua",
                        "opcua.server.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(OpcUaEndpoint.class));
    }

    @Test
    void an_application_endpoint_replaces_the_auto_configured_one() {
        contextRunner.withPropertyValues("management.endpoints.web.exposure.include=opcua")
                .withBean("plantOpcUaEndpoint", OpcUaEndpoint.class,
                        () -> new OpcUaEndpoint(new OpcUaServerEndpointSection(OpcUaServer.builder().build())))
                .run(context -> assertThat(context).hasSingleBean(OpcUaEndpoint.class)
                        .hasBean("plantOpcUaEndpoint"));
    }
}
