package dev.opcua.stack.core.security.crypto;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.SecurityPolicy;
import java.io.ByteArrayOutputStream;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.interfaces.RSAKey;
import javax.crypto.Cipher;

/**
 * RSA and ECDSA signatures and RSA encryption as a security policy prescribes them (Part 7 profiles; Part 6,
 * 6.7.2.5): used for OpenSecureChannel chunks, the session signatures of CreateSession and
 * ActivateSession (Part 4, 5.6.2 and 5.6.3), encrypted user token secrets (Part 4, 7.41.2) and
 * X.509 user token signatures.
 *
 * <p>Each call creates its JCA objects: these run a few times per channel or session, never per
 * message, and RSA itself costs far more than the lookup.
 */
public final class AsymmetricCrypto {

    private AsymmetricCrypto() {
    }

    /** Signs the concatenation of {@code parts} with the policy's asymmetric signature. */
    public static byte[] sign(SecurityPolicy policy, PrivateKey key, byte[]... parts) {
        try {
            Signature signature = signature(policy);
            signature.initSign(key);
            for (byte[] part : parts) {
                if (part != null) {
                    signature.update(part);
                }
            }
            return signature.sign();
        } catch (GeneralSecurityException e) {
            throw new UaException(StatusCodes.BadSecurityChecksFailed, "signing with " + policy + " failed: " + e);
        }
    }

    /** Whether {@code signatureBytes} is the policy's signature of the concatenation of {@code parts}. */
    public static boolean verify(SecurityPolicy policy, PublicKey key, byte[] signatureBytes, byte[]... parts) {
        if (signatureBytes == null) {
            return false;
        }
        try {
            Signature signature = signature(policy);
            signature.initVerify(key);
            for (byte[] part : parts) {
                if (part != null) {
                    signature.update(part);
                }
            }
            return signature.verify(signatureBytes);
        } catch (GeneralSecurityException e) {
            return false; // a malformed signature is a wrong one
        }
    }

    /** Encrypts {@code plaintext} block by block with the receiver's public key (RSA policies only). */
    public static byte[] encrypt(SecurityPolicy policy, PublicKey key, byte[] plaintext) {
        int plainBlock = plainBlockSize(policy, key);
        try {
            Cipher cipher = cipher(policy, Cipher.ENCRYPT_MODE, key);
            ByteArrayOutputStream out = new ByteArrayOutputStream(
                    (plaintext.length / plainBlock + 1) * keySizeBytes(key));
            for (int offset = 0; offset < plaintext.length; offset += plainBlock) {
                out.writeBytes(cipher.doFinal(plaintext, offset, Math.min(plainBlock, plaintext.length - offset)));
            }
            return out.toByteArray();
        } catch (GeneralSecurityException e) {
            throw new UaException(StatusCodes.BadSecurityChecksFailed, "encrypting with " + policy + " failed: " + e);
        }
    }

    /**
     * Decrypts ciphertext made of whole blocks of the private key's size.
     *
     * @throws UaException BadSecurityChecksFailed when the length is not a whole number of blocks or a
     *         block does not decrypt
     */
    public static byte[] decrypt(SecurityPolicy policy, PrivateKey key, byte[] ciphertext, int offset, int length) {
        int block = keySizeBytes(key);
        if (length <= 0 || length % block != 0) {
            throw new UaException(StatusCodes.BadSecurityChecksFailed, length
                    + " encrypted bytes are not a whole number of " + block + "-byte RSA blocks");
        }
        try {
            Cipher cipher = cipher(policy, Cipher.DECRYPT_MODE, key);
            ByteArrayOutputStream out = new ByteArrayOutputStream(length);
            for (int i = offset; i < offset + length; i += block) {
                out.writeBytes(cipher.doFinal(ciphertext, i, block));
            }
            return out.toByteArray();
        } catch (GeneralSecurityException e) {
            throw new UaException(StatusCodes.BadSecurityChecksFailed, "an encrypted block does not decrypt with "
                    + policy);
        }
    }

    /** Plaintext bytes one RSA block carries with this key and policy. */
    public static int plainBlockSize(SecurityPolicy policy, java.security.Key key) {
        return keySizeBytes(key) - policy.asymmetricEncryptionOverhead();
    }

    /** Modulus length in bytes of an RSA key. */
    public static int keySizeBytes(java.security.Key key) {
        if (key instanceof RSAKey rsa) {
            return (rsa.getModulus().bitLength() + 7) / 8;
        }
        throw new UaException(StatusCodes.BadCertificateInvalid, "an RSA key is required, not " + key.getAlgorithm());
    }

    private static Signature signature(SecurityPolicy policy) throws GeneralSecurityException {
        if (policy.isEcc()) {
            return EccCrypto.signature(policy);
        }
        Signature signature = Signature.getInstance(policy.asymmetricSignatureAlgorithm());
        if (policy.asymmetricSignatureParameters() != null) {
            signature.setParameter(policy.asymmetricSignatureParameters());
        }
        return signature;
    }

    private static Cipher cipher(SecurityPolicy policy, int mode, java.security.Key key)
            throws GeneralSecurityException {
        Cipher cipher = Cipher.getInstance(policy.asymmetricEncryptionAlgorithm());
        if (policy.asymmetricEncryptionParameters() != null) {
            cipher.init(mode, key, policy.asymmetricEncryptionParameters());
        } else {
            cipher.init(mode, key);
        }
        return cipher;
    }
}
