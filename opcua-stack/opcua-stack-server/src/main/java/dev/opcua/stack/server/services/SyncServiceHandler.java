package dev.opcua.stack.server.services;

import dev.opcua.stack.server.transport.uasc.ServerSecureChannel;
import dev.opcua.stack.core.types.UaStructure;

/**
 * A service handler (Part 4, 5) that answers at once, on the worker thread; for services that only
 * compute from memory, such as discovery. Failures are answered as for {@link ServiceHandler}.
 *
 * @param <T> the request type
 */
@FunctionalInterface
public interface SyncServiceHandler<T extends UaStructure> {

    UaStructure handle(ServerSecureChannel channel, T request);
}
