package dev.opcua.stack.core.security.pki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.opcua.stack.core.security.ApplicationCertificate;
import java.security.KeyPair;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Application instance certificates as Part 6, 6.2.2 describes them, and CRLs of a CA. */
class CertificateBuilderTest {

    private static KeyPair caKeys;
    private static KeyPair leafKeys;
    private static ApplicationCertificate ca;

    @BeforeAll
    static void keys() {
        caKeys = TestKeys.rsa("root");
        leafKeys = TestKeys.rsa("leaf-a");
        ca = CertificateBuilder.forApplication("Builder Test CA").organization("Acme").ca(true).keyPair(caKeys).build();
    }

    @Test
    void subject_alternative_name_holds_the_uri_the_dns_names_and_the_ip_addresses() throws Exception {
        X509Certificate c = CertificateBuilder.forApplication("Line 1")
                .applicationUri("urn:acme:line1")
                .hostNames("line1.acme.local", "10.1.2.3", "::1", "[fe80::1]")
                .keyPair(leafKeys)
                .build().certificate();

        List<String> names = new ArrayList<>();
        for (List<?> n : c.getSubjectAlternativeNames()) {
            names.add(n.get(0) + "=" + n.get(1));
        }
        assertThat(names).containsExactly("6=urn:acme:line1", "2=line1.acme.local", "7=10.1.2.3",
                "7=0:0:0:0:0:0:0:1", "7=fe80:0:0:0:0:0:0:1");
        assertThat(PkiCertificateValidator.applicationUriOf(c)).isEqualTo("urn:acme:line1");
    }

    @Test
    void subject_names_the_application_the_organization_and_the_first_host() {
        X509Certificate c = CertificateBuilder.forApplication("Line 1").organization("Acme")
                .hostNames("line1.acme.local", "10.1.2.3").keyPair(leafKeys).build().certificate();

        assertThat(c.getSubjectX500Principal().getName()).isEqualTo("CN=Line 1,O=Acme,DC=line1.acme.local");
        assertThat(c.getIssuerX500Principal()).isEqualTo(c.getSubjectX500Principal());
    }

