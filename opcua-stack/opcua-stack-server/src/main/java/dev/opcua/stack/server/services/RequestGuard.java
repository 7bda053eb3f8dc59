package dev.opcua.stack.server.services;

import dev.opcua.stack.server.transport.uasc.ServerSecureChannel;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.server.session.Session;

/**
 * A check a service runs before it touches the address space, such as that the request carries the
 * authentication token of an activated session on its channel (Part 4, 5.6.2). Throws a
 * {@link dev.opcua.stack.core.UaException} to refuse the request with its status.
 */
@FunctionalInterface
public interface RequestGuard {

    /** Accepts every request, without a session (for servers and tests without sessions). */
    RequestGuard NONE = (channel, header) -> null;

    /** @return the request's session, whose user the operations act for; null when there are no sessions */
    Session check(ServerSecureChannel channel, RequestHeader header);
}
