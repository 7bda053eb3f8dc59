package dev.opcua.stack.client;

/**
 * Told of every change of an {@link OpcUaClient}'s {@link ClientState}, in order, on the client's
 * callback executor. A listener must not block: the next change waits for it.
 */
@FunctionalInterface
public interface ClientStateListener {

    /**
     * @param previous the state before
     * @param current the state now
     * @param cause why the client left CONNECTED or a connect attempt failed; null otherwise
     */
    void onStateChanged(ClientState previous, ClientState current, Throwable cause);
}
