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
 * @param kind the stack's certificate type: which of the application's certificate slots it replaces
 * @param typeId the certificate type's NodeId in namespace 0
 * @param name the type's BrowseName, for messages
 * @param fits whether a public key is one this type allows (algorithm and size)
 * @param keyGenerator a new key pair like {@code current}, with the given source of randomness
 * @param signatureAlgorithm the JCA name of the signature of a certificate request with the type's key
 */
public record PushCertificateType(CertificateType kind, NodeId typeId, String name, Predicate<PublicKey> fits,
        BiFunction<PublicKey, SecureRandom, KeyPair> keyGenerator, String signatureAlgorithm) {
}
