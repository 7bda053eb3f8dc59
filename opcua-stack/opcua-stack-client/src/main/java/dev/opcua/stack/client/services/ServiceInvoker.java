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
     * {@link #send(Function, Class)} completing with {@code then} applied to the response (what it
     * throws fails the future). Implementations apply it where the response is completed, saving the
     * dependent future a {@code thenApply} adds; this default is that {@code thenApply}.
     */
    default <T extends UaResponseMessage, R> CompletableFuture<R> send(
            Function<RequestHeader, ? extends UaRequestMessage> build, Class<T> responseType,
            Function<? super T, ? extends R> then) {
        return send(build, responseType).thenApply(then);
    }

    /**
     * {@link #send(Function, Class, Function)} of a call that is one object: it builds the request
     * and maps the response, where a lambda for each would be two objects per call (Read).
     */
    default <T extends UaResponseMessage, R> CompletableFuture<R> sendCall(Call<T, R> call, Class<T> responseType) {
        return send(call::request, responseType, call);
    }

    /**
     * A service call as one object: the request built around the header it is given, at the moment it
     * is sent, and the mapping of the response (its {@code apply}) to the call's result.
     */
    interface Call<T extends UaResponseMessage, R> extends Function<T, R> {

        /** The request around {@code header}; called once, on the sending thread. */
        UaRequestMessage request(RequestHeader header);
    }

    /**
     * Sends a request the server may hold for a while (Publish): {@code timeoutMillis} is both the
     * header's timeoutHint and how long the client waits.
     */
    <T extends UaResponseMessage> CompletableFuture<T> send(Function<RequestHeader, ? extends UaRequestMessage> build,
            Class<T> responseType, long timeoutMillis);

    /**
     * {@link #send(Function, Class, long)} whose future, when the response arrives on a connected channel,
     * completes on the I/O thread that read it rather than the callback executor, saving a thread hand-off
     * per response and, when the continuation sends the next request, the wake-up of the I/O thread for its
     * write. Only for the client's own continuations, which are short and never block (the Publish
     * pipeline's); a failure, and a request that waited for a reconnect, complete on the callback executor.
     * By default a plain {@link #send(Function, Class, long)}.
     */
    default <T extends UaResponseMessage> CompletableFuture<T> sendCompletingOnIoThread(
            Function<RequestHeader, ? extends UaRequestMessage> build, Class<T> responseType, long timeoutMillis) {
        return send(build, responseType, timeoutMillis);
    }
}
