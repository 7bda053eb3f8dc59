package dev.opcua.spring.boot.autoconfigure.server.annotation;

import dev.opcua.spring.boot.server.annotation.OpcUaAnnotationException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a start-up that failed on an annotated bean: the exception's message already names the
 * bean, the member, the value and what is allowed; the action says where to fix it.
 */
public final class OpcUaAnnotationFailureAnalyzer extends AbstractFailureAnalyzer<OpcUaAnnotationException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, OpcUaAnnotationException cause) {
        return new FailureAnalysis("An @OpcUaNamespace bean cannot become OPC UA nodes: " + cause.getMessage(),
                "Fix the @UaVariable, @UaMethod, @UaObject or @OpcUaNamespace annotation of the member named above, "
                        + "or the member's Java type.", cause);
    }
}
