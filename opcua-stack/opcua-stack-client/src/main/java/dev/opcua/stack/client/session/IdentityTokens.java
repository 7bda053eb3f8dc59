package dev.opcua.stack.client.session;

import dev.opcua.stack.client.transport.uasc.ClientChannelSecurity;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.Certificates;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.security.crypto.AsymmetricCrypto;
import dev.opcua.stack.core.security.crypto.EccEncryptedSecret;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.structured.AnonymousIdentityToken;
import dev.opcua.stack.core.types.structured.SignatureData;
import dev.opcua.stack.core.types.structured.UserNameIdentityToken;
import dev.opcua.stack.core.types.structured.UserTokenPolicy;
import dev.opcua.stack.core.types.structured.X509IdentityToken;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.cert.X509Certificate;
import java.util.Arrays;

/**
 * Builds the userIdentityToken and userTokenSignature of ActivateSession (Part 4, 5.6.3 and 7.41):
 * anonymous tokens, user names with the password encrypted in the legacy secret format (7.41.2),
 * and X.509 tokens signed with the user's key.
 */
final class IdentityTokens {

    /** The token and its signature as ActivateSession carries them. */
    record Activation(ExtensionObject token, SignatureData signature) {
    }

    private IdentityTokens() {
    }

    /**
     * @param tokenSecurity the policy that encrypts the password or signs for the certificate (see
     *        {@link UserTokenPolicies#tokenSecurity})
     * @param serverCertificate the server's certificate; needed unless tokenSecurity is None or the
     *        identity anonymous
     * @param serverNonce the last serverNonce of CreateSession or ActivateSession
     */
    static Activation build(ClientIdentity identity, UserTokenPolicy policy, SecurityPolicy tokenSecurity,
            X509Certificate serverCertificate, byte[] serverNonce) {
        if (identity instanceof ClientIdentity.UserName user) {
            return new Activation(ExtensionObject.of(userName(user, policy, tokenSecurity, serverCertificate,
                    serverNonce)), SessionSignatures.none());
        }
        if (identity instanceof ClientIdentity.X509 x509) {
            if (tokenSecurity == SecurityPolicy.None) {
                throw new UaException(StatusCodes.BadIdentityTokenRejected, "an X.509 user token must be signed, but"
                        + " neither token policy '" + policy.policyId() + "' nor the channel names a security policy");
            }
            if (tokenSecurity.isEcc() && !tokenSecurity.certificateType().matches(x509.certificate().getPublicKey())) {
                throw new UaException(StatusCodes.BadIdentityTokenRejected, "the user certificate holds an "
                        + Certificates.describeKey(x509.certificate()) + " key; token policy '" + policy.policyId()
                        + "' signs with " + tokenSecurity + ", which needs EC " + tokenSecurity.certificateType().curve());
            }
            X509IdentityToken token = new X509IdentityToken(policy.policyId(),
                    ByteString.wrap(Certificates.encode(x509.certificate())));
            return new Activation(ExtensionObject.of(token), SessionSignatures.sign(tokenSecurity,
                    x509.privateKey(), Certificates.encode(serverCertificate), serverNonce));
        }
        return new Activation(ExtensionObject.of(new AnonymousIdentityToken(policy.policyId())),
                SessionSignatures.none());
    }

    /**
     * A UserNameIdentityToken: the password in plain UTF-8 when no security policy applies, otherwise
     * the legacy secret encrypted with the server's public key (Part 4, 7.41.2).
     */
    static UserNameIdentityToken userName(ClientIdentity.UserName user, UserTokenPolicy policy,
            SecurityPolicy tokenSecurity, X509Certificate serverCertificate, byte[] serverNonce) {
        byte[] password = user.passwordBytes();
        if (tokenSecurity == SecurityPolicy.None) {
            return new UserNameIdentityToken(policy.policyId(), user.userName(), ByteString.wrap(password), null);
        }
        byte[] secret = legacySecret(password, serverNonce);
        try {
            byte[] encrypted = AsymmetricCrypto.encrypt(tokenSecurity, serverCertificate.getPublicKey(), secret);
            return new UserNameIdentityToken(policy.policyId(), user.userName(), ByteString.wrap(encrypted),
                    tokenSecurity.asymmetricEncryptionUri());
        } finally {
            Arrays.fill(secret, (byte) 0);
            Arrays.fill(password, (byte) 0);
        }
    }

    /**
     * A UserNameIdentityToken whose password is an EccEncryptedSecret (Part 4, 7.40.2.5) for the server's
     * ephemeral key, signed with the key of the channel's client certificate; encryptionAlgorithm stays
     * empty, the secret names its policy.
     *
     * @throws UaException BadIdentityTokenRejected when the server returned no ephemeral key to encrypt for
     */
    static Activation eccUserName(ClientIdentity.UserName user, UserTokenPolicy policy, SecurityPolicy tokenSecurity,
            ClientChannelSecurity channel, ByteString serverEphemeralKey,
            byte[] serverNonce) {
        if (serverEphemeralKey == null || serverEphemeralKey.isNull()) {
            throw new UaException(StatusCodes.BadIdentityTokenRejected, "user token policy '" + policy.policyId()
                    + "' encrypts with " + tokenSecurity + ", but the server returned no ephemeral key (ECDHKey)"
                    + " to encrypt the password for");
        }
        if (channel.certificate() == null || channel.security().policy() != tokenSecurity) {
            throw new UaException(StatusCodes.BadIdentityTokenRejected, "user token policy '" + policy.policyId()
                    + "' encrypts with " + tokenSecurity + ", which needs a channel of that policy");
        }
        byte[] password = user.passwordBytes();
        try {
            byte[] secret = EccEncryptedSecret.encrypt(tokenSecurity, channel.certificate().privateKey(),
                    channel.certificate().der().unsafeBytes(), serverEphemeralKey.unsafeBytes(), serverNonce,
                    password);
            return new Activation(ExtensionObject.of(new UserNameIdentityToken(policy.policyId(), user.userName(),
                    ByteString.wrap(secret), null)), SessionSignatures.none());
        } finally {
            Arrays.fill(password, (byte) 0);
        }
    }

    /**
     * The legacy encrypted token secret of Part 4, 7.41.2 (Table 181 in 1.04, 186 in 1.05): the
     * length of secret and nonce as a little-endian UInt32, the secret, the last server nonce.
     */
    static byte[] legacySecret(byte[] secret, byte[] serverNonce) {
        byte[] nonce = serverNonce == null ? new byte[0] : serverNonce;
        return ByteBuffer.allocate(4 + secret.length + nonce.length).order(ByteOrder.LITTLE_ENDIAN)
                .putInt(secret.length + nonce.length).put(secret).put(nonce).array();
    }
}
