package dev.opcua.stack.client.session;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import dev.opcua.stack.core.types.structured.UserTokenPolicy;
import java.util.ArrayList;
import java.util.List;

/**
 * Chooses the UserTokenPolicy for ActivateSession (Part 4, 5.6.3 and 7.42) from the endpoints the
 * server returned in CreateSession: an endpoint with the channel's security policy and mode, the one
 * with the channel's URL first (servers list an endpoint once per host name), then the first token
 * policy of the identity's type whose security policy this stack implements.
 */
public final class UserTokenPolicies {

    private static final String UA_TCP_PROFILE = "http://opcfoundation.org/UA-Profile/Transport/uatcp-uasc-uabinary";

    private UserTokenPolicies() {
    }

    /**
     * @throws UaException BadIdentityTokenRejected when no endpoint of the channel's security offers a
     *         policy of the type, BadSecurityPolicyRejected when those that do all name a security
     *         policy this stack does not implement
     */
    static UserTokenPolicy select(EndpointDescription[] endpoints, String endpointUrl, EndpointSecurity security,
            UserTokenType type) {
        List<EndpointDescription> candidates = new ArrayList<>();
        List<EndpointDescription> otherUrls = new ArrayList<>();
        for (EndpointDescription endpoint : endpoints == null ? new EndpointDescription[0] : endpoints) {
            if (endpoint == null || !matches(endpoint, security)) {
                continue;
            }
            (endpointUrl.equalsIgnoreCase(endpoint.endpointUrl()) ? candidates : otherUrls).add(endpoint);
        }
        candidates.addAll(otherUrls);
        if (candidates.isEmpty()) {
            throw new UaException(StatusCodes.BadIdentityTokenRejected, "the CreateSession response lists no endpoint"
                    + " with " + security + " (the channel's security), so no " + type + " token policy can be chosen");
        }
        List<String> offered = new ArrayList<>();
        List<String> unsupported = new ArrayList<>();
        for (EndpointDescription endpoint : candidates) {
            for (UserTokenPolicy policy : endpoint.userIdentityTokens() == null ? new UserTokenPolicy[0]
                    : endpoint.userIdentityTokens()) {
                if (policy == null) {
                    continue;
                }
                offered.add("'" + policy.policyId() + "' (" + policy.tokenType() + ")");
                if (policy.tokenType() != type) {
                    continue;
                }
                if (!implemented(policy, endpoint)) {
                    unsupported.add("'" + policy.policyId() + "' (" + policy.securityPolicyUri() + ")");
                    continue;
                }
                return policy;
            }
        }
        if (!unsupported.isEmpty()) {
            throw new UaException(StatusCodes.BadSecurityPolicyRejected, "the " + type + " token policies of endpoint "
                    + candidates.get(0).endpointUrl() + " " + security + " use security policies this stack does"
                    + " not implement: " + String.join(", ", unsupported));
        }
        throw new UaException(StatusCodes.BadIdentityTokenRejected, "endpoint " + candidates.get(0).endpointUrl() + " "
                + security + " offers no " + type + " token policy; it offers " + (offered.isEmpty() ? "none"
                        : String.join(", ", offered)));
    }

    /**
     * The security policy that protects a token's secret or signs for it: the token policy's own, or
     * the channel's when the token policy names none (Part 4, 7.42).
     *
     * @throws UaException BadSecurityPolicyRejected for a policy this stack does not implement
     */
    static SecurityPolicy tokenSecurity(UserTokenPolicy policy, SecurityPolicy channelPolicy) {
        if (isEmpty(policy.securityPolicyUri())) {
            return channelPolicy;
        }
        SecurityPolicy tokenPolicy = SecurityPolicy.fromUri(policy.securityPolicyUri());
        if (tokenPolicy == null) {
            throw new UaException(StatusCodes.BadSecurityPolicyRejected, "token policy '" + policy.policyId()
                    + "' uses security policy " + policy.securityPolicyUri() + ", which this stack does not implement");
        }
        return tokenPolicy;
    }

    /**
     * Whether an endpoint offers a token policy of {@code type} whose security policy this stack
     * implements (what {@link #select} would find on it).
     */
    public static boolean offers(EndpointDescription endpoint, UserTokenType type) {
        for (UserTokenPolicy policy : endpoint.userIdentityTokens() == null ? new UserTokenPolicy[0]
                : endpoint.userIdentityTokens()) {
            if (policy != null && policy.tokenType() == type && implemented(policy, endpoint)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether this stack can use a token policy: anonymous, or one whose security policy (its own, or the
     * endpoint's when it names none) is None or one this stack implements. Secured by an ECC policy, on an
     * endpoint of that same policy only: a user name's EccEncryptedSecret is signed with the channel's
     * certificate (Part 4, 7.40.2.5), and a user certificate must hold a key on the policy's curve.
     */
    private static boolean implemented(UserTokenPolicy policy, EndpointDescription endpoint) {
        if (policy.tokenType() == UserTokenType.Anonymous) {
            return true;
        }
        String uri = isEmpty(policy.securityPolicyUri()) ? endpoint.securityPolicyUri() : policy.securityPolicyUri();
        SecurityPolicy security = isEmpty(uri) ? SecurityPolicy.None : SecurityPolicy.fromUri(uri);
        if (security == null) {
            return false;
        }
        if (security.isEcc()) {
            return security.uri().equals(endpoint.securityPolicyUri());
        }
        return true;
    }

    /** Whether an endpoint is for UA TCP with UA Binary (an empty profile is taken as that). */
    public static boolean isUaTcp(EndpointDescription endpoint) {
        return isEmpty(endpoint.transportProfileUri()) || UA_TCP_PROFILE.equals(endpoint.transportProfileUri());
    }

    private static boolean matches(EndpointDescription endpoint, EndpointSecurity security) {
        return security.policy().uri().equals(endpoint.securityPolicyUri())
                && security.mode() == endpoint.securityMode()
                && isUaTcp(endpoint);
    }

    private static boolean isEmpty(String value) {
        return value == null || value.isEmpty();
    }
}
