package dev.opcua.spring.boot.autoconfigure.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.actuate.endpoint.OpcUaEndpoint;
import dev.opcua.spring.boot.actuate.endpoint.OpcUaServerEndpointSection;
import dev.opcua.spring.boot.autoconfigure.actuate.OpcUaEndpointAutoConfiguration;
import dev.opcua.spring.boot.autoconfigure.server.OpcUaServerAutoConfiguration;
import dev.opcua.spring.boot.console.OpcUaConsole;
import dev.opcua.spring.boot.console.OpcUaConsoleController;
import dev.opcua.stack.server.OpcUaServer;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

@ExtendWith(OutputCaptureExtension.class)
class OpcUaConsoleAutoConfigurationTest {

    private static final String[] SERVER = { "opcua.server.port=0", "opcua.server.bind-address=127.0.0.1",
        "opcua.server.application-uri=urn:test:console:server" };

    private final WebApplicationContextRunner contextRunner = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaServerAutoConfiguration.class,
                    OpcUaEndpointAutoConfiguration.class, OpcUaConsoleAutoConfiguration.class))
            .withPropertyValues(SERVER);

    @Test
    void is_off_by_default() {
        contextRunner.run(context -> assertThat(context).hasSingleBean(OpcUaServer.class)
                .doesNotHaveBean(OpcUaConsole.class).doesNotHaveBean(OpcUaConsoleController.class)
                .doesNotHaveBean("opcUaConsoleResources"));
    }

    @Test
    void serves_the_console_of_the_server_when_enabled_in_a_servlet_application() {
        contextRunner.withPropertyValues("opcua.console.enabled=true").run(context -> {
            assertThat(context).hasSingleBean(OpcUaConsole.class).hasSingleBean(OpcUaConsoleController.class)
                    .getBean("opcUaConsoleResources").isInstanceOf(WebMvcConfigurer.class);
            OpcUaConsole console = context.getBean(OpcUaConsole.class);
            assertThat(console.hasAddressSpace()).isTrue();
            assertThat(console.overview().server().applicationUri()).isEqualTo("urn:test:console:server");
        });
    }

    @Test
    void takes_its_overview_from_the_actuator_endpoint_when_there_is_one() {
        OpcUaEndpoint endpoint = new OpcUaEndpoint(
                new OpcUaServerEndpointSection(OpcUaServer.builder().applicationUri("urn:test:own").build()));
        contextRunner.withPropertyValues("opcua.console.enabled=true")
                .withBean("ownEndpoint", OpcUaEndpoint.class, () -> endpoint)
                .run(context -> assertThat(context.getBean(OpcUaConsole.class).overview().server().applicationUri())
                        .isEqualTo("urn:test:own"));
    }

    @Test
    void is_not_served_by_an_application_without_a_web_server() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(OpcUaServerAutoConfiguration.class,
                        OpcUaConsoleAutoConfiguration.class))
                .withPropertyValues(SERVER).withPropertyValues("opcua.console.enabled=true")
                .run(context -> assertThat(context).hasSingleBean(OpcUaServer.class)
                        .doesNotHaveBean(OpcUaConsole.class));
    }

    @Test
    void backs_off_without_a_server_or_client_connections() {
        contextRunner.withPropertyValues("opcua.console.enabled=true", "opcua.server.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(OpcUaConsole.class)
                        .doesNotHaveBean(OpcUaConsoleController.class));
    }

    @Test
    void is_not_served_when_disabled() {
        contextRunner.withPropertyValues("opcua.console.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(OpcUaConsole.class));
    }

    @Test
    void an_application_console_replaces_the_auto_configured_one() {
        contextRunner.withPropertyValues("opcua.console.enabled=true")
                .withBean("plantConsole", OpcUaConsole.class,
                        () -> new OpcUaConsole(
                                new OpcUaEndpoint(new OpcUaServerEndpointSection(OpcUaServer.builder().build())), null))
                .run(context -> assertThat(context).hasSingleBean(OpcUaConsole.class).hasBean("plantConsole")
                        .hasSingleBean(OpcUaConsoleController.class));
    }

    @Test
    void binds_the_timeout() {
        contextRunner.withPropertyValues("opcua.console.enabled=true", "opcua.console.timeout=750ms")
                .run(context -> assertThat(context.getBean(OpcUaConsoleProperties.class).getTimeout())
                        .isEqualTo(Duration.ofMillis(750)));
    }

    @Test
    void warns_at_start_up_that_the_console_is_open_when_spring_security_is_absent(CapturedOutput output) {
        contextRunner.withPropertyValues("opcua.console.enabled=true")
                .withClassLoader(new FilteredClassLoader("org.springframework.security."))
                .run(context -> {
                    assertThat(context).hasSingleBean(OpcUaConsoleSecurityWarning.class);
                    context.getBean(OpcUaConsoleSecurityWarning.class).onApplicationEvent(
                            new ApplicationStartedEvent(new SpringApplication(), new String[0], null, Duration.ZERO));
                    assertThat(output).contains("WARN").contains("The OPC UA console at /opcua-console is not protected");
                });
    }

    @Test
    void does_not_warn_when_spring_security_is_present() {
        contextRunner.withPropertyValues("opcua.console.enabled=true")
                .run(context -> assertThat(context).hasSingleBean(OpcUaConsole.class)
                        .doesNotHaveBean(OpcUaConsoleSecurityWarning.class));
    }
}
