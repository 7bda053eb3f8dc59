package dev.opcua.stack.core.security;

import java.security.spec.AlgorithmParameterSpec;
import java.security.spec.MGF1ParameterSpec;
import java.security.spec.PSSParameterSpec;
import javax.crypto.spec.OAEPParameterSpec;
import javax.crypto.spec.PSource;

/**
 * The security policies of secure channels and user tokens (Part 7, the SecurityPolicy profiles;
 * Part 6, 6.7.2.3 carries the URI in the asymmetric security header), with the algorithms and key
 * lengths each one prescribes. The JCA names given here are used with the JDK's providers, so that
 * AES and HMAC run on its intrinsics.
 *
 * <p>Basic128Rsa15 and Basic256 are deprecated by the OPC Foundation (SHA-1); a server offers them
 * only when configured to ({@link #isDeprecated()}).
 */
public enum SecurityPolicy {

    /** No security: nothing is signed or encrypted. */
    None("http://opcfoundation.org/UA/SecurityPolicy#None", 0, Prf.NONE, null, 0, 0, 0, 0, 0,
            Asym.NONE, Enc.NONE, 0, true),

    /** Deprecated: HMAC-SHA1, AES-128-CBC, RSA-SHA1, RSA PKCS#1 v1.5, P_SHA1, 16-byte nonces. */
    Basic128Rsa15("http://opcfoundation.org/UA/SecurityPolicy#Basic128Rsa15", 1, Prf.SHA1, "HmacSHA1", 20, 16, 16,
            16, 16, Asym.RSA_SHA1, Enc.RSA_PKCS1, 1024, true),

    /** Deprecated: HMAC-SHA1, AES-256-CBC, RSA-SHA1, RSA-OAEP (SHA-1), P_SHA1. */
    Basic256("http://opcfoundation.org/UA/SecurityPolicy#Basic256", 2, Prf.SHA1, "HmacSHA1", 20, 24, 32, 16, 32,
            Asym.RSA_SHA1, Enc.RSA_OAEP_SHA1, 1024, true),

    /** HMAC-SHA256, AES-256-CBC, RSA-SHA256, RSA-OAEP (SHA-1), P_SHA256. */
    Basic256Sha256("http://opcfoundation.org/UA/SecurityPolicy#Basic256Sha256", 3, Prf.SHA256, "HmacSHA256", 32, 32,
            32, 16, 32, Asym.RSA_SHA256, Enc.RSA_OAEP_SHA1, 2048, false),

    /** HMAC-SHA256, AES-128-CBC, RSA-SHA256, RSA-OAEP (SHA-1), P_SHA256. */
    Aes128_Sha256_RsaOaep("http://opcfoundation.org/UA/SecurityPolicy#Aes128_Sha256_RsaOaep", 4, Prf.SHA256,
            "HmacSHA256", 32, 32, 16, 16, 32, Asym.RSA_SHA256, Enc.RSA_OAEP_SHA1, 2048, false),

    /** HMAC-SHA256, AES-256-CBC, RSA-PSS-SHA256, RSA-OAEP-SHA256, P_SHA256. */
    Aes256_Sha256_RsaPss("http://opcfoundation.org/UA/SecurityPolicy#Aes256_Sha256_RsaPss", 5, Prf.SHA256,
            "HmacSHA256", 32, 32, 32, 16, 32, Asym.RSA_PSS_SHA256, Enc.RSA_OAEP_SHA256, 2048, false),

    /**
     * ECC on NIST P-256: ECDSA-SHA256 (plain r|s), ECDH ephemeral keys as the 64-byte nonces, HKDF-SHA256,
     * HMAC-SHA256, AES-128-CBC (Part 7, SecurityPolicy [A] ECC-nistP256; Part 6, 6.8.1).
     */
    ECC_nistP256("http://opcfoundation.org/UA/SecurityPolicy#ECC_nistP256", 6, Prf.HKDF_SHA256, "HmacSHA256", 32,
            32, 16, 16, 64, Asym.ECDSA_SHA256, Enc.NONE, 256, false, CertificateType.ECC_NIST_P256),

    /** ECC on NIST P-384: ECDSA-SHA384, 96-byte ephemeral keys, HKDF-SHA384, HMAC-SHA384, AES-256-CBC. */
    ECC_nistP384("http://opcfoundation.org/UA/SecurityPolicy#ECC_nistP384", 8, Prf.HKDF_SHA384, "HmacSHA384", 48,
            48, 32, 16, 96, Asym.ECDSA_SHA384, Enc.NONE, 384, false, CertificateType.ECC_NIST_P384),

    /** ECC on brainpoolP256r1: as ECC_nistP256 on the Brainpool curve. */
    ECC_brainpoolP256r1("http://opcfoundation.org/UA/SecurityPolicy#ECC_brainpoolP256r1", 7, Prf.HKDF_SHA256,
            "HmacSHA256", 32, 32, 16, 16, 64, Asym.ECDSA_SHA256, Enc.NONE, 256, false,
            CertificateType.ECC_BRAINPOOL_P256R1),

