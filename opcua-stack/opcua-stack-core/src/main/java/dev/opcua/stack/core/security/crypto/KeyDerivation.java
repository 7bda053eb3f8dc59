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

    public static ChannelKeys derive(SecurityPolicy policy, byte[] clientNonce, byte[] serverNonce) {
        return new ChannelKeys(keys(policy, serverNonce, clientNonce), keys(policy, clientNonce, serverNonce));
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
