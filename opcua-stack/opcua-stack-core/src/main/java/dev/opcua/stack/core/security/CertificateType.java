package dev.opcua.stack.core.security;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.NodeId;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.interfaces.ECKey;
import java.security.interfaces.RSAKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;

/**
 * The kinds of application instance certificate (Part 12, 7.8.4: the CertificateType ObjectTypes under
 * ApplicationCertificateType): an application holds one certificate of each kind its security policies
 * need, and each policy names the kind it is used with (Part 7, the CertificateKeyAlgorithm of each
 * SecurityPolicy profile). For the ECC kinds the curve is fixed by the type.
 */
public enum CertificateType {

    /** RSA keys of 2048 bits or more, SHA-256 signatures (RsaSha256ApplicationCertificateType). */
    RSA_SHA256(NodeIds.RsaSha256ApplicationCertificateType, null, 0, "SHA256withRSA", "rsa"),

    /** ECC on NIST P-256 (secp256r1), ECDSA with SHA-256 (EccNistP256ApplicationCertificateType). */
    ECC_NIST_P256(NodeIds.EccNistP256ApplicationCertificateType, "secp256r1", 32, "SHA256withECDSA",
            "ecc-nistP256"),

    /** ECC on NIST P-384 (secp384r1), ECDSA with SHA-384 (EccNistP384ApplicationCertificateType). */
    ECC_NIST_P384(NodeIds.EccNistP384ApplicationCertificateType, "secp384r1", 48, "SHA384withECDSA",
            "ecc-nistP384"),

    /** ECC on brainpoolP256r1, ECDSA with SHA-256 (EccBrainpoolP256r1ApplicationCertificateType). */
    ECC_BRAINPOOL_P256R1(NodeIds.EccBrainpoolP256r1ApplicationCertificateType, "brainpoolP256r1", 32,
            "SHA256withECDSA", "ecc-brainpoolP256r1"),

    /** ECC on brainpoolP384r1, ECDSA with SHA-384 (EccBrainpoolP384r1ApplicationCertificateType). */
    ECC_BRAINPOOL_P384R1(NodeIds.EccBrainpoolP384r1ApplicationCertificateType, "brainpoolP384r1", 48,
            "SHA384withECDSA", "ecc-brainpoolP384r1");

    private final int typeId;
    private final String curve;
    private final int coordinateLength;
    private final String certificateSignatureAlgorithm;
    private final String fileSuffix;
    private volatile ECParameterSpec parameters;

    CertificateType(int typeId, String curve, int coordinateLength, String certificateSignatureAlgorithm,
            String fileSuffix) {
        this.typeId = typeId;
        this.curve = curve;
        this.coordinateLength = coordinateLength;
        this.certificateSignatureAlgorithm = certificateSignatureAlgorithm;
        this.fileSuffix = fileSuffix;
    }

    /** The NodeId of the CertificateType ObjectType (Part 12, 7.8.4), as UpdateCertificate and endpoints name it. */
    public NodeId typeId() {
        return NodeId.ns0(typeId);
    }

    /** Whether keys of this type are elliptic-curve keys. */
    public boolean isEcc() {
        return curve != null;
    }

    /** The standard name of the curve ({@code secp256r1}, {@code brainpoolP384r1}); null for RSA. */
    public String curve() {
        return curve;
    }

    /** Bytes of one coordinate of a point on the curve (32 or 48); 0 for RSA. */
    public int coordinateLength() {
        return coordinateLength;
    }

    /** Whether the JDK's own provider lacks the curve, so that BouncyCastle computes with it. */
    public boolean needsBouncyCastle() {
        return curve != null && curve.startsWith("brainpool");
    }

    /** JCA name of the signature a self-signed certificate of this type carries. */
    public String certificateSignatureAlgorithm() {
        return certificateSignatureAlgorithm;
    }

    /** The suffix that tells this type's certificate files apart in a PKI directory ({@code ecc-nistP256}). */
    public String fileSuffix() {
        return fileSuffix;
    }

    /** The curve's domain parameters; null for RSA. */
    public ECParameterSpec parameters() {
        ECParameterSpec p = parameters;
        if (p == null && curve != null) {
            try {
                AlgorithmParameters a = AlgorithmParameters.getInstance("EC");
                a.init(new ECGenParameterSpec(curve));
                p = a.getParameterSpec(ECParameterSpec.class);
                parameters = p;
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("the JDK does not know the curve " + curve, e);
            }
        }
        return p;
    }

    /** Whether {@code key} is of this type: an RSA key, or an EC key on this type's curve. */
    public boolean matches(Key key) {
        if (curve == null) {
            return key instanceof RSAKey;
        }
        return key instanceof ECKey ec && sameCurve(ec.getParams(), parameters());
    }

    /** The type of an RSA key or of an EC key on one of the supported curves; null for any other key. */
    public static CertificateType of(Key key) {
        for (CertificateType t : values()) {
            if (t.matches(key)) {
                return t;
            }
        }
        return null;
    }

    /** The type with this CertificateType NodeId, or null. */
    public static CertificateType fromTypeId(NodeId id) {
        for (CertificateType t : values()) {
            if (t.typeId().equals(id)) {
                return t;
            }
        }
        return null;
    }

    private static boolean sameCurve(ECParameterSpec a, ECParameterSpec b) {
        return a != null && b != null && a.getOrder().equals(b.getOrder())
                && a.getCurve().equals(b.getCurve()) && a.getGenerator().equals(b.getGenerator());
    }
}
