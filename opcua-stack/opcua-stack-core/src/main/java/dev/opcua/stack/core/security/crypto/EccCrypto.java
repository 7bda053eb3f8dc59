package dev.opcua.stack.core.security.crypto;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.CertificateType;
import dev.opcua.stack.core.security.SecurityPolicy;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECFieldFp;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.ECPublicKeySpec;
import java.security.spec.EllipticCurve;
import java.util.Arrays;
import javax.crypto.KeyAgreement;

/**
 * The elliptic-curve operations of the ECC security policies (Part 6, 6.8): ephemeral key pairs, their
 * public keys as OpenSecureChannel nonces, the ECDH shared secret, and ECDSA signatures. A public key
 * travels as its uncompressed point without the leading 0x04: X then Y, each as long as a coordinate.
 *
 * <p>The NIST curves run on the JDK's provider; the Brainpool curves, which the JDK no longer computes
 * with, on {@link BouncyCastle}'s instance.
 */
public final class EccCrypto {

    private static final SecureRandom RANDOM = new SecureRandom();

    private EccCrypto() {
    }

    /** A fresh ephemeral key pair on the policy's curve. */
    public static KeyPair ephemeralKeyPair(SecurityPolicy policy) {
        return keyPair(eccType(policy));
    }

    /** A fresh key pair for an application certificate of this ECC type. */
    public static KeyPair keyPair(CertificateType type) {
        if (!type.isEcc()) {
            throw new IllegalArgumentException(type + " is not an ECC certificate type");
        }
        try {
            KeyPairGenerator g = type.needsBouncyCastle()
                    ? KeyPairGenerator.getInstance("EC", BouncyCastle.provider()) : KeyPairGenerator.getInstance("EC");
            g.initialize(new ECGenParameterSpec(type.curve()), RANDOM);
            return g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot generate a key on " + type.curve(), e);
        }
    }

    /** The public key as the nonce of OpenSecureChannel carries it: X | Y. */
    public static byte[] encodePublicKey(SecurityPolicy policy, PublicKey key) {
        CertificateType type = eccType(policy);
        if (!(key instanceof ECPublicKey ec)) {
            throw new IllegalArgumentException("an EC public key is required, not " + key.getAlgorithm());
        }
        int n = type.coordinateLength();
        byte[] out = new byte[2 * n];
        unsigned(ec.getW().getAffineX(), out, 0, n);
        unsigned(ec.getW().getAffineY(), out, n, n);
        return out;
    }

    /**
     * The public key a nonce carries, checked to be a point on the policy's curve (a point off the curve
     * would leak bits of our ephemeral private key through the shared secret).
     *
     * @throws UaException BadNonceInvalid when the length is wrong or the point is not on the curve
     */
    public static PublicKey decodePublicKey(SecurityPolicy policy, byte[] nonce) {
        CertificateType type = eccType(policy);
        int n = type.coordinateLength();
        if (nonce == null || nonce.length != 2 * n) {
            throw new UaException(StatusCodes.BadNonceInvalid, "the ephemeral key of " + policy + " has "
                    + (2 * n) + " bytes, this one " + (nonce == null ? "none" : nonce.length));
        }
        BigInteger x = new BigInteger(1, Arrays.copyOfRange(nonce, 0, n));
        BigInteger y = new BigInteger(1, Arrays.copyOfRange(nonce, n, 2 * n));
        ECParameterSpec params = type.parameters();
        if (!onCurve(params.getCurve(), x, y)) {
            throw new UaException(StatusCodes.BadNonceInvalid, "the ephemeral key is not a point on "
                    + type.curve());
        }
        try {
            KeyFactory f = type.needsBouncyCastle()
                    ? KeyFactory.getInstance("EC", BouncyCastle.provider()) : KeyFactory.getInstance("EC");
            return f.generatePublic(new ECPublicKeySpec(new ECPoint(x, y), params));
        } catch (GeneralSecurityException e) {
            throw new UaException(StatusCodes.BadNonceInvalid, "the ephemeral key is not a valid "
                    + type.curve() + " key: " + e.getMessage());
        }
    }

    /** The ECDH shared secret (the X coordinate of the product, RFC 8422, 5.10). */
    public static byte[] sharedSecret(SecurityPolicy policy, PrivateKey own, PublicKey peer) {
        CertificateType type = eccType(policy);
        try {
            KeyAgreement agreement = type.needsBouncyCastle()
                    ? KeyAgreement.getInstance("ECDH", BouncyCastle.provider()) : KeyAgreement.getInstance("ECDH");
            agreement.init(own);
            agreement.doPhase(peer, true);
            return agreement.generateSecret();
        } catch (GeneralSecurityException e) {
            throw new UaException(StatusCodes.BadSecurityChecksFailed, "ECDH on " + type.curve() + " failed: "
                    + e.getMessage());
        }
    }

    /** A Signature object for the policy's ECDSA, on the provider that computes with its curve. */
    static Signature signature(SecurityPolicy policy) throws GeneralSecurityException {
        CertificateType type = eccType(policy);
        if (type.needsBouncyCastle()) {
            // BouncyCastle's name for the r|s encoding the JDK calls P1363
            String bcName = policy.asymmetricSignatureAlgorithm().replace("withECDSAinP1363Format", "withPLAIN-ECDSA");
            return Signature.getInstance(bcName, BouncyCastle.provider());
        }
        return Signature.getInstance(policy.asymmetricSignatureAlgorithm());
    }

    private static CertificateType eccType(SecurityPolicy policy) {
        if (!policy.isEcc()) {
            throw new IllegalArgumentException(policy + " is not an ECC security policy");
        }
        return policy.certificateType();
    }

    private static boolean onCurve(EllipticCurve curve, BigInteger x, BigInteger y) {
        if (!(curve.getField() instanceof ECFieldFp fp)) {
            return false;
        }
        BigInteger p = fp.getP();
        if (x.compareTo(p) >= 0 || y.compareTo(p) >= 0) {
            return false;
        }
        BigInteger left = y.multiply(y).mod(p);
        BigInteger right = x.pow(3).add(curve.getA().multiply(x)).add(curve.getB()).mod(p);
        return left.equals(right);
    }

    private static void unsigned(BigInteger value, byte[] out, int offset, int length) {
        byte[] bytes = value.toByteArray();
        int start = bytes.length > length ? bytes.length - length : 0; // a sign byte
        int copy = bytes.length - start;
        System.arraycopy(bytes, start, out, offset + length - copy, copy);
    }
}
