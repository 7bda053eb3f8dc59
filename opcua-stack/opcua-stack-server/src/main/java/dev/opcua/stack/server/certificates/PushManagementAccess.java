package dev.opcua.stack.server.certificates;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.server.nodes.OperationContext;
import dev.opcua.stack.server.roles.WellKnownRole;

/**
 * Who may manage certificates (Part 12, 7.10.1 and 7.2): a session with the SecurityAdmin role on an
 * encrypted SecureChannel. The channel is checked first: Part 12, 7.8.2.2 and 7.10.x answer a channel that
 * is not encrypted with Bad_SecurityModeInsufficient, whoever the user is; then a user without the role
 * gets Bad_UserAccessDenied. Calls from inside the server (no session) act with every role.
 */
final class PushManagementAccess {

    private PushManagementAccess() {
    }

    /**
     * @throws UaException BadSecurityModeInsufficient or BadUserAccessDenied, naming {@code what}
     */
    static void check(OperationContext context, String what) {
        if (context.session() == null) {
            return;
        }
        if (context.channel() == null || !context.channel().security().encrypts()) {
            throw new UaException(StatusCodes.BadSecurityModeInsufficient, what + " needs a SignAndEncrypt "
                    + "secure channel, not " + (context.channel() == null ? "none" : context.channel().security()));
        }
        if ((context.roles() & WellKnownRole.SECURITY_ADMIN.mask()) == 0) {
            throw new UaException(StatusCodes.BadUserAccessDenied, what + " needs the SecurityAdmin role, which "
                    + context.identity() + " does not have");
        }
    }
}
