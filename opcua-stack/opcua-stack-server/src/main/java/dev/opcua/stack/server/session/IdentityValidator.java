package dev.opcua.stack.server.session;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.structured.AnonymousIdentityToken;
import dev.opcua.stack.core.types.structured.UserIdentityToken;
import dev.opcua.stack.core.types.structured.UserTokenPolicy;
import java.util.List;

/**
 * Decides who the user of an ActivateSession is (Part 4, 5.6.3): the SPI an application implements to
 * check user names, certificates or issued tokens against its user store.
 *
 * <p>The {@link SessionManager} calls it only with a token of a supported kind whose policyId names
 * one of the endpoint's {@link UserTokenPolicy UserTokenPolicies} of the same token type, after it
 * checked the token's proof: a UserNameIdentityToken's password arrives decrypted, in plain text,
 * without encryptionAlgorithm (the array is zeroed once the call returns, so keep no reference to it);
 * an X509IdentityToken's certificate passed the server's user certificate validator and the user's
 * signature. It runs on a worker thread and may block briefly (a hash comparison, a directory lookup).
 */
@FunctionalInterface
public interface IdentityValidator {

    /**
     * @param token the client's token: {@link AnonymousIdentityToken},
     *        {@link dev.opcua.stack.core.types.structured.UserNameIdentityToken} or
     *        {@link dev.opcua.stack.core.types.structured.X509IdentityToken}
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

    /**
     * Asks each validator in turn and returns the first identity: a validator that answers
     * BadIdentityTokenRejected ("not my kind of token") passes the token on to the next, any other
     * refusal (BadUserAccessDenied) is final. When all reject the token, the last rejection is thrown.
     * For example {@code anyOf(UserNameIdentityValidator.of(users, true), X509IdentityValidator.anyTrusted())}.
     */
    static IdentityValidator anyOf(IdentityValidator... validators) {
        List<IdentityValidator> list = List.of(validators);
        if (list.isEmpty()) {
            throw new IllegalArgumentException("at least one identity validator is required");
        }
        return (token, policy) -> {
            UaException rejected = null;
            for (IdentityValidator validator : list) {
                try {
                    return validator.validate(token, policy);
                } catch (UaException e) {
                    if (e.statusCode().value() != StatusCodes.BadIdentityTokenRejected) {
                        throw e;
                    }
                    rejected = e;
                }
            }
            throw rejected;
        };
    }
}
