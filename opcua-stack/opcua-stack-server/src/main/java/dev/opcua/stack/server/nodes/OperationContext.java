package dev.opcua.stack.server.nodes;

import dev.opcua.stack.core.transport.uasc.ServerSecureChannel;
import dev.opcua.stack.server.session.Session;

/**
 * What a node manager learns about the request an operation belongs to. Grows with sessions
 * (identity, roles) in the session work.
 *
 * @param channel the secure channel the request came on, or null for calls made inside the server
 * @param session the activated session of the request where the service resolved it (Call does, for
 *     methods such as ConditionRefresh that act on the caller's subscriptions), else null
 */
public record OperationContext(ServerSecureChannel channel, Session session) {

    /** A context for calls made by the server itself. */
    public static final OperationContext INTERNAL = new OperationContext(null, null);

    /** A context that knows the channel only. */
    public OperationContext(ServerSecureChannel channel) {
        this(channel, null);
    }
}
