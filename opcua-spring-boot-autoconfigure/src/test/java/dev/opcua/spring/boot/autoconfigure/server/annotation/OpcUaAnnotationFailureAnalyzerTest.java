package dev.opcua.spring.boot.autoconfigure.server.annotation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.server.annotation.OpcUaAnnotationException;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** {@link OpcUaAnnotationFailureAnalyzer}: the bean's problem is the description, wherever it is wrapped. */
class OpcUaAnnotationFailureAnalyzerTest {

    @Test
    void a_wrapped_annotation_error_is_described_with_its_message_and_an_action() {
        OpcUaAnnotationException cause = new OpcUaAnnotationException("bean 'tank' (com.example.Tank) member levels: "
                + "type java.util.Map is not supported");
        FailureAnalysis analysis = new OpcUaAnnotationFailureAnalyzer()
                .analyze(new BeanCreationException("opcUaAnnotatedNodeManagers", "failed", cause));
        assertThat(analysis.getDescription()).isEqualTo("An @OpcUaNamespace bean cannot become OPC UA nodes: bean "
                + "'tank' (com.example.Tank) member levels: type java.util.Map is not supported");
        assertThat(analysis.getAction()).startsWith("Fix the @UaVariable, @UaMethod, @UaObject or @OpcUaNamespace");
        assertThat(analysis.getCause()).isSameAs(cause);
    }

    @Test
    void other_failures_are_left_to_other_analyzers() {
        assertThat(new OpcUaAnnotationFailureAnalyzer().analyze(new IllegalStateException("port in use"))).isNull();
    }
}
