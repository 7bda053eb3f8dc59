package dev.opcua.stack.server.interop;

import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * One session of the open62541 interop tests: security policy (by its name, the part of the URI after '#', as
 * the C programs take it), mode, the kind of key both ends' certificates hold, and the identity.
 *
 * @param policy the policy name, e.g. {@code Basic256Sha256}
 * @param mode the message security mode
 * @param key the kind of key of both application instance certificates and, for {@link Identity#X509}, of the
 *     user certificate
 * @param identity how the session logs in
 */
record Open62541Case(String policy, MessageSecurityMode mode, PeerKey key, Identity identity) {

    static final String USER = "user";
    static final String PASSWORD = "password";
    /** The application URI in the X.509 user certificates (a user certificate needs none; ours carry one). */
    static final String USER_URI = "urn:test:open62541:user";

    /** The user identity token of a session (Part 4, 7.41). */
    enum Identity {
        /** AnonymousIdentityToken. */
        ANONYMOUS,
        /** UserNameIdentityToken of {@link #USER}: the password encrypted per the token policy (Part 4, 7.41.4). */
        USER_NAME,
        /**
         * X509IdentityToken: a user certificate whose key is of the case's {@link PeerKey} (an RSA key for the RSA
         * policies, a key on the policy's curve for an ECC one), its UserTokenSignature made with that key
         * (Part 4, 5.6.3.2 and 7.41.5; ECDSA r|s for ECC).
         */
        X509
    }

    /**
     * The sessions every direction runs: None; Basic256Sha256 SignAndEncrypt anonymous, with a user name and with
     * an X.509 user; each ECC policy (Part 6, 6.8; open62541 1.5.7 offers them with OpenSSL) in Sign and
     * SignAndEncrypt, anonymous, with a user name (its password an EccEncryptedSecret, Part 4, 7.40.2.5) and with
     * an X.509 user whose key is on the policy's curve.
     */
    static Stream<Open62541Case> sessions() {
        List<Open62541Case> cases = new ArrayList<>(List.of(
                new Open62541Case("None", MessageSecurityMode.None, PeerKey.RSA_2048, Identity.ANONYMOUS)));
        for (Identity identity : Identity.values()) {
            cases.add(new Open62541Case("Basic256Sha256", MessageSecurityMode.SignAndEncrypt, PeerKey.RSA_2048,
                    identity));
        }
        for (SecurityPolicy policy : SecurityPolicy.values()) {
            if (policy.isEcc()) {
                for (MessageSecurityMode mode : List.of(MessageSecurityMode.Sign, MessageSecurityMode.SignAndEncrypt)) {
                    for (Identity identity : Identity.values()) {
                        cases.add(new Open62541Case(policy.name(), mode, PeerKey.of(policy), identity));
                    }
                }
            }
        }
        return cases.stream();
    }

    /** The token type of the user token policy a session of this case activates with. */
    UserTokenType tokenType() {
        return switch (identity) {
            case ANONYMOUS -> UserTokenType.Anonymous;
            case USER_NAME -> UserTokenType.UserName;
            case X509 -> UserTokenType.Certificate;
        };
    }

    /** The sessions without an X.509 user (the reverse connect tests run these). */
    static Stream<Open62541Case> sessionsWithoutX509() {
        return sessions().filter(c -> c.identity() != Identity.X509);
    }

    /** An X.509 user certificate with a key of {@code key}'s kind. */
    static ApplicationCertificate userCertificate(PeerKey key) {
        return key.certificate("open62541 interop user " + key, USER_URI);
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

    /**
     * The identity and security arguments of {@code interop_client} for this case; {@code user} is the X.509 user's
     * certificate and key (used only for {@link Identity#X509}).
     */
    List<String> clientArguments(PeerKey.KeyFiles certificate, PeerKey.KeyFiles user) {
        List<String> args = new ArrayList<>(List.of("--policy", policy, "--mode", mode.name(),
                "--cert", certificate.certificate().toString(), "--key", certificate.privateKey().toString()));
        switch (identity) {
            case ANONYMOUS -> { }
            case USER_NAME -> args.addAll(List.of("--user", USER + ":" + PASSWORD));
            case X509 -> args.addAll(List.of("--user-cert", user.certificate().toString(),
                    "--user-key", user.privateKey().toString()));
        }
        return args;
    }

    /** The line {@code interop_client} prints for the channel it used in this case. */
    String channelLine() {
        return "CHANNEL " + securityPolicy().uri() + " " + mode;
    }

    @Override
    public String toString() {
        return policy + " " + mode + " " + key + " " + switch (identity) {
            case ANONYMOUS -> "anonymous";
            case USER_NAME -> "user name";
            case X509 -> "X.509 user";
        };
    }
}
