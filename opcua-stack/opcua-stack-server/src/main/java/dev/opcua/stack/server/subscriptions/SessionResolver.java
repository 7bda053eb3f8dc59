package dev.opcua.stack.server.subscriptions;

import dev.opcua.stack.server.transport.uasc.ServerSecureChannel;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.server.session.Session;

/**
 * Finds the activated session of a request (Part 4, 5.6): {@code sessionManager::resolve}. Unlike a
 * {@link dev.opcua.stack.server.services.RequestGuard} it returns the session, which the subscription
 * services need.
 */
@FunctionalInterface
public interface SessionResolver {

    /**
     * @throws dev.opcua.stack.core.UaException BadSessionIdInvalid, BadSessionNotActivated,
     *         BadSecureChannelIdInvalid
     */
    Session resolve(ServerSecureChannel channel, RequestHeader header);
}
