package dev.opcua.stack.core.security.crypto;

import dev.opcua.stack.core.security.SecurityPolicy;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The symmetric keys of a channel token from the OpenSecureChannel nonces (Part 6, 6.7.5, Tables 61
 * and 62): P_SHA1 or P_SHA256 (RFC 5246, 5) gives signing key, encrypting key and IV in this order.
 * The client's keys use the server nonce as secret and the client nonce as seed; the server's keys
 * the other way round.
 *
 * <p>With an ECC policy the nonces are ephemeral public keys and the keys come from their ECDH shared
 * secret through HKDF (RFC 5869; Part 6, 6.8.1): the client's keys with salt and info
 * {@code L | "opcua-client" | ClientNonce | ServerNonce}, the server's with
 * {@code L | "opcua-server" | ServerNonce | ClientNonce}, L being the bytes derived as a little-endian
 * UInt16; the same order of signing key, encrypting key and IV.
 */
public final class KeyDerivation {

    private KeyDerivation() {
    }

    /** The keys of one direction: what the client (or the server) secures its messages with. */
    public record Keys(byte[] signingKey, byte[] encryptingKey, byte[] initializationVector) {
    }

    /** Both directions' keys of a token. */
    public record ChannelKeys(Keys client, Keys server) {
    }

    /** The keys of an RSA channel token from the two nonces (Part 6, 6.7.5). */
    public static ChannelKeys derive(SecurityPolicy policy, byte[] clientNonce, byte[] serverNonce) {
        if (policy.isEcc()) {
            throw new IllegalArgumentException(policy + " derives its keys by ECDH: use deriveEcc");
        }
        return new ChannelKeys(keys(policy, serverNonce, clientNonce), keys(policy, clientNonce, serverNonce));
    }

    /**
     * The keys of an ECC channel token from the ECDH {@code sharedSecret} of the two ephemeral keys and
     * the nonces that carried their public halves (Part 6, 6.8.1).
     */
    public static ChannelKeys deriveEcc(SecurityPolicy policy, byte[] sharedSecret, byte[] clientNonce,
            byte[] serverNonce) {
        if (!policy.isEcc()) {
            throw new IllegalArgumentException(policy + " derives its keys from the nonces, not by ECDH");
        }
        return new ChannelKeys(hkdfKeys(policy, sharedSecret, "opcua-client", clientNonce, serverNonce),
                hkdfKeys(policy, sharedSecret, "opcua-server", serverNonce, clientNonce));
    }

    private static Keys hkdfKeys(SecurityPolicy policy, byte[] sharedSecret, String label, byte[] first,
            byte[] second) {
        int sign = policy.signingKeyLength();
        int enc = policy.encryptingKeyLength();
        int iv = policy.encryptingBlockSize();
        int length = sign + enc + iv;
        byte[] salt = eccSalt(length, label, first, second);
        byte[] bytes = hkdf(policy.keyDerivationMac(), salt, sharedSecret, salt, length);
        return new Keys(Arrays.copyOfRange(bytes, 0, sign), Arrays.copyOfRange(bytes, sign, sign + enc),
                Arrays.copyOfRange(bytes, sign + enc, length));
    }

    /**
     * The salt (and info) of the ECC key derivations (Part 6, 6.8.1 and 6.8.3): {@code length} as a
     * little-endian UInt16, the label in UTF-8, then the two public keys.
     */
    static byte[] eccSalt(int length, String label, byte[] first, byte[] second) {
        byte[] labelBytes = label.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] salt = new byte[2 + labelBytes.length + first.length + second.length];
        salt[0] = (byte) length;
        salt[1] = (byte) (length >>> 8);
        System.arraycopy(labelBytes, 0, salt, 2, labelBytes.length);
        System.arraycopy(first, 0, salt, 2 + labelBytes.length, first.length);
        System.arraycopy(second, 0, salt, 2 + labelBytes.length + first.length, second.length);
        return salt;
    }

    /** HKDF (RFC 5869): PRK = HMAC(salt, ikm), then T(i) = HMAC(PRK, T(i-1) | info | i) until enough bytes. */
    static byte[] hkdf(String macAlgorithm, byte[] salt, byte[] ikm, byte[] info, int length) {
        try {
            Mac mac = Mac.getInstance(macAlgorithm);
            mac.init(new SecretKeySpec(salt, macAlgorithm));
            byte[] prk = mac.doFinal(ikm);
            mac.init(new SecretKeySpec(prk, macAlgorithm));
            byte[] out = new byte[length];
            byte[] t = new byte[0];
            int written = 0;
            for (int i = 1; written < length; i++) {
                mac.update(t);
                mac.update(info);
                mac.update((byte) i);
                t = mac.doFinal();
                int n = Math.min(t.length, length - written);
                System.arraycopy(t, 0, out, written, n);
                written += n;
            }
            return out;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(macAlgorithm + " is missing from the JDK", e);
        }
    }

    private static Keys keys(SecurityPolicy policy, byte[] secret, byte[] seed) {
        int sign = policy.signingKeyLength();
        int enc = policy.encryptingKeyLength();
        int iv = policy.encryptingBlockSize();
        byte[] bytes = prf(policy.keyDerivationMac(), secret, seed, sign + enc + iv);
        return new Keys(Arrays.copyOfRange(bytes, 0, sign), Arrays.copyOfRange(bytes, sign, sign + enc),
                Arrays.copyOfRange(bytes, sign + enc, sign + enc + iv));
    }

    /** P_hash(secret, seed) = HMAC(secret, A(1) + seed) + HMAC(secret, A(2) + seed) + ..., A(i) = HMAC(secret, A(i-1)). */
    static byte[] prf(String macAlgorithm, byte[] secret, byte[] seed, int length) {
        try {
            Mac mac = Mac.getInstance(macAlgorithm);
            mac.init(new SecretKeySpec(secret, macAlgorithm));
            byte[] out = new byte[length];
            byte[] a = seed;
            int written = 0;
            while (written < length) {
                a = mac.doFinal(a);
                mac.update(a);
                byte[] block = mac.doFinal(seed);
                int n = Math.min(block.length, length - written);
                System.arraycopy(block, 0, out, written, n);
                written += n;
            }
            return out;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(macAlgorithm + " is missing from the JDK", e);
        }
    }
}
