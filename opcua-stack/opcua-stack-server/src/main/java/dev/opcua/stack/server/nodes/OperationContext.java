package dev.opcua.stack.server.nodes;

import dev.opcua.stack.server.transport.uasc.ServerSecureChannel;
import dev.opcua.stack.server.roles.NodePermissions;
import dev.opcua.stack.server.roles.Permission;
import dev.opcua.stack.server.session.Identity;
import dev.opcua.stack.server.session.Session;

/**
 * What a node manager learns about the request an operation belongs to: the secure channel, and the
 * session with its user and roles (Part 3, 4.9), which the permission checks of node managers use.
 *
 * @param channel the secure channel the request came on, or null for calls made inside the server
 * @param session the activated session of the request, or null for calls made inside the server (and
 *     servers without sessions), which act with every role; Call hands it on to methods such as
 *     ConditionRefresh that act on the caller's subscriptions
 */
public record OperationContext(ServerSecureChannel channel, Session session) {

    /** A context for calls made by the server itself. */
    public static final OperationContext INTERNAL = new OperationContext(null, null);

    /** A context without a session: it acts with every role. */
    public OperationContext(ServerSecureChannel channel) {
        this(channel, null);
    }

    /** The user the operation acts for; null without a session. */
    public Identity identity() {
        return session == null ? null : session.identity();
    }

    /** The roles of the user as a {@link dev.opcua.stack.server.roles.WellKnownRole} mask; every role without a session. */
    public long roles() {
        return session == null ? -1L : session.roles();
    }

    /** Whether the user may do {@code permission} on a node with {@code permissions}: one AND, no lock. */
    public boolean allows(NodePermissions permissions, Permission permission) {
        return session == null || permissions.allows(session.roles(), permission);
    }
}
