package dev.opcua.stack.core;

import dev.opcua.stack.core.types.builtin.StatusCode;

/**
 * A failure that carries the OPC UA status code a peer should see (Part 4, 7.39).
 *
 * <p>Unchecked: the stack raises it wherever the specification names a status for a failure, and
 * the transport turns it into an ERR message or a ServiceFault.
 */
public class UaException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final StatusCode statusCode;

    public UaException(int statusCode, String message) {
        this(StatusCode.of(statusCode), message, null);
    }

    public UaException(StatusCode statusCode, String message) {
        this(statusCode, message, null);
    }

    public UaException(StatusCode statusCode, String message, Throwable cause) {
        super(message, cause);
        this.statusCode = statusCode;
    }

    /** Status code that names the failure. */
    public StatusCode statusCode() {
        return statusCode;
    }

    @Override
    public String getMessage() {
        return statusCode + ": " + super.getMessage();
    }
}
