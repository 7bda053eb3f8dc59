package dev.opcua.stack.client.services;

import dev.opcua.stack.core.types.UaRequestMessage;
import dev.opcua.stack.core.types.UaResponseMessage;
import dev.opcua.stack.core.types.structured.RequestHeader;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * What the service sets and the subscriptions need of a connected client: a way to send a request
 * of the current session. The request is built at the moment it is sent, from a fresh
 * {@link RequestHeader} (Part 4, 7.32: the session's authenticationToken, a new requestHandle, the
 * timeoutHint), so that a request waiting out a reconnect goes out under the session that exists
 * then, not the one that was lost.
 *
 * <p>Futures complete on the client's callback executor, never on an event loop. A ServiceFault
 * fails the future with a {@link dev.opcua.stack.core.UaException} carrying its serviceResult.
 */
public interface ServiceInvoker {

    /**
     * Sends a request with the client's request timeout as timeoutHint and wait.
     *
     * @param build makes the request around the header it is given; called once, on the sending thread
     * @param responseType the expected response; another one fails with BadUnknownResponse
     */
    <T extends UaResponseMessage> CompletableFuture<T> send(Function<RequestHeader, ? extends UaRequestMessage> build,
            Class<T> responseType);

    /**
     * Sends a request the server may hold for a while (Publish): {@code timeoutMillis} is both the
     * header's timeoutHint and how long the client waits.
     */
    <T extends UaResponseMessage> CompletableFuture<T> send(Function<RequestHeader, ? extends UaRequestMessage> build,
            Class<T> responseType, long timeoutMillis);
}
