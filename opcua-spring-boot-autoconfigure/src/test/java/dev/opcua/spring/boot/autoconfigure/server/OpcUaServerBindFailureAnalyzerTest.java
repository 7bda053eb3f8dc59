package dev.opcua.spring.boot.autoconfigure.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.io.support.SpringFactoriesLoader;

class OpcUaServerBindFailureAnalyzerTest {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaServerAutoConfiguration.class));

    @Test
    void a_port_held_by_another_process_fails_start_up_naming_the_address_the_port_and_both_keys() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            contextRunner.withPropertyValues("opcua.server.bind-address=127.0.0.1",
                    "opcua.server.port=" + taken.getLocalPort()).run(context -> {
                        assertThat(context).hasFailed();
                        FailureAnalysis analysis = new OpcUaServerBindFailureAnalyzer()
                                .analyze(context.getStartupFailure());
                        assertThat(analysis).as("analysis of %s", context.getStartupFailure()).isNotNull();
                        assertThat(analysis.getDescription())
                                .startsWith("The OPC UA server could not listen on 127.0.0.1:" + taken.getLocalPort());
                        assertThat(analysis.getAction()).contains("opcua.server.port", "opcua.server.bind-address",
                                "port " + taken.getLocalPort());
                    });
        }
    }

    @Test
    void is_registered_as_a_failure_analyzer() {
        assertThat(SpringFactoriesLoader.forDefaultResourceLocation(getClass().getClassLoader())
                .load(FailureAnalyzer.class, SpringFactoriesLoader.FailureHandler.handleMessage((message, e) -> { })))
                .hasAtLeastOneElementOfType(OpcUaServerBindFailureAnalyzer.class);
    }
}
