package dev.opcua.spring.boot.autoconfigure.diagnostics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.autoconfigure.server.InvalidOpcUaServerPropertyException;
import org.junit.jupiter.api.Test;
import org.springframework.boot.diagnostics.FailureAnalysis;

class InvalidOpcUaPropertyFailureAnalyzerTest {

    private final InvalidOpcUaPropertyFailureAnalyzer analyzer = new InvalidOpcUaPropertyFailureAnalyzer();

    @Test
    void an_error_that_names_no_property_is_reported_by_its_reason_alone() {
        FailureAnalysis analysis = analyzer.analyze(new InvalidOpcUaServerPropertyException(null, null,
                "the stack refuses this configuration: a rule on two values", "a configuration that satisfies it"));

        assertThat(analysis.getDescription()).startsWith("The OPC UA server could not be configured")
                .contains("Reason: the stack refuses this configuration: a rule on two values")
                .doesNotContain("Property:");
        assertThat(analysis.getAction()).endsWith("a configuration that satisfies it");
    }

    @Test
    void an_error_of_a_property_names_its_key_value_and_what_it_accepts() {
        FailureAnalysis analysis = analyzer.analyze(new InvalidOpcUaServerPropertyException(
                "opcua.server.path", "plant", "it must start with '/'", "a path such as /plant"));

        assertThat(analysis.getDescription()).contains("Property: opcua.server.path").contains("Value: \"plant\"")
                .contains("Reason: it must start with '/'");
        assertThat(analysis.getAction()).contains("opcua.server.path accepts: a path such as /plant");
    }
}
