package dev.opcua.stack.server.nodes;

import dev.opcua.stack.core.transport.uasc.ServerSecureChannel;

/**
 * What a node manager learns about the request an operation belongs to. Grows with sessions
 * (identity, roles) in the session work.
 *
 * @param channel the secure channel the request came on, or null for calls made inside the server
 */
public record OperationContext(ServerSecureChannel channel) {

    /** A context for calls made by the server itself. */
    public static final OperationContext INTERNAL = new OperationContext(null);
}
