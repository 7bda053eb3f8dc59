package dev.opcua.stack.core.security.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.security.pki.CertificateBuilder;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The EccEncryptedSecret of a password (Part 4, 7.40.2.5; Part 6, 6.8.3): what the client encrypts the
 * server opens, and every part a peer could change is refused with BadIdentityTokenInvalid naming it.
 */
class EccEncryptedSecretTest {

    static Stream<SecurityPolicy> eccPolicies() {
        return Stream.of(SecurityPolicy.values()).filter(SecurityPolicy::isEcc);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("eccPolicies")
    void the_server_opens_what_the_client_encrypted_and_refuses_any_change(SecurityPolicy policy) {
        ApplicationCertificate client = CertificateBuilder.forApplication("ecc secret client")
                .type(policy.certificateType()).applicationUri("urn:test:ecc:secret").build();
        KeyPair server = EccCrypto.ephemeralKeyPair(policy);
        byte[] serverKey = EccCrypto.encodePublicKey(policy, server.getPublic());
        byte[] nonce = new byte[32];
        nonce[3] = 7;
        byte[] password = "line1-operator".getBytes(StandardCharsets.UTF_8);

        byte[] secret = EccEncryptedSecret.encrypt(policy, client.privateKey(), client.der().unsafeBytes(), serverKey,
                nonce, password);
        assertThat(new String(secret, StandardCharsets.ISO_8859_1)).doesNotContain("line1-operator");
        assertThat(EccEncryptedSecret.decrypt(policy, client.certificate().getPublicKey(), server, nonce, secret))
                .isEqualTo(password);

        byte[] otherNonce = nonce.clone();
        otherNonce[0] = 1;
        assertRefused(() -> EccEncryptedSecret.decrypt(policy, client.certificate().getPublicKey(), server,
                otherNonce, secret), "Nonce");
        assertRefused(() -> EccEncryptedSecret.decrypt(policy, client.certificate().getPublicKey(),
                EccCrypto.ephemeralKeyPair(policy), nonce, secret), "another ephemeral key");
        byte[] tampered = secret.clone();
        tampered[tampered.length - policy.eccSignatureSize() - 5] ^= 1;
        assertRefused(() -> EccEncryptedSecret.decrypt(policy, client.certificate().getPublicKey(), server, nonce,
                tampered), "signature");
        assertRefused(() -> EccEncryptedSecret.decrypt(policy, client.certificate().getPublicKey(), server, nonce,
                java.util.Arrays.copyOf(secret, 40)), "");
        SecurityPolicy other = policy == SecurityPolicy.ECC_nistP256 ? SecurityPolicy.ECC_brainpoolP256r1
                : SecurityPolicy.ECC_nistP256;
        assertRefused(() -> EccEncryptedSecret.decrypt(other, client.certificate().getPublicKey(), server, nonce,
                secret), "names SecurityPolicy");
    }

    private static void assertRefused(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String why) {
        assertThatThrownBy(call).isInstanceOfSatisfying(UaException.class, e -> {
            assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadIdentityTokenInvalid);
            assertThat(e).hasMessageContaining(why);
        });
    }
}