    /** ECC on brainpoolP384r1: as ECC_nistP384 on the Brainpool curve. */
    ECC_brainpoolP384r1("http://opcfoundation.org/UA/SecurityPolicy#ECC_brainpoolP384r1", 9, Prf.HKDF_SHA384,
            "HmacSHA384", 48, 48, 32, 16, 96, Asym.ECDSA_SHA384, Enc.NONE, 384, false,
            CertificateType.ECC_BRAINPOOL_P384R1);

    /**
     * Key derivation: P_SHA1 or P_SHA256 of the nonces (Part 6, 6.7.5), or HKDF over the ECDH shared
     * secret of the ephemeral keys the nonces carry (Part 6, 6.8.1).
     */
    enum Prf {
        NONE(null), SHA1("HmacSHA1"), SHA256("HmacSHA256"), HKDF_SHA256("HmacSHA256"), HKDF_SHA384("HmacSHA384");

        final String mac;

        Prf(String mac) {
            this.mac = mac;
        }
    }

    /** Asymmetric signature algorithms: JCA name, parameters and the URI of SignatureData (Part 4, 7.37). */
    enum Asym {
        NONE(null, null, null),
        RSA_SHA1("SHA1withRSA", null, "http://www.w3.org/2000/09/xmldsig#rsa-sha1"),
        RSA_SHA256("SHA256withRSA", null, "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"),
        RSA_PSS_SHA256("RSASSA-PSS", new PSSParameterSpec("SHA-256", "MGF1", MGF1ParameterSpec.SHA256, 32, 1),
                "http://opcfoundation.org/UA/security/rsa-pss-sha2-256"),
        // ECDSA signatures are the two integers r and s, each as long as a coordinate (Part 6, 6.8.1)
        ECDSA_SHA256("SHA256withECDSAinP1363Format", null, "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256"),
        ECDSA_SHA384("SHA384withECDSAinP1363Format", null, "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha384");

        final String jca;
        final AlgorithmParameterSpec parameters;
        final String uri;

        Asym(String jca, AlgorithmParameterSpec parameters, String uri) {
            this.jca = jca;
            this.parameters = parameters;
            this.uri = uri;
        }
    }

    /** Asymmetric encryption: JCA transformation, OAEP parameters, padding overhead per block, URI. */
    enum Enc {
        NONE(null, null, 0, null),
        RSA_PKCS1("RSA/ECB/PKCS1Padding", null, 11, "http://www.w3.org/2001/04/xmlenc#rsa-1_5"),
        RSA_OAEP_SHA1("RSA/ECB/OAEPPadding", new OAEPParameterSpec("SHA-1", "MGF1", MGF1ParameterSpec.SHA1,
                PSource.PSpecified.DEFAULT), 42, "http://www.w3.org/2001/04/xmlenc#rsa-oaep"),
        RSA_OAEP_SHA256("RSA/ECB/OAEPPadding", new OAEPParameterSpec("SHA-256", "MGF1", MGF1ParameterSpec.SHA256,
                PSource.PSpecified.DEFAULT), 66, "http://opcfoundation.org/UA/security/rsa-oaep-sha2-256");

        final String jca;
        final OAEPParameterSpec parameters;
        final int overhead;
        final String uri;

        Enc(String jca, OAEPParameterSpec parameters, int overhead, String uri) {
            this.jca = jca;
            this.parameters = parameters;
            this.overhead = overhead;
            this.uri = uri;
        }
    }

    private final String uri;
    private final int strength;
    private final Prf prf;
    private final String symmetricSignature;
    private final int symmetricSignatureSize;
    private final int signingKeyLength;
    private final int encryptingKeyLength;
    private final int encryptingBlockSize;
    private final int nonceLength;
    private final Asym asymmetricSignature;
    private final Enc asymmetricEncryption;
    private final int minAsymmetricKeyBits;
    private final boolean deprecated;
    private final CertificateType certificateType;

    SecurityPolicy(String uri, int strength, Prf prf, String symmetricSignature, int symmetricSignatureSize,
            int signingKeyLength, int encryptingKeyLength, int encryptingBlockSize, int nonceLength,
            Asym asymmetricSignature, Enc asymmetricEncryption, int minAsymmetricKeyBits, boolean deprecated) {
        this(uri, strength, prf, symmetricSignature, symmetricSignatureSize, signingKeyLength, encryptingKeyLength,
                encryptingBlockSize, nonceLength, asymmetricSignature, asymmetricEncryption, minAsymmetricKeyBits,
                deprecated, strength == 0 ? null : CertificateType.RSA_SHA256);
    }

    SecurityPolicy(String uri, int strength, Prf prf, String symmetricSignature, int symmetricSignatureSize,
            int signingKeyLength, int encryptingKeyLength, int encryptingBlockSize, int nonceLength,
            Asym asymmetricSignature, Enc asymmetricEncryption, int minAsymmetricKeyBits, boolean deprecated,
            CertificateType certificateType) {
        this.certificateType = certificateType;
        this.uri = uri;
        this.strength = strength;
        this.prf = prf;
        this.symmetricSignature = symmetricSignature;
        this.symmetricSignatureSize = symmetricSignatureSize;
        this.signingKeyLength = signingKeyLength;
        this.encryptingKeyLength = encryptingKeyLength;
        this.encryptingBlockSize = encryptingBlockSize;
        this.nonceLength = nonceLength;
        this.asymmetricSignature = asymmetricSignature;
        this.asymmetricEncryption = asymmetricEncryption;
        this.minAsymmetricKeyBits = minAsymmetricKeyBits;
        this.deprecated = deprecated && strength > 0;
    }

