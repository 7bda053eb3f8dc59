package dev.opcua.stack.server.session;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.core.types.structured.AnonymousIdentityToken;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import dev.opcua.stack.core.types.structured.UserIdentityToken;
import dev.opcua.stack.core.types.structured.UserNameIdentityToken;
import dev.opcua.stack.core.types.structured.UserTokenPolicy;
import dev.opcua.stack.core.types.structured.X509IdentityToken;
import java.util.Objects;

/**
 * The user identity token of an ActivateSession request (Part 4, 5.6.3) and the user token policy it
 * names among the session's endpoints (Part 4, 7.42): what the session manager checks before any proof.
 */
final class ActivationTokens {

    private ActivationTokens() {
    }

    /** The token the request carries; a null token is anonymous (Part 4, 5.6.3). */
    static UserIdentityToken identityToken(ExtensionObject body) {
        if (body == null || body.isNull()) {
            return new AnonymousIdentityToken(null); // Part 4, 5.6.3: null means anonymous
        }
        Object value = body.isDecoded() ? body.decoded() : null;
        if (value instanceof AnonymousIdentityToken anonymous) {
            return anonymous;
        }
        if (value instanceof UserNameIdentityToken userName) {
            return userName;
        }
        if (value instanceof X509IdentityToken x509) {
            return x509;
        }
        throw new UaException(StatusCodes.BadIdentityTokenInvalid, "unsupported user identity token "
                + (value == null ? body.encodingId() : value.getClass().getSimpleName()));
    }

    /**
     * The policy the token names among those of the session's endpoints with the channel's security
     * policy and mode; a null anonymous policyId takes the first anonymous policy.
     */
    static UserTokenPolicy policyOf(Session session, EndpointSecurity security, UserIdentityToken token) {
        UserTokenType type = token instanceof AnonymousIdentityToken ? UserTokenType.Anonymous
                : token instanceof X509IdentityToken ? UserTokenType.Certificate : UserTokenType.UserName;
        String policyId = token.policyId();
        for (EndpointDescription endpoint : session.endpoints()) {
            if (!security.policy().uri().equals(endpoint.securityPolicyUri()) || endpoint.securityMode() != security.mode()
                    || endpoint.userIdentityTokens() == null) {
                continue;
            }
            for (UserTokenPolicy policy : endpoint.userIdentityTokens()) {
                if (policy.tokenType() == type && (policyId == null && type == UserTokenType.Anonymous
                        || Objects.equals(policyId, policy.policyId()))) {
                    return policy;
                }
            }
        }
        throw new UaException(StatusCodes.BadIdentityTokenInvalid,
                "no " + type + " user token policy '" + policyId + "' at the " + security + " endpoint");
    }
}
