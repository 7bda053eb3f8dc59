package dev.opcua.stack.server.session;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.ApplicationCertificates;
import dev.opcua.stack.core.security.CertificateType;
import dev.opcua.stack.core.security.Certificates;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.security.crypto.AsymmetricCrypto;
import dev.opcua.stack.core.security.pki.PkiCertificateValidator;
import dev.opcua.stack.server.transport.uasc.ServerSecureChannel;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.structured.ApplicationDescription;
import dev.opcua.stack.core.types.structured.CreateSessionRequest;
import dev.opcua.stack.core.types.structured.SignatureData;
import java.security.PublicKey;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.List;

/**
 * How client and server prove to each other that they hold their application instance certificates'
 * keys when a session is created and activated on a secure channel (Part 4, 5.6.2 and 5.6.3), and the
 * checks of the client certificate that CreateSession carries.
 */
final class ApplicationProof {

    /** Part 4, 5.6.2: "This number shall have a minimum length of 32 bytes." */
    static final int MIN_CLIENT_NONCE = 32;

    private final ApplicationCertificates certificates;

    /** @param certificates the server's certificates and keys, one per type; none when the server serves None only */
    ApplicationProof(ApplicationCertificates certificates) {
        this.certificates = certificates;
    }

    /**
     * The certificate of the policy's type in use now: sent in CreateSession and signing it. With None,
     * the RSA certificate, which secures user tokens on None endpoints; null when there is none.
     */
    ApplicationCertificate serverCertificate(SecurityPolicy policy) {
        return certificates.get(typeOf(policy));
    }

    /** The certificate of the policy's type in use before its last replacement, or null. */
    ApplicationCertificate previousServerCertificate(SecurityPolicy policy) {
        return certificates.previous(typeOf(policy));
    }

    private static CertificateType typeOf(SecurityPolicy policy) {
        return policy.certificateType() == null ? CertificateType.RSA_SHA256 : policy.certificateType();
    }

    /**
     * Checks a CreateSession request received on a secure channel and returns the client's certificate:
     * the clientNonce has at least 32 bytes (else BadNonceInvalid), the clientCertificate parses
     * (BadCertificateInvalid), is the certificate the channel was opened with (BadSecurityChecksFailed:
     * the spec names no status for this case) and carries the clientDescription's applicationUri
     * (BadCertificateUriInvalid).
     */
    X509Certificate checkCreateSession(ServerSecureChannel channel, CreateSessionRequest request) {
        requireServerCertificate(channel.security().policy());
        ByteString nonce = request.clientNonce();
        if (nonce == null || nonce.length() < MIN_CLIENT_NONCE) {
            throw new UaException(StatusCodes.BadNonceInvalid, "the clientNonce has "
                    + (nonce == null ? -1 : nonce.length()) + " bytes, at least " + MIN_CLIENT_NONCE + " are required");
        }
        ByteString sent = request.clientCertificate();
        X509Certificate client = Certificates.decodeChain(sent == null ? null : sent.unsafeBytes()).get(0);
        List<X509Certificate> channelChain = channel.clientCertificateChain();
        if (channelChain.isEmpty()
                || !Arrays.equals(Certificates.encode(client), Certificates.encode(channelChain.get(0)))) {
            throw new UaException(StatusCodes.BadSecurityChecksFailed, "the clientCertificate "
                    + CertificateInfo.describe(client) + " is not the certificate the secure channel was opened with"
                    + (channelChain.isEmpty() ? "" : ", " + CertificateInfo.describe(channelChain.get(0))));
        }
        ApplicationDescription description = request.clientDescription();
        PkiCertificateValidator.checkApplicationUri(client, description == null ? null : description.applicationUri());
        // the same certificate: the session keeps the channel's object, not a second parse of it (a few KB
        // each, times every session of a busy server)
        return channelChain.get(0);
    }

    /**
     * The serverSignature of CreateSession: the clientCertificate, as the request carries it, followed
     * by the clientNonce, signed with the server's key by the channel policy's algorithm.
     */
    SignatureData serverSignature(ApplicationCertificate server, SecurityPolicy policy, ByteString clientCertificate,
            ByteString clientNonce) {
        requireServerCertificate(server, policy);
        byte[] signature = AsymmetricCrypto.sign(policy, server.privateKey(), clientCertificate.unsafeBytes(),
                clientNonce.unsafeBytes());
        return new SignatureData(policy.asymmetricSignatureUri(), ByteString.wrap(signature));
    }

    /**
     * Checks the clientSignature of ActivateSession: the server certificate followed by the last server
     * nonce, signed with the key of the certificate the session was created with.
     *
     * @throws UaException BadApplicationSignatureInvalid when missing or wrong
     */
    void verifyClientSignature(SecurityPolicy policy, X509Certificate client, SignatureData clientSignature,
            ByteString serverNonce) {
        requireServerCertificate(policy);
        ByteString signature = clientSignature == null ? null : clientSignature.signature();
        if (signature == null || signature.length() <= 0) {
            throw new UaException(StatusCodes.BadApplicationSignatureInvalid,
                    "the clientSignature is missing (client " + CertificateInfo.describe(client) + ")");
        }
        if (!signedServerProof(policy, client.getPublicKey(), signature, serverNonce)) {
            throw new UaException(StatusCodes.BadApplicationSignatureInvalid, "the clientSignature does not verify with "
                    + policy + " and the key of the client certificate " + CertificateInfo.describe(client));
        }
    }

    /**
     * Whether {@code signature} signs the server certificate and {@code serverNonce} with {@code key}: over
     * the leaf certificate first, then, for clients that sign the whole chain (Part 4, 5.6.3.2 asks the
     * server to accept both), over the certificate followed by its issuers.
     */
    boolean signedServerProof(SecurityPolicy policy, PublicKey key, ByteString signature, ByteString serverNonce) {
        ApplicationCertificate current = serverCertificate(policy);
        if (current != null && signedProof(current, policy, key, signature, serverNonce)) {
            return true;
        }
        // a session created before the certificate was replaced signs the certificate it was given
        ApplicationCertificate previous = previousServerCertificate(policy);
        return previous != null && signedProof(previous, policy, key, signature, serverNonce);
    }

    private static boolean signedProof(ApplicationCertificate server, SecurityPolicy policy, PublicKey key,
            ByteString signature, ByteString serverNonce) {
        byte[] nonce = serverNonce.unsafeBytes();
        if (AsymmetricCrypto.verify(policy, key, signature.unsafeBytes(), server.der().unsafeBytes(), nonce)) {
            return true;
        }
        return !server.issuers().isEmpty()
                && AsymmetricCrypto.verify(policy, key, signature.unsafeBytes(), server.chainDer().unsafeBytes(), nonce);
    }

    private void requireServerCertificate(SecurityPolicy policy) {
        requireServerCertificate(serverCertificate(policy), policy);
    }

    private static void requireServerCertificate(ApplicationCertificate server, SecurityPolicy policy) {
        if (server == null) {
            throw new UaException(StatusCodes.BadSecurityChecksFailed,
                    "the server has no application certificate for SecurityPolicy " + policy);
        }
    }
}
