package dev.opcua.stack.server.interop;

import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * One session of the open62541 interop tests: security policy (by its name, the part of the URI after '#', as
 * the C programs take it), mode, the kind of key both ends' certificates hold, and the identity.
 *
 * @param policy the policy name, e.g. {@code Basic256Sha256}
 * @param mode the message security mode
 * @param key the kind of key of both application instance certificates
 * @param userName whether the session logs in as {@link #USER} (Part 4, 7.41.4: the password encrypted per the
 *     token policy) instead of anonymously
 */
record Open62541Case(String policy, MessageSecurityMode mode, PeerKey key, boolean userName) {

    static final String USER = "user";
    static final String PASSWORD = "password";

    /**
     * The sessions every direction runs: None, Basic256Sha256 anonymous and with a user name, and each ECC
     * policy (Part 6, 6.8; open62541 1.5.7 offers them with OpenSSL) in Sign and SignAndEncrypt, anonymous and
     * with a user name (its password an EccEncryptedSecret, Part 4, 7.40.2.5).
     */
    static Stream<Open62541Case> sessions() {
        List<Open62541Case> cases = new ArrayList<>(List.of(
                new Open62541Case("None", MessageSecurityMode.None, PeerKey.RSA_2048, false),
                new Open62541Case("Basic256Sha256", MessageSecurityMode.SignAndEncrypt, PeerKey.RSA_2048, false),
                new Open62541Case("Basic256Sha256", MessageSecurityMode.SignAndEncrypt, PeerKey.RSA_2048, true)));
        for (SecurityPolicy policy : SecurityPolicy.values()) {
            if (policy.isEcc()) {
                for (MessageSecurityMode mode : List.of(MessageSecurityMode.Sign, MessageSecurityMode.SignAndEncrypt)) {
                    cases.add(new Open62541Case(policy.name(), mode, PeerKey.of(policy), false));
                    cases.add(new Open62541Case(policy.name(), mode, PeerKey.of(policy), true));
                }
            }
        }
        return cases.stream();
    }

    /** Our stack's policy of this case. */
    SecurityPolicy securityPolicy() {
        SecurityPolicy ours = SecurityPolicy.fromNameOrUri(policy);
        if (ours == null) {
            throw new IllegalArgumentException("our stack has no security policy " + policy);
        }
        return ours;
    }

    /** The endpoints a server of ours offers for {@code cases}: each (policy, mode) once. */
    static List<EndpointSecurity> endpoints(Stream<Open62541Case> cases) {
        List<EndpointSecurity> endpoints = new ArrayList<>();
        cases.map(c -> new EndpointSecurity(c.securityPolicy(), c.mode())).distinct().forEach(endpoints::add);
        return endpoints;
    }

    /** The identity and security arguments of {@code interop_client} for this case. */
    List<String> clientArguments(PeerKey.KeyFiles certificate) {
        List<String> args = new ArrayList<>(List.of("--policy", policy, "--mode", mode.name(),
                "--cert", certificate.certificate().toString(), "--key", certificate.privateKey().toString()));
        if (userName) {
            args.addAll(List.of("--user", USER + ":" + PASSWORD));
        }
        return args;
    }

    /** The line {@code interop_client} prints for the channel it used in this case. */
    String channelLine() {
        return "CHANNEL " + securityPolicy().uri() + " " + mode;
    }

    @Override
    public String toString() {
        return policy + " " + mode + " " + key + (userName ? " user name" : " anonymous");
    }
}
