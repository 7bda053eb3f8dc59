package dev.opcua.spring.boot.autoconfigure.server;

import dev.opcua.stack.server.transport.UaTcpBindException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports that the OPC UA server could not listen on {@code opcua.server.bind-address} and
 * {@code opcua.server.port} (another process holds the port, the address is not one of this host's,
 * or the port is privileged), naming both keys, instead of a stack trace through the lifecycle.
 */
class OpcUaServerBindFailureAnalyzer extends AbstractFailureAnalyzer<UaTcpBindException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, UaTcpBindException cause) {
        Throwable reason = cause.getCause();
        String description = "The OPC UA server could not listen on " + cause.bindAddress() + ":" + cause.port()
                + (reason == null || reason.getMessage() == null ? "." : ": " + reason.getMessage() + ".");
        String action = "Stop the process that listens on port " + cause.port() + ", or set opcua.server.port to a "
                + "free port (0 picks one) and opcua.server.bind-address to an address of this host (0.0.0.0: all).";
        return new FailureAnalysis(description, action, cause);
    }
}
