package dev.opcua.stack.server.transport.uasc;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.CertificateType;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.server.testing.TestCertificates;
import java.security.cert.X509Certificate;
import org.junit.jupiter.api.Test;

/**
 * The client certificate of an OpenSecureChannel must hold the key the policy uses (Part 7,
 * CertificateKeyAlgorithm; Part 6, 6.8.1): ECC on the policy's curve, RSA for the RSA policies; anything
 * else is BadCertificatePolicyCheckFailed naming both.
 */
class ClientKeyPolicyCheckTest {

    private static X509Certificate of(CertificateType type) {
        return TestCertificates.get("key-check", type).certificate();
    }

    @Test
    void a_key_on_the_policy_curve_passes() {
        assertThatCode(() -> ServerOpenSecureChannel.checkClientKey(SecurityPolicy.ECC_nistP256,
                of(CertificateType.ECC_NIST_P256))).doesNotThrowAnyException();
        assertThatCode(() -> ServerOpenSecureChannel.checkClientKey(SecurityPolicy.Basic256Sha256,
                of(CertificateType.RSA_SHA256))).doesNotThrowAnyException();
    }

    @Test
    void a_key_on_another_curve_or_of_another_kind_is_refused() {
        assertRefused(SecurityPolicy.ECC_nistP256, CertificateType.ECC_NIST_P384, "EC secp384r1");
        assertRefused(SecurityPolicy.ECC_nistP256, CertificateType.ECC_BRAINPOOL_P256R1, "EC brainpoolP256r1");
        assertRefused(SecurityPolicy.ECC_brainpoolP384r1, CertificateType.RSA_SHA256, "RSA");
        assertRefused(SecurityPolicy.Basic256Sha256, CertificateType.ECC_NIST_P256, "needs RSA");
    }

    private static void assertRefused(SecurityPolicy policy, CertificateType type, String why) {
        assertThatThrownBy(() -> ServerOpenSecureChannel.checkClientKey(policy, of(type)))
                .isInstanceOfSatisfying(UaException.class, e ->
                        org.assertj.core.api.Assertions.assertThat(e.statusCode().value())
                                .isEqualTo(StatusCodes.BadCertificatePolicyCheckFailed))
                .hasMessageContaining(why);
    }
}
