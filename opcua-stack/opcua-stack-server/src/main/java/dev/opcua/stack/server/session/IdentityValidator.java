package dev.opcua.stack.server.session;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.structured.AnonymousIdentityToken;
import dev.opcua.stack.core.types.structured.UserIdentityToken;
import dev.opcua.stack.core.types.structured.UserTokenPolicy;

/**
 * Decides who the user of an ActivateSession is (Part 4, 5.6.3): the SPI an application implements to
 * check user names, certificates or issued tokens against its user store.
 *
 * <p>The {@link SessionManager} calls it only with a token of a supported kind whose policyId names
 * one of the endpoint's {@link UserTokenPolicy UserTokenPolicies} of the same token type, and with a
 * UserNameIdentityToken's password already in plain text. It runs on a worker thread and may block
 * briefly (a hash comparison, a directory lookup).
 */
@FunctionalInterface
public interface IdentityValidator {

    /**
     * @param token the client's token: {@link AnonymousIdentityToken} or
     *        {@link dev.opcua.stack.core.types.structured.UserNameIdentityToken}
     * @param policy the endpoint's policy the token names
     * @return the user
     * @throws UaException BadUserAccessDenied for wrong credentials, BadIdentityTokenRejected for a
     *         kind of token this validator does not accept; both count as a failed authentication
     */
    Identity validate(UserIdentityToken token, UserTokenPolicy policy);

    /** Accepts anonymous users and refuses every other token with BadIdentityTokenRejected. */
    static IdentityValidator anonymousOnly() {
        return (token, policy) -> {
            if (token instanceof AnonymousIdentityToken) {
                return Identity.ANONYMOUS;
            }
            throw new UaException(StatusCodes.BadIdentityTokenRejected, "only anonymous users are accepted");
        };
    }

    /** Refuses every token, the anonymous one included, with BadIdentityTokenRejected. */
    static IdentityValidator refuseAll() {
        return (token, policy) -> {
            throw new UaException(StatusCodes.BadIdentityTokenRejected, "no user identity is accepted");
        };
    }
}
