package dev.opcua.spring.boot.client.listener;

/**
 * Receives what a listener threw, or why a notification could not be turned into its arguments
 * (a value of another type, a null for a primitive). The delivery is over; the subscription and
 * the listener go on with the next notification. The registry has counted the error already.
 * Runs on the client's listener executor: must not block for long.
 */
@FunctionalInterface
public interface OpcUaListenerErrorHandler {

    /**
     * @param listener the listener that failed (its id names the bean and method)
     * @param notification what it was called with
     * @param error the listener's exception, or an {@link OpcUaListenerArgumentException}
     */
    void handleError(OpcUaListener listener, ListenerNotification notification, Throwable error);
}
