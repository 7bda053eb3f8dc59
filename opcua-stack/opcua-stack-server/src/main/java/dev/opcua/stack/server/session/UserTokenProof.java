package dev.opcua.stack.server.session;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.CertificateValidator;
import dev.opcua.stack.core.security.Certificates;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.security.crypto.EccEncryptedSecret;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.structured.SignatureData;
import dev.opcua.stack.core.types.structured.UserIdentityToken;
import dev.opcua.stack.core.types.structured.UserNameIdentityToken;
import dev.opcua.stack.core.types.structured.UserTokenPolicy;
import dev.opcua.stack.core.types.structured.X509IdentityToken;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks how a user identity token is secured (Part 4, 7.41) before the {@link IdentityValidator} sees
 * it. The token's security policy is its UserTokenPolicy's securityPolicyUri, or the channel's when
 * that is null or empty (Part 4, 7.42).
 *
 * <ul>
 *   <li>UserName: with policy None the password is plain UTF-8 (refused on a Sign channel, which
 *       would show it: Part 4, 7.41.4); otherwise it must be encrypted with the policy's asymmetric
 *       encryption (encryptionAlgorithm its URI) in the legacy secret format, which ends with the
 *       session's last server nonce. Anything else is BadIdentityTokenInvalid.</li>
 *   <li>X509: certificateData must parse (BadIdentityTokenInvalid), the user certificate validator must
 *       trust it (BadIdentityTokenRejected), and userTokenSignature must sign the server certificate and
 *       the last server nonce with the user's key (BadUserSignatureInvalid). A Certificate policy of None
 *       is refused with BadIdentityTokenRejected: without a signature nothing proves possession of the
 *       key, and a certificate is public.</li>
 * </ul>
 *
 * <p>{@link #checkFormat} finds mistakes of form, which do not count as failed authentications;
 * {@link #authenticate} checks the proof and asks the identity validator, whose refusals do count.
 */
final class UserTokenProof {

    private static final Logger log = LoggerFactory.getLogger(UserTokenProof.class);

    private final ApplicationProof application;
    private final CertificateValidator userCertificates;
    private final IdentityValidator identities;
    private final SessionEphemeralKeys ephemeralKeys;

    UserTokenProof(ApplicationProof application, CertificateValidator userCertificates, IdentityValidator identities,
            SessionEphemeralKeys ephemeralKeys) {
        this.application = application;
        this.ephemeralKeys = ephemeralKeys;
        this.userCertificates = Objects.requireNonNull(userCertificates, "userCertificateValidator");
        this.identities = Objects.requireNonNull(identities, "identityValidator");
    }

    /** The policy that secures tokens of {@code policy} on a channel of {@code channelPolicy}. */
    static SecurityPolicy tokenPolicy(UserTokenPolicy policy, SecurityPolicy channelPolicy) {
        String uri = policy.securityPolicyUri();
        if (uri == null || uri.isEmpty()) {
            return channelPolicy;
        }
        SecurityPolicy tokenPolicy = SecurityPolicy.fromUri(uri);
        if (tokenPolicy == null) {
            throw new UaException(StatusCodes.BadIdentityTokenInvalid, "the user token policy '" + policy.policyId()
                    + "' names the unknown securityPolicyUri " + uri);
        }
        return tokenPolicy;
    }

    /** Checks the form of a token secured by {@code tokenPolicy} on a {@code channel}; see the class comment. */
    void checkFormat(UserIdentityToken token, UserTokenPolicy policy, SecurityPolicy tokenPolicy,
            EndpointSecurity channel) {
        if (token instanceof UserNameIdentityToken userName) {
            String algorithm = userName.encryptionAlgorithm();
            if (tokenPolicy.isEcc()) {
                // an EccEncryptedSecret names its policy itself; encryptionAlgorithm is left empty (Part 4, 7.40.2.5)
                if (application.serverCertificate(tokenPolicy) == null) {
                    throw new UaException(StatusCodes.BadIdentityTokenInvalid, "the server has no "
                            + tokenPolicy.certificateType() + " certificate for user token policy '"
                            + policy.policyId() + "'");
                }
                return;
            }
            boolean encrypted = algorithm != null && !algorithm.isEmpty();
            if (tokenPolicy == SecurityPolicy.None && channel.signs() && !channel.encrypts()) {
                // Part 4, 7.41.4: a Sign channel needs a token security policy, the channel does not hide the password
                throw new UaException(StatusCodes.BadIdentityTokenInvalid, "user token policy '" + policy.policyId()
                        + "' would carry a readable password over a " + channel + " channel");
            }
            if (tokenPolicy == SecurityPolicy.None && encrypted) {
                throw new UaException(StatusCodes.BadIdentityTokenInvalid, "the password of user token policy '"
                        + policy.policyId() + "' is not encrypted (SecurityPolicy None), but encryptionAlgorithm is "
                        + algorithm);
            }
            if (tokenPolicy != SecurityPolicy.None && !encrypted) {
                throw new UaException(StatusCodes.BadIdentityTokenInvalid, "the password of user token policy '"
                        + policy.policyId() + "' must be encrypted with " + tokenPolicy.asymmetricEncryptionUri());
            }
            if (encrypted && !algorithm.equals(tokenPolicy.asymmetricEncryptionUri())) {
                throw new UaException(StatusCodes.BadIdentityTokenInvalid, "encryptionAlgorithm " + algorithm
                        + " is not " + tokenPolicy.asymmetricEncryptionUri() + " of " + tokenPolicy);
            }
            if (encrypted && application.serverCertificate(tokenPolicy) == null) {
                throw new UaException(StatusCodes.BadIdentityTokenInvalid,
                        "the server has no certificate to decrypt a password with");
            }
        } else if (token instanceof X509IdentityToken) {
            if (tokenPolicy == SecurityPolicy.None || application.serverCertificate(tokenPolicy) == null) {
                throw new UaException(StatusCodes.BadIdentityTokenRejected, "user token policy '" + policy.policyId()
                        + "' has no security policy, so an X.509 user could not prove possession of the key");
            }
        }
    }

    /**
     * Checks the token's proof and returns the identity validator's answer.
     *
     * @param serverNonce the last server nonce sent to the session
     */
    Identity authenticate(UserIdentityToken token, UserTokenPolicy policy, SecurityPolicy tokenPolicy,
            SignatureData userTokenSignature, ByteString serverNonce, Session session) {
        if (token instanceof UserNameIdentityToken userName && tokenPolicy.isEcc()) {
            return authenticateEcc(userName, policy, tokenPolicy, serverNonce, session);
        }
        if (token instanceof UserNameIdentityToken userName && tokenPolicy != SecurityPolicy.None) {
            return authenticateEncrypted(userName, policy, tokenPolicy, serverNonce);
        }
        if (token instanceof X509IdentityToken x509) {
            X509Certificate certificate = checkCertificate(x509, tokenPolicy, userTokenSignature, serverNonce);
            log.debug("user certificate {} proved possession of its key", CertificateInfo.describe(certificate));
        }
        return validate(token, policy);
    }

    /**
     * Decrypts a password with the server's key; a client that still holds the certificate replaced
     * last encrypted it for that one's key, which is tried next.
     */
    private byte[] openPassword(SecurityPolicy tokenPolicy, ByteString encrypted, ByteString serverNonce) {
        try {
            return LegacyTokenSecret.open(tokenPolicy, application.serverCertificate(tokenPolicy).privateKey(),
                    encrypted.unsafeBytes(), serverNonce.unsafeBytes());
        } catch (UaException e) {
            ApplicationCertificate previous = application.previousServerCertificate(tokenPolicy);
            if (previous == null) {
                throw e;
            }
            return LegacyTokenSecret.open(tokenPolicy, previous.privateKey(), encrypted.unsafeBytes(),
                    serverNonce.unsafeBytes());
        }
    }

    private Identity authenticateEncrypted(UserNameIdentityToken token, UserTokenPolicy policy,
            SecurityPolicy tokenPolicy, ByteString serverNonce) {
        ByteString encrypted = token.password();
        if (encrypted == null || encrypted.length() <= 0) {
            throw new UaException(StatusCodes.BadIdentityTokenInvalid, "the encrypted password of user '"
                    + token.userName() + "' is empty");
        }
        byte[] password = openPassword(tokenPolicy, encrypted, serverNonce);
        try {
            // the contract of IdentityValidator: the password in plain text, no encryptionAlgorithm
            return validate(new UserNameIdentityToken(token.policyId(), token.userName(), ByteString.wrap(password),
                    null), policy);
        } finally {
            Arrays.fill(password, (byte) 0);
        }
    }

    /**
     * Opens the EccEncryptedSecret of a password (Part 4, 7.40.2.5): signed with the key of the session's
     * client certificate, encrypted for the ephemeral key the session returned last, carrying the last
     * serverNonce.
     */
    private Identity authenticateEcc(UserNameIdentityToken token, UserTokenPolicy policy, SecurityPolicy tokenPolicy,
            ByteString serverNonce, Session session) {
        ByteString encrypted = token.password();
        if (encrypted == null || encrypted.length() <= 0) {
            throw new UaException(StatusCodes.BadIdentityTokenInvalid, "the encrypted password of user '"
                    + token.userName() + "' is empty");
        }
        if (session.clientCertificate() == null) {
            throw new UaException(StatusCodes.BadIdentityTokenInvalid, "an EccEncryptedSecret needs a secure channel"
                    + " with a client certificate to check its signature");
        }
        KeyPair receiver = ephemeralKeys.take(session, tokenPolicy);
        byte[] password = EccEncryptedSecret.decrypt(tokenPolicy, session.clientCertificate().getPublicKey(), receiver,
                serverNonce.unsafeBytes(), encrypted.unsafeBytes());
        try {
            return validate(new UserNameIdentityToken(token.policyId(), token.userName(), ByteString.wrap(password),
                    null), policy);
        } finally {
            Arrays.fill(password, (byte) 0);
        }
    }

    private X509Certificate checkCertificate(X509IdentityToken token, SecurityPolicy tokenPolicy,
            SignatureData userTokenSignature, ByteString serverNonce) {
        ByteString data = token.certificateData();
        List<X509Certificate> chain;
        try {
            chain = Certificates.decodeChain(data == null ? null : data.unsafeBytes());
        } catch (UaException e) {
            throw new UaException(StatusCodes.BadIdentityTokenInvalid,
                    "the certificateData of the X.509 user token is not a certificate: " + e.getMessage());
        }
        X509Certificate certificate = chain.get(0);
        try {
            userCertificates.validate(chain);
        } catch (UaException e) {
            log.info("user certificate {} refused by the user certificate validator: {}",
                    CertificateInfo.describe(certificate), e.getMessage());
            throw new UaException(StatusCodes.BadIdentityTokenRejected, "user certificate "
                    + CertificateInfo.describe(certificate) + " is not trusted: " + e.getMessage());
        }
        if (tokenPolicy.isEcc() && !tokenPolicy.certificateType().matches(certificate.getPublicKey())) {
            throw new UaException(StatusCodes.BadIdentityTokenRejected, "user certificate "
                    + CertificateInfo.describe(certificate) + " holds an " + Certificates.describeKey(certificate)
                    + " key; user token policy '" + token.policyId() + "' signs with " + tokenPolicy + " (EC "
                    + tokenPolicy.certificateType().curve() + ")");
        }
        ByteString signature = userTokenSignature == null ? null : userTokenSignature.signature();
        if (signature == null || signature.length() <= 0) {
            throw new UaException(StatusCodes.BadUserSignatureInvalid,
                    "the userTokenSignature of user certificate " + CertificateInfo.describe(certificate) + " is missing");
        }
        if (!application.signedServerProof(tokenPolicy, certificate.getPublicKey(), signature, serverNonce)) {
            throw new UaException(StatusCodes.BadUserSignatureInvalid, "the userTokenSignature does not verify with "
                    + tokenPolicy + " and the key of user certificate " + CertificateInfo.describe(certificate));
        }
        return certificate;
    }

    private Identity validate(UserIdentityToken token, UserTokenPolicy policy) {
        return Objects.requireNonNull(identities.validate(token, policy), "the identity validator returned null");
    }
}
