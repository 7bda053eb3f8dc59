package dev.opcua.stack.server.certificates;

import dev.opcua.stack.core.security.CertificateType;
import dev.opcua.stack.core.security.crypto.EccCrypto;
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
 * new type is one more row.
 */
public final class CertificateTypes {

    /** The smallest RSA key RsaSha256ApplicationCertificateType allows (Part 12, 7.8.4.5; Part 7 policies). */
    static final int MIN_RSA_BITS = 2048;
    static final int MAX_RSA_BITS = 4096;

    /** RsaSha256ApplicationCertificateType (i=12560): RSA keys of 2048 to 4096 bits, SHA256withRSA. */
    public static final PushCertificateType RSA_SHA256 = new PushCertificateType(CertificateType.RSA_SHA256,
            "RsaSha256ApplicationCertificateType",
            key -> key instanceof RSAPublicKey rsa && rsa.getModulus().bitLength() >= MIN_RSA_BITS
                    && rsa.getModulus().bitLength() <= MAX_RSA_BITS,
            CertificateTypes::rsaLike);

    /** EccNistP256ApplicationCertificateType (Part 12, 7.8.4.6): EC keys on NIST P-256, SHA256withECDSA. */
    public static final PushCertificateType ECC_NIST_P256 = ecc(CertificateType.ECC_NIST_P256,
            "EccNistP256ApplicationCertificateType");
    /** EccNistP384ApplicationCertificateType: EC keys on NIST P-384, SHA384withECDSA. */
    public static final PushCertificateType ECC_NIST_P384 = ecc(CertificateType.ECC_NIST_P384,
            "EccNistP384ApplicationCertificateType");
    /** EccBrainpoolP256r1ApplicationCertificateType: EC keys on brainpoolP256r1, SHA256withECDSA. */
    public static final PushCertificateType ECC_BRAINPOOL_P256R1 = ecc(CertificateType.ECC_BRAINPOOL_P256R1,
            "EccBrainpoolP256r1ApplicationCertificateType");
    /** EccBrainpoolP384r1ApplicationCertificateType: EC keys on brainpoolP384r1, SHA384withECDSA. */
    public static final PushCertificateType ECC_BRAINPOOL_P384R1 = ecc(CertificateType.ECC_BRAINPOOL_P384R1,
            "EccBrainpoolP384r1ApplicationCertificateType");

    /** The table, in the order the CertificateTypes property lists it. */
    public static final List<PushCertificateType> SUPPORTED = List.of(RSA_SHA256, ECC_NIST_P256, ECC_NIST_P384,
            ECC_BRAINPOOL_P256R1, ECC_BRAINPOOL_P384R1);

    private CertificateTypes() {
    }

    /** The supported type with this NodeId. */
    public static Optional<PushCertificateType> byId(NodeId typeId) {
        return SUPPORTED.stream().filter(t -> t.typeId().equals(typeId)).findFirst();
    }

    /** A type whose keys are on the curve of {@code kind}; a new key is a fresh one on that curve. */
    private static PushCertificateType ecc(CertificateType kind, String name) {
        return new PushCertificateType(kind, name, kind::matches, (current, random) -> EccCrypto.keyPair(kind));
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