    public String uri() {
        return uri;
    }

    /** Orders the policies from None (0) to the strongest; the basis of endpoint security levels. */
    public int strength() {
        return strength;
    }

    /** Whether the OPC Foundation deprecated the policy (SHA-1 based); offered only when enabled explicitly. */
    public boolean isDeprecated() {
        return deprecated;
    }

    /** JCA name of the HMAC of the PRF: HmacSHA1 (P_SHA1) or HmacSHA256 (P_SHA256); null for None. */
    public String keyDerivationMac() {
        return prf.mac;
    }

    /** JCA name of the symmetric signature (HMAC) of MSG chunks. */
    public String symmetricSignatureAlgorithm() {
        return symmetricSignature;
    }

    /** Bytes of a symmetric signature. */
    public int symmetricSignatureSize() {
        return symmetricSignatureSize;
    }

    /** DerivedSignatureKeyLength in bytes. */
    public int signingKeyLength() {
        return signingKeyLength;
    }

    /** AES key length in bytes. */
    public int encryptingKeyLength() {
        return encryptingKeyLength;
    }

    /** AES block size and initialization vector length in bytes. */
    public int encryptingBlockSize() {
        return encryptingBlockSize;
    }

    /** SecureChannelNonceLength: bytes of the nonces of OpenSecureChannel (0 for None). */
    public int nonceLength() {
        return nonceLength;
    }

    /** Bytes of an asymmetric signature made with a key of the policy's curve (ECC only; 0 for RSA). */
    public int eccSignatureSize() {
        return isEcc() ? 2 * certificateType.coordinateLength() : 0;
    }

    /** JCA name of the asymmetric signature. */
    public String asymmetricSignatureAlgorithm() {
        return asymmetricSignature.jca;
    }

    /** Parameters of the asymmetric signature (PSS), or null. */
    public AlgorithmParameterSpec asymmetricSignatureParameters() {
        return asymmetricSignature.parameters;
    }

    /** URI of the asymmetric signature, as SignatureData.algorithm carries it (Part 4, 7.37). */
    public String asymmetricSignatureUri() {
        return asymmetricSignature.uri;
    }

    /** JCA transformation of the asymmetric encryption. */
    public String asymmetricEncryptionAlgorithm() {
        return asymmetricEncryption.jca;
    }

    /** OAEP parameters of the asymmetric encryption, or null for PKCS#1 v1.5. */
    public OAEPParameterSpec asymmetricEncryptionParameters() {
        return asymmetricEncryption.parameters;
    }

    /** URI of the asymmetric encryption, as UserNameIdentityToken.encryptionAlgorithm carries it (Part 4, 7.41). */
    public String asymmetricEncryptionUri() {
        return asymmetricEncryption.uri;
    }

    /** Bytes of padding the asymmetric encryption adds to each block: a plain block is the key size minus this. */
    public int asymmetricEncryptionOverhead() {
        return asymmetricEncryption.overhead;
    }

    /** Smallest RSA key, in bits, the policy allows (MinAsymmetricKeyLength); for ECC the curve's size. */
    public int minAsymmetricKeyBits() {
        return minAsymmetricKeyBits;
    }

    /** The kind of application certificate the policy is used with; null for None. */
    public CertificateType certificateType() {
        return certificateType;
    }

    /**
     * Whether the policy is ECC based (Part 6, 6.8): the OpenSecureChannel nonces are ephemeral public
     * keys, the keys come from their ECDH shared secret, and OPN messages are signed, never encrypted.
     */
    public boolean isEcc() {
        return certificateType != null && certificateType.isEcc();
    }

    /**
     * Whether sequence numbers follow the legacy rule (start anywhere below 1024 after a wrap, Part 6,
     * 6.7.2.4): true for the RSA policies; the ECC policies start at 0 and wrap after UInt32.MaxValue.
     */
    public boolean legacySequenceNumbers() {
        return !isEcc();
    }

    /** The policy with this URI, or null when the stack does not implement it. */
    public static SecurityPolicy fromUri(String uri) {
        for (SecurityPolicy p : values()) {
            if (p.uri.equals(uri)) {
                return p;
            }
        }
        return null;
    }

    /** The short name of the policy with this URI ({@code Basic256Sha256}), or the URI itself when unknown. */
    public static String nameOf(String uri) {
        SecurityPolicy policy = fromUri(uri);
        return policy == null ? uri : policy.name();
    }

    /** The policy with this name ({@code Basic256Sha256}) or URI, or null. */
    public static SecurityPolicy fromNameOrUri(String value) {
        for (SecurityPolicy p : values()) {
            if (p.name().equalsIgnoreCase(value) || p.uri.equals(value)) {
                return p;
            }
        }
        return null;
    }
}
