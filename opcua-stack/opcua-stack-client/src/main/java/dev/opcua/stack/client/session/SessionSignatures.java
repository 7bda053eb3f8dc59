package dev.opcua.stack.client.session;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.Certificates;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.security.crypto.AsymmetricCrypto;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.structured.SignatureData;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;

/**
 * The proofs of possession a session exchanges (Part 4, 5.6.2 and 5.6.3): the nonces, the server's
 * signature over the client certificate and nonce, and the signatures the client makes over the
 * server certificate and nonce with its application key or a user's key.
 */
final class SessionSignatures {

    /** Bytes of the clientNonce, and the fewest a serverNonce may have (Part 4, 5.6.2 and 5.6.3). */
    static final int NONCE_LENGTH = 32;

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final SignatureData NO_SIGNATURE = new SignatureData(null, ByteString.NULL);

    private SessionSignatures() {
    }

    static byte[] newNonce() {
        byte[] nonce = new byte[NONCE_LENGTH];
        RANDOM.nextBytes(nonce);
        return nonce;
    }

    /** An empty SignatureData: no signature. */
    static SignatureData none() {
        return NO_SIGNATURE;
    }

    /**
     * Checks that a serverNonce is long enough to sign and to salt secrets with.
     *
     * @throws UaException BadNonceInvalid
     */
    static void requireNonce(ByteString nonce, String service) {
        int length = nonce == null || nonce.isNull() ? 0 : nonce.length();
        if (length < NONCE_LENGTH) {
            throw new UaException(StatusCodes.BadNonceInvalid, "the serverNonce of " + service + " has " + length
                    + " bytes; at least " + NONCE_LENGTH + " are required");
        }
    }

    /**
     * Verifies the serverSignature of CreateSession: the policy's asymmetric signature over the client
     * certificate followed by the client nonce, made with the server certificate's key.
     *
     * <p>An algorithm left empty is taken as the policy's (open62541 1.5 leaves it empty with the ECC
     * policies): the signature itself is still checked with the policy's algorithm; another algorithm is refused.
     *
     * @throws UaException BadApplicationSignatureInvalid when it is missing, of another algorithm or wrong
     */
    static void verifyServerSignature(SecurityPolicy policy, X509Certificate serverCertificate, SignatureData signature,
            byte[] clientCertificate, byte[] clientNonce) {
        String server = describe(serverCertificate);
        if (signature == null || signature.signature() == null || signature.signature().isNull()) {
            throw new UaException(StatusCodes.BadApplicationSignatureInvalid,
                    "CreateSession response carries no serverSignature from " + server);
        }
        String algorithm = signature.algorithm();
        if (algorithm != null && !algorithm.isEmpty() && !policy.asymmetricSignatureUri().equals(algorithm)) {
            throw new UaException(StatusCodes.BadApplicationSignatureInvalid, "the serverSignature of " + server
                    + " uses algorithm " + signature.algorithm() + "; " + policy + " requires "
                    + policy.asymmetricSignatureUri());
        }
        if (!AsymmetricCrypto.verify(policy, serverCertificate.getPublicKey(), signature.signature().unsafeBytes(),
                clientCertificate, clientNonce)) {
            throw new UaException(StatusCodes.BadApplicationSignatureInvalid, "the serverSignature does not verify"
                    + " with the key of " + server + ": the server did not prove it holds the certificate's key");
        }
    }

    /** The policy's signature over the server certificate followed by the server nonce (clientSignature, userTokenSignature). */
    static SignatureData sign(SecurityPolicy policy, PrivateKey key, byte[] serverCertificate, byte[] serverNonce) {
        return new SignatureData(policy.asymmetricSignatureUri(),
                ByteString.wrap(AsymmetricCrypto.sign(policy, key, serverCertificate, serverNonce)));
    }

    /** Subject and SHA-1 thumbprint, for messages. */
    static String describe(X509Certificate certificate) {
        return "certificate " + certificate.getSubjectX500Principal().getName() + " (thumbprint "
                + Certificates.hex(Certificates.thumbprint(certificate)) + ")";
    }
}