    @Test
    void self_signed_application_certificate_has_the_usages_of_part6() throws Exception {
        X509Certificate c = CertificateBuilder.forApplication("App").applicationUri("urn:app").keyPair(leafKeys)
                .build().certificate();

        // digitalSignature, nonRepudiation, keyEncipherment, dataEncipherment, keyAgreement, keyCertSign
        assertThat(c.getKeyUsage()).startsWith(true, true, true, true, false, true, false);
        assertThat(c.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.1", "1.3.6.1.5.5.7.3.2");
        assertThat(c.getBasicConstraints()).isEqualTo(-1);
        assertThat(c.getVersion()).isEqualTo(3);
        assertThat(c.getSigAlgName()).isEqualTo("SHA256withRSA");
        assertThat(X509Names.authorityKeyId(c)).isEqualTo(X509Names.subjectKeyId(c)).isNotNull();
        c.verify(c.getPublicKey());
    }

    @Test
    void certificate_issued_by_a_ca_is_signed_by_it_and_carries_it_as_issuer() throws Exception {
        ApplicationCertificate leaf = CertificateBuilder.forApplication("App").applicationUri("urn:app")
                .issuedBy(ca).keyPair(leafKeys).build();

        X509Certificate c = leaf.certificate();
        c.verify(caKeys.getPublic());
        assertThat(c.getIssuerX500Principal()).isEqualTo(ca.certificate().getSubjectX500Principal());
        assertThat(leaf.issuers()).containsExactly(ca.certificate());
        assertThat(X509Names.authorityKeyId(c)).isEqualTo(X509Names.subjectKeyId(ca.certificate()));
        // no keyCertSign: it signs nothing, not even itself
        assertThat(c.getKeyUsage()).startsWith(true, true, true, true, false, false);
    }

    @Test
    void ca_certificate_may_issue_certificates_and_crls_only() {
        X509Certificate c = ca.certificate();

        assertThat(c.getBasicConstraints()).isEqualTo(Integer.MAX_VALUE);
        assertThat(c.getKeyUsage()).startsWith(false, false, false, false, false, true, true);
        assertThat(CertificateBuilder.forApplication("Sub CA").ca(true).pathLength(0).issuedBy(ca)
                .keyPair(leafKeys).build().certificate().getBasicConstraints()).isZero();
    }

    @Test
    void serial_number_is_positive_and_at_most159_bits() {
        for (int i = 0; i < 20; i++) {
            X509Certificate c = CertificateBuilder.forApplication("App").keyPair(leafKeys).build().certificate();
            assertThat(c.getSerialNumber().signum()).isPositive();
            assertThat(c.getSerialNumber().bitLength()).isLessThanOrEqualTo(159);
        }
    }

    @Test
    void validity_starts_a_minute_back_and_lasts_five_years_by_default() {
        X509Certificate c = CertificateBuilder.forApplication("App").keyPair(leafKeys).build().certificate();

        Instant notBefore = c.getNotBefore().toInstant();
        assertThat(notBefore).isCloseTo(Instant.now().minus(Duration.ofMinutes(1)), within(5, ChronoUnit.SECONDS));
        assertThat(Duration.between(notBefore, c.getNotAfter().toInstant()).toDays()).isBetween(5 * 365L, 5 * 366L);
    }

    @Test
    void explicit_validity_window_and_signature_algorithm_are_used() {
        Instant from = Instant.parse("2020-01-01T00:00:00Z");
        Instant to = Instant.parse("2021-01-01T00:00:00Z");
        X509Certificate c = CertificateBuilder.forApplication("Old").validityWindow(from, to)
                .signatureAlgorithm("SHA1withRSA").keyPair(leafKeys).build().certificate();

        assertThat(c.getNotBefore().toInstant()).isEqualTo(from);
        assertThat(c.getNotAfter().toInstant()).isEqualTo(to);
        assertThat(c.getSigAlgName()).isEqualTo("SHA1withRSA");
    }

    @Test
    void generates_A2048_bit_key_by_default() {
        ApplicationCertificate c = CertificateBuilder.forApplication("Fresh").build();

        assertThat(((RSAPublicKey) c.certificate().getPublicKey()).getModulus().bitLength()).isEqualTo(2048);
        assertThat(CertificateLoader.keyMatches(c.certificate(), c.privateKey())).isTrue();
    }

    @Test
    void refuses_a_non_ca_issuer_and_nonsense_arguments() {
        ApplicationCertificate app = CertificateBuilder.forApplication("App").keyPair(leafKeys).build();

        assertThatThrownBy(() -> CertificateBuilder.forApplication("X").issuedBy(app))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not a CA certificate");
        assertThatThrownBy(() -> CertificateBuilder.forApplication(" "))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("application name");
        assertThatThrownBy(() -> CertificateBuilder.forApplication("X").keySize(512))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("512");
        assertThatThrownBy(() -> CertificateBuilder.forApplication("X").signatureAlgorithm("NoSuchAlg")
                .keyPair(leafKeys).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("NoSuchAlg");
    }

    @Test
    void crl_of_a_ca_lists_the_revoked_serial_numbers_and_is_signed_by_the_ca() throws Exception {
        X509Certificate leaf = CertificateBuilder.forApplication("App").issuedBy(ca).keyPair(leafKeys).build()
                .certificate();
        X509Certificate other = CertificateBuilder.forApplication("Other").issuedBy(ca).keyPair(leafKeys).build()
                .certificate();

        X509CRL crl = CrlBuilder.issuedBy(ca).revoke(leaf).build();

        crl.verify(caKeys.getPublic());
        assertThat(crl.getIssuerX500Principal()).isEqualTo(ca.certificate().getSubjectX500Principal());
        assertThat(crl.isRevoked(leaf)).isTrue();
        assertThat(crl.isRevoked(other)).isFalse();
        assertThat(crl.getNextUpdate()).isAfter(crl.getThisUpdate());
        Collection<?> entries = crl.getRevokedCertificates();
        assertThat(entries).hasSize(1);
        assertThatThrownBy(() -> CrlBuilder.issuedBy(ca).revoke(ca.certificate()).revoke(
                CertificateBuilder.forApplication("Self").keyPair(leafKeys).build().certificate()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not by the CRL's CA");
    }
}
