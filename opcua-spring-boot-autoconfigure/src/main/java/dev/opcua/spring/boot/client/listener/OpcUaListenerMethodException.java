package dev.opcua.spring.boot.client.listener;

/**
 * A listener method that cannot be set up, found at start-up: the message names the bean, the
 * method, the parameter or attribute at fault and what is allowed.
 */
public class OpcUaListenerMethodException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    public OpcUaListenerMethodException(String message) {
        super(message);
    }

    public OpcUaListenerMethodException(String message, Throwable cause) {
        super(message, cause);
    }
}
