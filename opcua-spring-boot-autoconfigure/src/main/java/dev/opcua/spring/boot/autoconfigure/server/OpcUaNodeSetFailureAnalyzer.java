package dev.opcua.spring.boot.autoconfigure.server;

import dev.opcua.stack.server.nodeset.NodeSetException;
import dev.opcua.stack.server.nodeset.RequiredModelException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports a NodeSet2 file of {@code opcua.server.nodesets} the server could not import at start: a
 * RequiredModel that is missing or older than required (naming both models and what to add where),
 * or a file error (naming file, line and node), instead of a stack trace through the lifecycle.
 */
class OpcUaNodeSetFailureAnalyzer extends AbstractFailureAnalyzer<NodeSetException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, NodeSetException cause) {
        if (cause instanceof RequiredModelException required) {
            return new FailureAnalysis("The OPC UA server could not import its nodesets: " + cause.getMessage(),
                    "List the NodeSet2 file of model " + required.requiredModel() + " in opcua.server.nodesets, in the"
                            + " required version or later, before the file of model " + required.model() + ".",
                    cause);
        }
        return new FailureAnalysis("The OPC UA server could not import a NodeSet2 file: " + cause.getMessage(),
                "Correct the file at the place named, or remove it from opcua.server.nodesets.", cause);
    }
}
