package dev.opcua.spring.boot.autoconfigure.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.OpcUaServer;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.core.io.ProtocolResolver;
import org.springframework.core.io.support.SpringFactoriesLoader;

/** {@code opcua.server.nodesets} with the models built into the server: no NodeSet2 file needed. */
class OpcUaServerBuiltInModelTest {

    private static final String DI = "http://opcfoundation.org/UA/DI/";
    private static final String MACHINERY = "http://opcfoundation.org/UA/Machinery/";

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaServerAutoConfiguration.class))
            .withPropertyValues("opcua.server.bind-address=127.0.0.1", "opcua.server.port=0");

    @Test
    void model_locations_import_the_generated_models() {
        contextRunner.withPropertyValues("opcua.server.nodesets[0]=model:di", "opcua.server.nodesets[1]=model:machinery")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    OpcUaServer server = context.getBean(OpcUaServer.class);
                    assertThat(server.namespaces().toArray()).contains(DI, MACHINERY);
                    assertThat(server.models().model(MACHINERY).version()).isEqualTo("1.03.0");
                    NodeId identificationType = NodeId.numeric(server.namespaces().indexOf(MACHINERY), 1012);
                    assertThat(server.nodeManagers().managerOf(identificationType).namespaceUris())
                            .containsExactly(MACHINERY);
                });
    }

    @Test
    void model_locations_import_in_a_reactive_web_application_too() {
        // A reactive context makes an unknown prefix a resource that keeps no path: the resolver that
        // spring.factories registers for every application names the model all the same.
        new ReactiveWebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(OpcUaServerAutoConfiguration.class))
                .withInitializer(context -> SpringFactoriesLoader.loadFactories(ProtocolResolver.class, null)
                        .forEach(context::addProtocolResolver))
                .withPropertyValues("opcua.server.bind-address=127.0.0.1", "opcua.server.port=0",
                        "opcua.server.nodesets[0]=model:di", "opcua.server.nodesets[1]=model:machinery")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(OpcUaServer.class).namespaces().toArray()).contains(DI, MACHINERY);
                });
    }

    @Test
    void the_resolver_makes_model_locations_resources_that_exist_when_the_server_knows_the_model() {
        BuiltInModelProtocolResolver resolver = new BuiltInModelProtocolResolver();

        assertThat(resolver.resolve("model:Machinery", null).exists()).isTrue();
        assertThat(resolver.resolve("model:packml", null).exists()).isFalse();
        assertThat(resolver.resolve("classpath:nodesets/x.xml", null)).isNull();
    }

    @Test
    void the_resolver_is_registered_for_every_application() {
        assertThat(SpringFactoriesLoader.loadFactories(ProtocolResolver.class, null))
                .hasAtLeastOneElementOfType(BuiltInModelProtocolResolver.class);
    }

    @Test
    void an_unknown_model_fails_start_up_naming_the_key_and_the_known_models() {
        contextRunner.withPropertyValues("opcua.server.nodesets[0]=model:packml").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause()
                    .isInstanceOf(InvalidOpcUaServerPropertyException.class)
                    .hasMessageContaining("opcua.server.nodesets[0]")
                    .hasMessageContaining("model:packml")
                    .hasMessageContaining("model:di or model:machinery");
        });
    }
}
