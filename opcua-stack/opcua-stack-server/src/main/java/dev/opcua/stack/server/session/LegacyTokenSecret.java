package dev.opcua.stack.server.session;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.security.crypto.AsymmetricCrypto;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.util.Arrays;

/**
 * The legacy encrypted token secret of a UserNameIdentityToken (Part 4, 7.41.2.2): encrypted with the
 * server certificate's public key, the plaintext is a UInt32 little-endian length of what follows it,
 * the token data (the UTF-8 password), then the last server nonce; zero bytes of padding may follow.
 *
 * <p>Every failure is BadIdentityTokenInvalid; the messages never contain secret bytes.
 */
final class LegacyTokenSecret {

    private LegacyTokenSecret() {
    }

    /**
     * Decrypts {@code ciphertext} and returns the token data, a new array the caller must zero after use;
     * the decrypted plaintext is zeroed before this returns.
     */
    static byte[] open(SecurityPolicy policy, PrivateKey key, byte[] ciphertext, byte[] serverNonce) {
        byte[] plaintext;
        try {
            plaintext = AsymmetricCrypto.decrypt(policy, key, ciphertext, 0, ciphertext.length);
        } catch (UaException e) {
            throw new UaException(StatusCodes.BadIdentityTokenInvalid, "the encrypted password does not decrypt with "
                    + policy + " and the server's key: " + e.getMessage());
        }
        try {
            return tokenData(plaintext, serverNonce);
        } finally {
            Arrays.fill(plaintext, (byte) 0);
        }
    }

    /** The token data of a decrypted secret, checked against the last server nonce. */
    static byte[] tokenData(byte[] plaintext, byte[] serverNonce) {
        if (plaintext.length < 4) {
            throw invalid("the decrypted secret has " + plaintext.length + " bytes, too few for its length field");
        }
        long length = (plaintext[0] & 0xFFL) | (plaintext[1] & 0xFFL) << 8 | (plaintext[2] & 0xFFL) << 16
                | (plaintext[3] & 0xFFL) << 24;
        if (length < serverNonce.length || length > plaintext.length - 4) {
            throw invalid("the decrypted secret's length field " + length + " does not fit its "
                    + (plaintext.length - 4) + " bytes with a " + serverNonce.length + "-byte server nonce");
        }
        int end = 4 + (int) length;
        for (int i = end; i < plaintext.length; i++) {
            if (plaintext[i] != 0) { // Part 4, 7.41.2.1: padding, if any, is zeros
                throw invalid("the decrypted secret has non-zero padding after byte " + end);
            }
        }
        int nonceStart = end - serverNonce.length;
        if (!MessageDigest.isEqual(Arrays.copyOfRange(plaintext, nonceStart, end), serverNonce)) {
            throw invalid("the decrypted secret does not end with the last server nonce of the session");
        }
        return Arrays.copyOfRange(plaintext, 4, nonceStart);
    }

    private static UaException invalid(String message) {
        return new UaException(StatusCodes.BadIdentityTokenInvalid, message);
    }
}
