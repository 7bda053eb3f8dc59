package dev.opcua.stack.core.security;

import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A security policy and message security mode pair that a server offers as an endpoint (Part 4,
 * 7.14) and that a client asks for in OpenSecureChannel (Part 4, 5.5.2).
 *
 * @param policy the channel's security policy
 * @param mode None with {@link SecurityPolicy#None} only; Sign or SignAndEncrypt with the others
 */
public record EndpointSecurity(SecurityPolicy policy, MessageSecurityMode mode) {

    public static final EndpointSecurity NONE = new EndpointSecurity(SecurityPolicy.None, MessageSecurityMode.None);

    public EndpointSecurity {
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(mode, "mode");
        if ((policy == SecurityPolicy.None) != (mode == MessageSecurityMode.None)) {
            throw new IllegalArgumentException("security policy " + policy + " cannot be used with mode " + mode
                    + ": None goes with None only");
        }
        if (mode == MessageSecurityMode.Invalid) {
            throw new IllegalArgumentException("mode Invalid is not a security mode");
        }
    }

    /** None, then every other policy (deprecated ones included) in Sign and in SignAndEncrypt. */
    public static List<EndpointSecurity> every() {
        List<EndpointSecurity> all = new ArrayList<>();
        all.add(NONE);
        for (SecurityPolicy policy : SecurityPolicy.values()) {
            if (policy != SecurityPolicy.None) {
                all.add(new EndpointSecurity(policy, MessageSecurityMode.Sign));
                all.add(new EndpointSecurity(policy, MessageSecurityMode.SignAndEncrypt));
            }
        }
        return List.copyOf(all);
    }

    /** Whether chunks are signed (Sign and SignAndEncrypt). */
    public boolean signs() {
        return mode == MessageSecurityMode.Sign || mode == MessageSecurityMode.SignAndEncrypt;
    }

    /** Whether MSG chunks are encrypted (SignAndEncrypt). */
    public boolean encrypts() {
        return mode == MessageSecurityMode.SignAndEncrypt;
    }

    /**
     * The endpoint's SecurityLevel (Part 4, 7.14: higher is more secure): the policy's strength, and
     * SignAndEncrypt above Sign; None is 0.
     */
    public short securityLevel() {
        if (policy == SecurityPolicy.None) {
            return 0;
        }
        return (short) (policy.strength() * 10 + (encrypts() ? 5 : 0));
    }

    @Override
    public String toString() {
        return policy + "/" + mode;
    }
}
