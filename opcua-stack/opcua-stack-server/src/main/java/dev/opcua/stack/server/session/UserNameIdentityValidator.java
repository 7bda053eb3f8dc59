package dev.opcua.stack.server.session;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.structured.AnonymousIdentityToken;
import dev.opcua.stack.core.types.structured.UserIdentityToken;
import dev.opcua.stack.core.types.structured.UserNameIdentityToken;
import dev.opcua.stack.core.types.structured.UserTokenPolicy;
import java.util.Map;
import java.util.Objects;

/**
 * User name and password identities (Part 4, 7.41.3), checked by a {@link PasswordVerifier}, and
 * optionally the anonymous user (Part 4, 7.41.2). A wrong password and an unknown user get the same
 * answer, BadUserAccessDenied, so that a client cannot learn which user names exist.
 */
public final class UserNameIdentityValidator implements IdentityValidator {

    private final PasswordVerifier verifier;
    private final boolean allowAnonymous;

    public UserNameIdentityValidator(PasswordVerifier verifier, boolean allowAnonymous) {
        this.verifier = Objects.requireNonNull(verifier, "verifier");
        this.allowAnonymous = allowAnonymous;
    }

    /** Users and plain-text passwords from a map; see {@link PasswordVerifier#plain}. */
    public static UserNameIdentityValidator of(Map<String, String> passwords, boolean allowAnonymous) {
        return new UserNameIdentityValidator(PasswordVerifier.plain(passwords), allowAnonymous);
    }

    @Override
    public Identity validate(UserIdentityToken token, UserTokenPolicy policy) {
        if (token instanceof AnonymousIdentityToken) {
            if (allowAnonymous) {
                return Identity.ANONYMOUS;
            }
            throw new UaException(StatusCodes.BadIdentityTokenRejected, "anonymous users are not accepted");
        }
        if (token instanceof UserNameIdentityToken userName) {
            String name = userName.userName();
            ByteString password = userName.password();
            if (name != null && !name.isEmpty() && password != null && !password.isNull()
                    && verifier.verify(name, password.unsafeBytes())) {
                return Identity.user(name);
            }
            throw new UaException(StatusCodes.BadUserAccessDenied, "wrong user name or password");
        }
        throw new UaException(StatusCodes.BadIdentityTokenRejected,
                "token " + token.getClass().getSimpleName() + " is not accepted");
    }
}
