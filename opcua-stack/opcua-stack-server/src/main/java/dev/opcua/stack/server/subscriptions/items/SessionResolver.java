package dev.opcua.stack.server.subscriptions.items;

import dev.opcua.stack.core.transport.uasc.ServerSecureChannel;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.server.session.Session;

/**
 * Finds the activated session a request belongs to (Part 4, 5.6.2), normally
 * {@code SessionManager::resolve}; throws a {@link dev.opcua.stack.core.UaException} to refuse the
 * request (BadSessionIdInvalid, BadSessionNotActivated, ...).
 */
@FunctionalInterface
public interface SessionResolver {

    Session resolve(ServerSecureChannel channel, RequestHeader header);
}
