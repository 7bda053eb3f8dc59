package dev.opcua.stack.client.session;

import dev.opcua.stack.client.transport.UaTcpClientChannel;
import dev.opcua.stack.core.types.UaStructure;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * What a session needs of its secure channel: the endpoint URL it connected to and a way to send a
 * request. An interface so that the session's checks can be tested against a scripted server.
 */
interface SessionTransport {

    /** The endpoint URL the channel was opened with (CreateSession's endpointUrl). */
    String endpointUrl();

    /** Sends a request; see {@link UaTcpClientChannel#request(UaStructure, Class)}. */
    <T extends UaStructure> CompletableFuture<T> request(UaStructure request, Class<T> responseType);

    /** Sends a request whose future completes with {@code then} applied to the response. */
    default <T extends UaStructure, R> CompletableFuture<R> request(UaStructure request, Class<T> responseType,
            Function<? super T, ? extends R> then) {
        return request(request, responseType).thenApply(then);
    }

    /** See {@link UaTcpClientChannel#requestCompletingOnIoThread(UaStructure, Class)}; by default a plain request. */
    default <T extends UaStructure> CompletableFuture<T> requestCompletingOnIoThread(UaStructure request,
            Class<T> responseType) {
        return request(request, responseType);
    }

    static SessionTransport of(UaTcpClientChannel channel) {
        return new SessionTransport() {
            @Override
            public String endpointUrl() {
                return channel.endpointUrl();
            }

            @Override
            public <T extends UaStructure> CompletableFuture<T> request(UaStructure request, Class<T> responseType) {
                return channel.request(request, responseType);
            }

            @Override
            public <T extends UaStructure, R> CompletableFuture<R> request(UaStructure request, Class<T> responseType,
                    Function<? super T, ? extends R> then) {
                return channel.request(request, responseType, then);
            }

            @Override
            public <T extends UaStructure> CompletableFuture<T> requestCompletingOnIoThread(UaStructure request,
                    Class<T> responseType) {
                return channel.requestCompletingOnIoThread(request, responseType);
            }

            @Override
            public String toString() {
                return channel.toString();
            }
        };
    }
}
