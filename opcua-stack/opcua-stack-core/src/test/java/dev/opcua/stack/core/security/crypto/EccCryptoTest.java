package dev.opcua.stack.core.security.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.CertificateType;
import dev.opcua.stack.core.security.ChunkCrypto;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.security.pki.CertificateBuilder;
import dev.opcua.stack.core.security.pki.CertificateLoader;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.PublicKey;
import java.util.HexFormat;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The ECC pieces of the secure channel (Part 6, 6.8.1): ephemeral keys as nonces, the point check,
 * ECDH, HKDF (checked against RFC 5869's own test vector), key derivation with the client and server
 * salts, ECDSA signatures in r|s form, signed-only OPN chunks and ECC application certificates.
 */
class EccCryptoTest {

    static Stream<SecurityPolicy> eccPolicies() {
        return Stream.of(SecurityPolicy.values()).filter(SecurityPolicy::isEcc);
    }

    @Test
    void hkdf_gives_rfc_5869_test_case_1() {
        byte[] ikm = new byte[22];
        java.util.Arrays.fill(ikm, (byte) 0x0b);
        byte[] salt = HexFormat.of().parseHex("000102030405060708090a0b0c");
        byte[] info = HexFormat.of().parseHex("f0f1f2f3f4f5f6f7f8f9");
        byte[] okm = KeyDerivation.hkdf("HmacSHA256", salt, ikm, info, 42);
        assertThat(HexFormat.of().formatHex(okm)).isEqualTo(
                "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("eccPolicies")
    void both_ends_derive_the_same_keys_from_their_own_ephemeral_key_and_the_peer_nonce(SecurityPolicy policy) {
        KeyPair client = EccCrypto.ephemeralKeyPair(policy);
        KeyPair server = EccCrypto.ephemeralKeyPair(policy);
        byte[] clientNonce = EccCrypto.encodePublicKey(policy, client.getPublic());
        byte[] serverNonce = EccCrypto.encodePublicKey(policy, server.getPublic());
        assertThat(clientNonce).hasSize(policy.nonceLength());

        PublicKey clientSeen = EccCrypto.decodePublicKey(policy, clientNonce);
        PublicKey serverSeen = EccCrypto.decodePublicKey(policy, serverNonce);
        byte[] atServer = EccCrypto.sharedSecret(policy, server.getPrivate(), clientSeen);
        byte[] atClient = EccCrypto.sharedSecret(policy, client.getPrivate(), serverSeen);
        assertThat(atServer).isEqualTo(atClient).hasSize(policy.certificateType().coordinateLength());

        KeyDerivation.ChannelKeys s = KeyDerivation.deriveEcc(policy, atServer, clientNonce, serverNonce);
        KeyDerivation.ChannelKeys c = KeyDerivation.deriveEcc(policy, atClient, clientNonce, serverNonce);
        assertThat(c.client().signingKey()).isEqualTo(s.client().signingKey()).hasSize(policy.signingKeyLength());
        assertThat(c.server().encryptingKey()).isEqualTo(s.server().encryptingKey())
                .hasSize(policy.encryptingKeyLength());
        assertThat(c.client().signingKey()).isNotEqualTo(c.server().signingKey());
        assertThat(c.client().initializationVector()).hasSize(16);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("eccPolicies")
    void client_keys_are_hkdf_with_the_client_salt_as_salt_and_info(SecurityPolicy policy) {
        byte[] secret = new byte[policy.certificateType().coordinateLength()];
        byte[] clientNonce = new byte[policy.nonceLength()];
        byte[] serverNonce = new byte[policy.nonceLength()];
        clientNonce[0] = 1;
        serverNonce[0] = 2;
        int length = policy.signingKeyLength() + policy.encryptingKeyLength() + 16;
        byte[] label = "opcua-client".getBytes(StandardCharsets.UTF_8);
        byte[] salt = new byte[2 + label.length + 2 * policy.nonceLength()];
        salt[0] = (byte) length;
        System.arraycopy(label, 0, salt, 2, label.length);
        System.arraycopy(clientNonce, 0, salt, 2 + label.length, clientNonce.length);
        System.arraycopy(serverNonce, 0, salt, 2 + label.length + clientNonce.length, serverNonce.length);
        byte[] expected = KeyDerivation.hkdf(policy.keyDerivationMac(), salt, secret, salt, length);

        KeyDerivation.Keys client = KeyDerivation.deriveEcc(policy, secret, clientNonce, serverNonce).client();
        assertThat(client.signingKey()).isEqualTo(java.util.Arrays.copyOfRange(expected, 0,
                policy.signingKeyLength()));
        assertThat(client.initializationVector()).isEqualTo(java.util.Arrays.copyOfRange(expected, length - 16,
                length));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("eccPolicies")
    void a_nonce_of_the_wrong_length_or_off_the_curve_is_bad_nonce_invalid(SecurityPolicy policy) {
        byte[] nonce = EccCrypto.encodePublicKey(policy, EccCrypto.ephemeralKeyPair(policy).getPublic());
        assertThatThrownBy(() -> EccCrypto.decodePublicKey(policy, java.util.Arrays.copyOf(nonce, nonce.length - 1)))
                .isInstanceOfSatisfying(UaException.class,
                        e -> assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadNonceInvalid));
        byte[] offCurve = nonce.clone();
        offCurve[offCurve.length - 1] ^= 1; // the same X with another Y
        assertThatThrownBy(() -> EccCrypto.decodePublicKey(policy, offCurve))
                .isInstanceOfSatisfying(UaException.class, e -> {
                    assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadNonceInvalid);
                    assertThat(e).hasMessageContaining("not a point on");
                });
        assertThatThrownBy(() -> EccCrypto.decodePublicKey(policy, new byte[nonce.length]))
                .isInstanceOf(UaException.class);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("eccPolicies")
    void an_ecc_certificate_signs_and_a_signed_opn_chunk_verifies_and_a_changed_byte_does_not(SecurityPolicy policy) {
        ApplicationCertificate own = CertificateBuilder.forApplication("ecc test").type(policy.certificateType())
                .applicationUri("urn:test:ecc").hostNames("localhost").build();
        assertThat(own.type()).isEqualTo(policy.certificateType());
        assertThat(CertificateType.of(own.certificate().getPublicKey())).isEqualTo(policy.certificateType());
        assertThat(CertificateLoader.keyMatches(own.certificate(), own.privateKey())).isTrue();

        byte[] signature = AsymmetricCrypto.sign(policy, own.privateKey(), new byte[] {1, 2, 3});
        assertThat(signature).hasSize(policy.eccSignatureSize());
        assertThat(AsymmetricCrypto.verify(policy, own.certificate().getPublicKey(), signature, new byte[] {1, 2, 3}))
                .isTrue();

        ChunkCrypto send = EccChunkCrypto.forSending(policy, own.privateKey());
        ChunkCrypto receive = EccChunkCrypto.forReceiving(policy, own.certificate().getPublicKey());
        ByteBuf chunk = Unpooled.buffer();
        try {
            chunk.writeBytes(new byte[] {'O', 'P', 'N', 'F', 0, 0, 0, 0});
            chunk.writeBytes(new byte[20]); // security header stand-in
            int securedStart = chunk.writerIndex();
            chunk.writeBytes(new byte[] {1, 0, 0, 0, 5, 0, 0, 0, 42, 43, 44});
            int bodyEnd = chunk.writerIndex();
            send.secure(chunk, 0, securedStart);
            assertThat(chunk.readableBytes()).isEqualTo(bodyEnd + policy.eccSignatureSize());
            assertThat(chunk.getIntLE(4)).isEqualTo(chunk.readableBytes());
            assertThat(receive.verify(chunk.duplicate(), 0, securedStart)).isEqualTo(bodyEnd);
            chunk.setByte(bodyEnd - 1, 0);
            assertThatThrownBy(() -> receive.verify(chunk.duplicate(), 0, securedStart))
                    .isInstanceOf(UaException.class).hasMessageContaining("signature is wrong");
        } finally {
            chunk.release();
        }
    }
}
