package dev.opcua.spring.boot.console;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.NodeId;

/** A node that cannot be browsed: unknown (BadNodeIdUnknown) or refused by its node manager. */
public class ConsoleNodeException extends RuntimeException {

    private final String status;

    public ConsoleNodeException(NodeId nodeId, int status) {
        super(nodeId + ": " + StatusCodes.name(status));
        this.status = StatusCodes.name(status);
    }

    /** The StatusCode's name, e.g. {@code BadNodeIdUnknown}. */
    public String status() {
        return status;
    }
}
