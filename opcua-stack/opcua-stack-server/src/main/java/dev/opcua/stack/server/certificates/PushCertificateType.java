package dev.opcua.stack.server.certificates;

import dev.opcua.stack.core.security.CertificateType;
import dev.opcua.stack.core.types.builtin.NodeId;
import java.security.KeyPair;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.util.function.BiFunction;
import java.util.function.Predicate;

/**
 * One certificate type a CertificateGroup accepts (Part 12, 7.8.4 CertificateTypes; the types of Part 12,
 * 7.8.4.x, such as RsaSha256ApplicationCertificateType): what key its certificates hold, how a new key is
 * made for CreateSigningRequest, and the algorithm that signs the request.
 *
 * @param kind the stack's certificate type: which of the application's certificate slots it replaces, its
 *        NodeId and the signature of its certificates
 * @param name the type's BrowseName, for messages
 * @param fits whether a public key is one this type allows (algorithm and size)
 * @param keyGenerator a new key pair like {@code current}, with the given source of randomness
 */
public record PushCertificateType(CertificateType kind, String name, Predicate<PublicKey> fits,
        BiFunction<PublicKey, SecureRandom, KeyPair> keyGenerator) {

    /** The certificate type's NodeId in namespace 0. */
    public NodeId typeId() {
        return kind.typeId();
    }

    /** The JCA name of the signature of a certificate request with the type's key. */
    public String signatureAlgorithm() {
        return kind.certificateSignatureAlgorithm();
    }
}
