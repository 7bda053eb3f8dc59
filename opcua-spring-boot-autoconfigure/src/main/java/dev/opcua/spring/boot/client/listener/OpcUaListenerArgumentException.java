package dev.opcua.spring.boot.client.listener;

/**
 * A notification that does not fit a listener's parameters: a value of a type that does not
 * convert, out of the parameter's range, or null for a primitive. An error of that one delivery.
 */
public class OpcUaListenerArgumentException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public OpcUaListenerArgumentException(String message) {
        super(message);
    }
}
