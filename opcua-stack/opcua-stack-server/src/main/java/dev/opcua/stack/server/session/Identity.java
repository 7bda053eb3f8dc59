package dev.opcua.stack.server.session;

import dev.opcua.stack.core.types.enumerated.UserTokenType;
import java.util.Objects;

/**
 * The user a session acts for, as an {@link IdentityValidator} established it from the user identity
 * token of ActivateSession (Part 4, 5.6.3; Part 4, 7.41 UserIdentityToken). Two identities are equal
 * when they are the same user, which is what re-activating a session on another secure channel asks.
 *
 * @param tokenType how the user proved who they are
 * @param userName the user name; null for anonymous
 */
public record Identity(UserTokenType tokenType, String userName) {

    /** The anonymous user. */
    public static final Identity ANONYMOUS = new Identity(UserTokenType.Anonymous, null);

    public Identity {
        Objects.requireNonNull(tokenType, "tokenType");
    }

    /** A user who proved their name with a password. */
    public static Identity user(String userName) {
        return new Identity(UserTokenType.UserName, Objects.requireNonNull(userName, "userName"));
    }

    public boolean isAnonymous() {
        return tokenType == UserTokenType.Anonymous;
    }
}
