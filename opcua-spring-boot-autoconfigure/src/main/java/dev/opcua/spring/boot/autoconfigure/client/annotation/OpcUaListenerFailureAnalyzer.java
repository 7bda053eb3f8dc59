package dev.opcua.spring.boot.autoconfigure.client.annotation;

import dev.opcua.spring.boot.client.listener.OpcUaListenerMethodException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a start-up that failed on an OPC UA listener method: the exception's message names the
 * bean, the method and the parameter or attribute at fault and what is allowed; the action says
 * where to fix it.
 */
public final class OpcUaListenerFailureAnalyzer extends AbstractFailureAnalyzer<OpcUaListenerMethodException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, OpcUaListenerMethodException cause) {
        return new FailureAnalysis("An OPC UA listener method cannot be set up: " + cause.getMessage(),
                "Fix the @OpcUaSubscription or @OpcUaEventSubscription annotation of the method named above, or the "
                        + "method's parameters.", cause);
    }
}
