package dev.opcua.spring.boot.autoconfigure.client;

import dev.opcua.spring.boot.client.OpcUaClientConnectException;
import dev.opcua.stack.core.Failures;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Reports a fail-fast connection that could not be made: which one, where to, and why. */
class OpcUaClientConnectFailureAnalyzer extends AbstractFailureAnalyzer<OpcUaClientConnectException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, OpcUaClientConnectException cause) {
        Throwable reason = cause.getCause() == null ? cause : Failures.unwrap(cause.getCause());
        String key = OpcUaClientPropertiesMapper.CONNECTIONS + "." + cause.getConnection();
        String description = "The OPC UA client connection '" + cause.getConnection() + "' could not connect to "
                + cause.getEndpointUrl() + ":\n\n    " + (reason.getMessage() == null ? reason : reason.getMessage())
                + "\n\nand " + key + ".fail-fast is true.";
        String action = "Start the server or check " + key + ".endpoint-url, its security and identity settings; or"
                + " set " + key + ".fail-fast=false to start without the server and connect when it is up.";
        return new FailureAnalysis(description, action, cause);
    }
}
