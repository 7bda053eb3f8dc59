package dev.opcua.stack.server.certificates;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.NodeId;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.interfaces.RSAPublicKey;
import java.util.List;
import java.util.Optional;

/**
 * The certificate types the DefaultApplicationGroup accepts, one row per type (Part 12, 7.8.4): the
 * CertificateTypes property lists them, and UpdateCertificate and CreateSigningRequest refuse any other. A
 * new type (the ECC types of Part 12, 7.8.4.6 and on) is one more row.
 */
public final class CertificateTypes {

    /** The smallest RSA key RsaSha256ApplicationCertificateType allows (Part 12, 7.8.4.5; Part 7 policies). */
    static final int MIN_RSA_BITS = 2048;
    static final int MAX_RSA_BITS = 4096;

    /** RsaSha256ApplicationCertificateType (i=12560): RSA keys of 2048 to 4096 bits, SHA256withRSA. */
    public static final CertificateType RSA_SHA256 = new CertificateType(
            NodeId.ns0(NodeIds.RsaSha256ApplicationCertificateType), "RsaSha256ApplicationCertificateType",
            key -> key instanceof RSAPublicKey rsa && rsa.getModulus().bitLength() >= MIN_RSA_BITS
                    && rsa.getModulus().bitLength() <= MAX_RSA_BITS,
            CertificateTypes::rsaLike, "SHA256withRSA");

    /** The table, in the order the CertificateTypes property lists it. */
    public static final List<CertificateType> SUPPORTED = List.of(RSA_SHA256);

    private CertificateTypes() {
    }

    /** The supported type with this NodeId. */
    public static Optional<CertificateType> byId(NodeId typeId) {
        return SUPPORTED.stream().filter(t -> t.typeId().equals(typeId)).findFirst();
    }

    /** The first supported type whose keys {@code key} fits: the type of a certificate the server holds. */
    public static Optional<CertificateType> forKey(PublicKey key) {
        return SUPPORTED.stream().filter(t -> t.fits().test(key)).findFirst();
    }

    /** The type ids, for the CertificateTypes property. */
    public static NodeId[] typeIds() {
        return SUPPORTED.stream().map(CertificateType::typeId).toArray(NodeId[]::new);
    }

    /** A new RSA key pair as long as {@code current} (at least the type's minimum). */
    private static KeyPair rsaLike(PublicKey current, SecureRandom random) {
        int bits = current instanceof RSAPublicKey rsa ? rsa.getModulus().bitLength() : MIN_RSA_BITS;
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(Math.max(bits, MIN_RSA_BITS), random);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("RSA key generation is missing from the JDK", e);
        }
    }
}
