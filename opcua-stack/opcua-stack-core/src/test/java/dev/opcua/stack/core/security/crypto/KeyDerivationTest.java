package dev.opcua.stack.core.security.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.security.SecurityPolicy;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;
import java.util.stream.Stream;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Derivation of a token's symmetric keys from the OpenSecureChannel nonces (Part 6, 6.7.5): key
 * lengths of each policy (Part 7 profiles), direction and determinism, and P_SHA1/P_SHA256 checked
 * against a separate, recursive reading of RFC 5246, section 5.
 */
class KeyDerivationTest {

    private static final SecureRandom RANDOM = new SecureRandom();

    /** DerivedSignatureKeyLength, encryption key length and AES block size in bytes, per the Part 7 profiles. */
    private static final Map<SecurityPolicy, int[]> LENGTHS = Map.of(
            SecurityPolicy.Basic128Rsa15, new int[] {16, 16, 16},
            SecurityPolicy.Basic256, new int[] {24, 32, 16},
            SecurityPolicy.Basic256Sha256, new int[] {32, 32, 16},
            SecurityPolicy.Aes128_Sha256_RsaOaep, new int[] {32, 16, 16},
            SecurityPolicy.Aes256_Sha256_RsaPss, new int[] {32, 32, 16});

    static Stream<SecurityPolicy> policies() {
        return Stream.of(SecurityPolicy.values()).filter(p -> p != SecurityPolicy.None && !p.isEcc());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void keys_have_the_lengths_of_the_policy(SecurityPolicy policy) {
        int[] lengths = LENGTHS.get(policy);
        KeyDerivation.ChannelKeys keys = KeyDerivation.derive(policy, nonce(policy), nonce(policy));
        for (KeyDerivation.Keys k : new KeyDerivation.Keys[] {keys.client(), keys.server()}) {
            assertThat(k.signingKey()).hasSize(lengths[0]);
            assertThat(k.encryptingKey()).hasSize(lengths[1]);
            assertThat(k.initializationVector()).hasSize(lengths[2]);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void client_and_server_keys_differ_and_the_same_nonces_give_the_same_keys(SecurityPolicy policy) {
        byte[] clientNonce = nonce(policy);
        byte[] serverNonce = nonce(policy);
        KeyDerivation.ChannelKeys keys = KeyDerivation.derive(policy, clientNonce, serverNonce);
        assertThat(keys.client().signingKey()).isNotEqualTo(keys.server().signingKey());
        assertThat(keys.client().encryptingKey()).isNotEqualTo(keys.server().encryptingKey());
        assertThat(keys.client().initializationVector()).isNotEqualTo(keys.server().initializationVector());

        KeyDerivation.ChannelKeys again = KeyDerivation.derive(policy, clientNonce.clone(), serverNonce.clone());
        assertSame(again.client(), keys.client());
        assertSame(again.server(), keys.server());

        KeyDerivation.ChannelKeys swapped = KeyDerivation.derive(policy, serverNonce, clientNonce);
        assertSame(swapped.client(), keys.server()); // the roles of secret and seed are all that differ

        byte[] otherServerNonce = serverNonce.clone();
        otherServerNonce[0] ^= 1;
        assertThat(KeyDerivation.derive(policy, clientNonce, otherServerNonce).client().signingKey())
                .isNotEqualTo(keys.client().signingKey());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void keys_are_signing_key_then_encrypting_key_then_iv_of_p_hash(SecurityPolicy policy) {
        // Part 6, 6.7.5, Table 62: client keys use the ServerNonce as secret and the ClientNonce as seed.
        int[] lengths = LENGTHS.get(policy);
        int total = lengths[0] + lengths[1] + lengths[2];
        String hmac = policy.keyDerivationMac();
        byte[] clientNonce = nonce(policy);
        byte[] serverNonce = nonce(policy);
        KeyDerivation.ChannelKeys keys = KeyDerivation.derive(policy, clientNonce, serverNonce);
        byte[] client = pHash(hmac, serverNonce, clientNonce, total);
        byte[] server = pHash(hmac, clientNonce, serverNonce, total);
        assertThat(concat(keys.client())).isEqualTo(client);
        assertThat(concat(keys.server())).isEqualTo(server);
    }

    @Test
    void p_sha1_and_p_sha256_match_rfc_5246_for_lengths_across_block_boundaries() {
        for (String hmac : new String[] {"HmacSHA1", "HmacSHA256"}) {
            for (int length : new int[] {1, 16, 19, 20, 21, 32, 33, 64, 80, 100, 255}) {
                byte[] secret = random(1 + length % 40);
                byte[] seed = random(32);
                assertThat(KeyDerivation.prf(hmac, secret, seed, length)).as("%s, %d bytes", hmac, length)
                        .isEqualTo(pHash(hmac, secret, seed, length));
            }
        }
    }

    @Test
    void the_reference_p_hash_reproduces_the_published_tls_1_2_prf_vector() {
        // TLS 1.2 PRF test vector for SHA-256 (PRF(secret, "test label", seed) = P_SHA256(secret, label + seed)),
        // as published to the IETF TLS working group: anchors the reference implementation of this test.
        HexFormat hex = HexFormat.of();
        byte[] secret = hex.parseHex("9bbe436ba940f017b17652849a71db35");
        byte[] seed = hex.parseHex("74657374206c6162656c" + "a0ba9f936cda311827a6f796ffd5198c");
        byte[] expected = hex.parseHex("e3f229ba727be17b8d122620557cd453c2aab21d07c3d495329b52d4e61edb5a"
                + "6b301791e90d35c9c9a46b4e14baf9af0fa022f7077def17abfd3797c0564bab"
                + "4fbc91666e9def9b97fce34f796789baa48082d122ee42c5a72e5a5110fff701"
                + "87347b66");
        assertThat(pHash("HmacSHA256", secret, seed, expected.length)).isEqualTo(expected);
        assertThat(KeyDerivation.prf("HmacSHA256", secret, seed, expected.length)).isEqualTo(expected);
    }

    // ---- the reference: RFC 5246, section 5, read literally and written recursively ----------------

    /** P_hash(secret, seed) cut to {@code length} bytes. */
    private static byte[] pHash(String hmac, byte[] secret, byte[] seed, int length) {
        return Arrays.copyOf(expand(hmac, secret, seed, seed, length), length);
    }

    /**
     * HMAC_hash(secret, A(i) + seed) + HMAC_hash(secret, A(i+1) + seed) + ... until {@code remaining}
     * bytes are covered, with A(i) = HMAC_hash(secret, A(i-1)) and A(0) = seed.
     */
    private static byte[] expand(String hmac, byte[] secret, byte[] seed, byte[] previousA, int remaining) {
        if (remaining <= 0) {
            return new byte[0];
        }
        byte[] a = hmac(hmac, secret, previousA);
        byte[] output = hmac(hmac, secret, concat(a, seed));
        return concat(output, expand(hmac, secret, seed, a, remaining - output.length));
    }

    private static byte[] hmac(String algorithm, byte[] key, byte[] data) {
        try {
            Mac mac = Mac.getInstance(algorithm);
            mac.init(new SecretKeySpec(key, algorithm));
            return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new AssertionError(e);
        }
    }

    // ---- helpers ---------------------------------------------------------------------------------

    private static byte[] nonce(SecurityPolicy policy) {
        return random(policy.nonceLength());
    }

    private static byte[] random(int length) {
        byte[] bytes = new byte[length];
        RANDOM.nextBytes(bytes);
        return bytes;
    }

    private static byte[] concat(byte[]... parts) {
        int length = 0;
        for (byte[] p : parts) {
            length += p.length;
        }
        byte[] out = new byte[length];
        int offset = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, offset, p.length);
            offset += p.length;
        }
        return out;
    }

    private static byte[] concat(KeyDerivation.Keys keys) {
        return concat(keys.signingKey(), keys.encryptingKey(), keys.initializationVector());
    }

    private static void assertSame(KeyDerivation.Keys actual, KeyDerivation.Keys expected) {
        assertThat(actual.signingKey()).isEqualTo(expected.signingKey());
        assertThat(actual.encryptingKey()).isEqualTo(expected.encryptingKey());
        assertThat(actual.initializationVector()).isEqualTo(expected.initializationVector());
    }
}
