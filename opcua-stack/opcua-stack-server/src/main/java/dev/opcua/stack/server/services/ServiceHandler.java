package dev.opcua.stack.server.services;

import dev.opcua.stack.server.transport.uasc.ServerSecureChannel;
import dev.opcua.stack.core.types.UaStructure;
import java.util.concurrent.CompletableFuture;

/**
 * Answers one kind of service request (Part 4, 5). Runs on a worker thread; a handler that waits on
 * a device or database returns an incomplete future instead of blocking the worker.
 *
 * <p>The response echoes the request's requestHandle in its header (Part 4, 7.33). A handler that
 * fails, by throwing or with an exceptional future, is answered with a ServiceFault: the status of a
 * {@link dev.opcua.stack.core.UaException}, otherwise BadInternalError.
 *
 * @param <T> the request type
 */
@FunctionalInterface
public interface ServiceHandler<T extends UaStructure> {

    CompletableFuture<? extends UaStructure> handle(ServerSecureChannel channel, T request);
}
