package dev.opcua.spring.boot.autoconfigure.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.OpcUaServer;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.io.support.SpringFactoriesLoader;

/** {@code opcua.server.nodesets}: files imported at start, and the messages when one is missing or a model is absent. */
class OpcUaServerNodeSetTest {

    private static final String DI = "http://opcfoundation.org/UA/DI/";
    private static final String MACHINERY = "http://opcfoundation.org/UA/Machinery/";
    /** opcua-stack-server's export of its built-in models, from its test jar. */
    private static final String DI_FILE = "classpath:nodesets/DI.NodeSet2.xml";
    private static final String MACHINERY_FILE = "classpath:nodesets/Machinery.NodeSet2.xml";

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaServerAutoConfiguration.class))
            .withPropertyValues("opcua.server.bind-address=127.0.0.1", "opcua.server.port=0");

    @Test
    void the_listed_nodesets_are_imported_in_order_into_their_own_namespaces() {
        contextRunner.withPropertyValues("opcua.server.nodesets[0]=" + DI_FILE,
                "opcua.server.nodesets[1]=" + MACHINERY_FILE).run(context -> {
                    assertThat(context).hasNotFailed();
                    OpcUaServer server = context.getBean(OpcUaServer.class);
                    assertThat(server.namespaces().toArray()).contains(DI, MACHINERY);
                    assertThat(server.models().model(MACHINERY).version()).isEqualTo("1.03.0");
                    NodeId machines = NodeId.numeric(server.namespaces().indexOf(MACHINERY), 1001);
                    assertThat(server.nodeManagers().managerOf(machines).namespaceUris()).containsExactly(MACHINERY);
                });
    }

    @Test
    void a_missing_file_fails_start_up_naming_the_key_and_the_location() {
        contextRunner.withPropertyValues("opcua.server.nodesets[0]=classpath:nodesets/NoSuch.NodeSet2.xml")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause()
                            .isInstanceOf(InvalidOpcUaServerPropertyException.class)
                            .hasMessageContaining("opcua.server.nodesets[0]")
                            .hasMessageContaining("nodesets/NoSuch.NodeSet2.xml")
                            .hasMessageContaining("no NodeSet2 file is at this location");
                });
    }

    @Test
    void an_absent_required_model_fails_start_up_naming_both_models_and_the_property() {
        contextRunner.withPropertyValues("opcua.server.nodesets[0]=" + MACHINERY_FILE)
                .run(context -> {
                    assertThat(context).hasFailed();
                    FailureAnalysis analysis = new OpcUaNodeSetFailureAnalyzer().analyze(context.getStartupFailure());
                    assertThat(analysis).as("analysis of %s", context.getStartupFailure()).isNotNull();
                    assertThat(analysis.getDescription()).contains("model " + MACHINERY + " requires model " + DI,
                            "not loaded");
                    assertThat(analysis.getAction()).contains("opcua.server.nodesets", "model " + DI,
                            "before the file of model " + MACHINERY);
                });
    }

    @Test
    void is_registered_as_a_failure_analyzer() {
        assertThat(SpringFactoriesLoader.forDefaultResourceLocation(getClass().getClassLoader())
                .load(FailureAnalyzer.class, SpringFactoriesLoader.FailureHandler.handleMessage((message, e) -> { })))
                .hasAtLeastOneElementOfType(OpcUaNodeSetFailureAnalyzer.class);
    }
}
