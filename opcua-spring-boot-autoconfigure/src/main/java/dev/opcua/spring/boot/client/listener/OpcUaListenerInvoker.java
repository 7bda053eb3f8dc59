package dev.opcua.spring.boot.client.listener;

/**
 * Hands a notification to the application: for an annotated method, resolves its arguments and
 * calls it. Runs on the client's listener executor, one item's notifications in order.
 */
@FunctionalInterface
public interface OpcUaListenerInvoker {

    /**
     * @throws Exception what the listener threw, or why its arguments could not be made; handed to
     *         the {@link OpcUaListenerErrorHandler}, the subscription goes on
     */
    void invoke(ListenerNotification notification) throws Exception;
}
