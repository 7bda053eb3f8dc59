package dev.opcua.stack.client.endpoint;

import dev.opcua.stack.client.session.UserTokenPolicies;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * Picks the endpoint a client connects to from a server's GetEndpoints answer (Part 4, 5.4.4): UA TCP
 * with UA Binary, a security policy this stack implements, the policy and mode asked for (or, when
 * either is open, the highest SecurityLevel (Part 4, 7.14) among the allowed ones, our own ranking of
 * policy and mode breaking ties), and a user token policy for the identity's token type.
 */
public final class EndpointSelector {

    private EndpointSelector() {
    }

    /**
     * @param policy the policy the endpoint must have; null for any in {@code allowed}
     * @param mode the mode it must have; null for any
     * @param allowed the policies an open choice may take
     * @param tokenType the identity's token type, which the endpoint must offer a token policy for
     * @throws UaException BadSecurityPolicyRejected naming what was asked and what the server offers when
     *         no endpoint fits, BadIdentityTokenRejected when endpoints fit but none takes the identity
     */
    public static EndpointDescription select(EndpointDescription[] endpoints, SecurityPolicy policy,
            MessageSecurityMode mode, Set<SecurityPolicy> allowed, UserTokenType tokenType) {
        List<EndpointDescription> secured = new ArrayList<>();
        List<String> offered = new ArrayList<>();
        for (EndpointDescription endpoint : endpoints == null ? new EndpointDescription[0] : endpoints) {
            if (endpoint == null || !UserTokenPolicies.isUaTcp(endpoint)) {
                continue;
            }
            SecurityPolicy p = SecurityPolicy.fromUri(endpoint.securityPolicyUri());
            offered.add((p == null ? endpoint.securityPolicyUri() : p.name()) + "/" + endpoint.securityMode());
            if (p == null || endpoint.securityMode() == null || endpoint.securityMode() == MessageSecurityMode.Invalid) {
                continue;
            }
            if ((policy != null ? p == policy : allowed.contains(p)) && (mode == null || endpoint.securityMode() == mode)) {
                secured.add(endpoint);
            }
        }
        String wanted = (policy == null ? "one of " + allowed : policy.name()) + " in mode "
                + (mode == null ? "any" : mode.name());
        if (secured.isEmpty()) {
            throw new UaException(StatusCodes.BadSecurityPolicyRejected, "the server offers no endpoint with "
                    + wanted + "; it offers " + (offered.isEmpty() ? "no UA TCP endpoint" : String.join(", ", offered)));
        }
        List<EndpointDescription> usable = new ArrayList<>();
        for (EndpointDescription endpoint : secured) {
            if (UserTokenPolicies.offers(endpoint, tokenType)) {
                usable.add(endpoint);
            }
        }
        if (usable.isEmpty()) {
            throw new UaException(StatusCodes.BadIdentityTokenRejected, "no endpoint with " + wanted
                    + " offers a " + tokenType + " user token policy this client can use");
        }
        usable.sort(Comparator.comparingInt((EndpointDescription e) -> e.securityLevel() & 0xFF)
                .thenComparingInt(e -> securityOf(e).securityLevel())
                .thenComparingInt(e -> securityOf(e).policy().strength())
                .reversed());
        return usable.get(0);
    }

    /** The policy and mode of an endpoint whose policy this stack implements. */
    public static EndpointSecurity securityOf(EndpointDescription endpoint) {
        return new EndpointSecurity(SecurityPolicy.fromUri(endpoint.securityPolicyUri()), endpoint.securityMode());
    }

    /** "policy/mode" of an endpoint, for messages. */
    public static String describe(EndpointDescription endpoint) {
        SecurityPolicy p = SecurityPolicy.fromUri(endpoint.securityPolicyUri());
        return endpoint.endpointUrl() + " " + (p == null ? endpoint.securityPolicyUri() : p.name()) + "/"
                + endpoint.securityMode();
    }
}
