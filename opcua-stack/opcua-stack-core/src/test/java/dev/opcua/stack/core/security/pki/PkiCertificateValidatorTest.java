package dev.opcua.stack.core.security.pki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.ApplicationCertificate;
import java.security.KeyPair;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The validation steps of Part 4, 6.1.3 (Table 106) against in-memory trust lists: every status a step
 * can produce, and that the steps run in the table's order.
 */
class PkiCertificateValidatorTest {

    private static final ValidationOptions DEFAULTS = ValidationOptions.defaults();

    private static KeyPair leafKeys;
    private static ApplicationCertificate root;
    private static ApplicationCertificate intermediate;
    private static ApplicationCertificate leafOfRoot;
    private static ApplicationCertificate leafOfIntermediate;
    private static ApplicationCertificate selfSigned;
    private static X509CRL rootCrl;
    private static X509CRL intermediateCrl;

    @BeforeAll
    static void pki() {
        leafKeys = TestKeys.rsa("leaf-a");
        root = CertificateBuilder.forApplication("Test Root CA").ca(true).keyPair(TestKeys.rsa("root")).build();
        intermediate = CertificateBuilder.forApplication("Test Intermediate CA").ca(true).issuedBy(root)
                .keyPair(TestKeys.rsa("intermediate")).build();
        leafOfRoot = CertificateBuilder.forApplication("Leaf Of Root").applicationUri("urn:test:leaf-of-root")
                .hostNames("leaf1.test").issuedBy(root).keyPair(leafKeys).build();
        leafOfIntermediate = CertificateBuilder.forApplication("Leaf Of Intermediate")
                .applicationUri("urn:test:leaf-of-intermediate").issuedBy(intermediate)
                .keyPair(leafKeys).build();
        selfSigned = CertificateBuilder.forApplication("Self Signed").applicationUri("urn:test:self")
                .hostNames("self.test", "192.168.7.7", "fe80::7").keyPair(leafKeys).build();
        rootCrl = CrlBuilder.issuedBy(root).build();
        intermediateCrl = CrlBuilder.issuedBy(intermediate).build();
    }

    // ---- accepted chains

    @Test
    void trusted_self_signed_certificate_is_accepted_without_any_crl() {
        assertAccepted(TrustList.trusting(selfSigned.certificate()), selfSigned.certificate());
    }

    @Test
    void certificate_of_a_trusted_ca_is_accepted() {
        TrustList trust = new TrustList(List.of(root.certificate()), List.of(), List.of(rootCrl), List.of());

        assertAccepted(trust, leafOfRoot.certificate());
    }

    @Test
    void intermediate_sent_by_the_peer_completes_the_chain() {
        TrustList trust = new TrustList(List.of(root.certificate()), List.of(), List.of(rootCrl),
                List.of(intermediateCrl));

        assertAccepted(trust, leafOfIntermediate.certificate(), intermediate.certificate());
        assertAccepted(trust, leafOfIntermediate.certificate(), intermediate.certificate(), root.certificate());
    }

    @Test
    void intermediate_from_the_issuers_store_completes_the_chain() {
        TrustList trust = new TrustList(List.of(root.certificate()), List.of(intermediate.certificate()),
                List.of(rootCrl), List.of(intermediateCrl));

        assertAccepted(trust, leafOfIntermediate.certificate());
    }

    @Test
    void directly_trusted_leaf_of_an_issuer_ca_is_accepted() {
        TrustList trust = new TrustList(List.of(leafOfRoot.certificate()), List.of(root.certificate()),
                List.of(), List.of(rootCrl));

        assertAccepted(trust, leafOfRoot.certificate());
    }

    // ---- 1. certificate structure

    @Test
    void empty_chain_V1_certificate_and_unknown_critical_extension_are_invalid() {
        PkiCertificateValidator v = new PkiCertificateValidator(TrustList.EMPTY, DEFAULTS);
        X509Certificate v1 = OddCertificates.v1("Version One", leafKeys);
        X509Certificate odd = OddCertificates.v3("Odd", leafKeys, null, leafKeys.getPrivate(),
                KeyUsage.digitalSignature | KeyUsage.keyEncipherment, false, "1.2.3.4.5");

        assertStatus(() -> v.validate(List.of()), StatusCodes.BadCertificateInvalid);
        assertThatThrownBy(() -> v.validate(List.of(v1))).hasMessageContaining("X.509 v1");
        assertThatThrownBy(() -> v.validate(List.of(odd))).isInstanceOf(UaException.class)
                .hasMessageContaining("BadCertificateInvalid").hasMessageContaining("[1.2.3.4.5]");
    }

    // ---- 2. build certificate chain

    @Test
    void missing_intermediate_leaves_the_chain_incomplete() {
        TrustList trust = new TrustList(List.of(root.certificate()), List.of(), List.of(rootCrl), List.of());

        assertThatThrownBy(() -> validator(trust).validate(List.of(leafOfIntermediate.certificate())))
                .isInstanceOf(UaException.class)
                .hasMessageContaining("BadCertificateChainIncomplete")
                .hasMessageContaining("issuer 'CN=Test Intermediate CA'");
    }

    @Test
    void directly_trusted_leaf_still_needs_its_chain() {
        assertRejected(TrustList.trusting(leafOfIntermediate.certificate()), StatusCodes.BadCertificateChainIncomplete,
                leafOfIntermediate.certificate());
    }

    // ---- 3. signature

    @Test
    void issuer_whose_key_does_not_verify_the_signature_fails_the_security_checks() {
        // same name as the real intermediate, another key: the leaf's signature cannot verify with it
        ApplicationCertificate forged = CertificateBuilder.forApplication("Test Intermediate CA").ca(true)
                .issuedBy(root).keyPair(TestKeys.rsa("root")).build();
        TrustList trust = new TrustList(List.of(root.certificate()), List.of(forged.certificate()),
                List.of(rootCrl), List.of());

        assertRejected(trust, StatusCodes.BadSecurityChecksFailed, leafOfIntermediate.certificate());
    }

    @Test
    void self_signed_certificate_with_a_broken_self_signature_fails_the_security_checks() {
        X509Certificate broken = OddCertificates.v3("Broken", leafKeys, null, TestKeys.rsa("intermediate").getPrivate(),
                KeyUsage.digitalSignature | KeyUsage.keyEncipherment, false, null);

        assertRejected(TrustList.trusting(broken), StatusCodes.BadSecurityChecksFailed, broken);
    }

    // ---- 4. security policy

    @Test
    void key_shorter_than_the_minimum_fails_the_policy_check() {
        X509Certificate small = CertificateBuilder.forApplication("Small Key").keyPair(TestKeys.rsa1024("small"))
                .build().certificate();
        TrustList trust = TrustList.trusting(small);

        assertThatThrownBy(() -> validator(trust).validate(List.of(small)))
                .isInstanceOf(UaException.class)
                .hasMessageContaining("BadCertificatePolicyCheckFailed")
                .hasMessageContaining("1024-bit RSA key; at least 2048 bits");
        assertAccepted(new PkiCertificateValidator(trust, DEFAULTS.toBuilder().minKeyBits(1024).build()), small);
    }

    @Test
    void sha1_signature_fails_the_policy_check_unless_allowed() {
        X509Certificate sha1 = CertificateBuilder.forApplication("Sha1").signatureAlgorithm("SHA1withRSA")
                .keyPair(leafKeys).build().certificate();
        TrustList trust = TrustList.trusting(sha1);

        assertRejected(trust, StatusCodes.BadCertificatePolicyCheckFailed, sha1);
        assertAccepted(new PkiCertificateValidator(trust, DEFAULTS.toBuilder().rejectSha1Signed(false).build()), sha1);
    }

    @Test
    void policy_is_checked_before_trust() {
        X509Certificate sha1 = CertificateBuilder.forApplication("Sha1").signatureAlgorithm("SHA1withRSA")
                .keyPair(leafKeys).build().certificate();

        assertRejected(TrustList.EMPTY, StatusCodes.BadCertificatePolicyCheckFailed, sha1);
    }

    // ---- 5. trust list

    @Test
    void self_signed_certificate_not_in_the_trust_list_is_untrusted() {
        assertThatThrownBy(() -> validator(TrustList.EMPTY).validate(List.of(selfSigned.certificate())))
                .isInstanceOf(UaException.class)
                .hasMessageContaining("BadCertificateUntrusted")
                .hasMessageContaining("'CN=Self Signed,DC=self.test' ["
                        + X509Names.thumbprintHex(selfSigned.certificate()) + "]");
    }

    @Test
    void complete_chain_of_issuer_cas_only_is_untrusted() {
        TrustList trust = new TrustList(List.of(), List.of(root.certificate(), intermediate.certificate()),
                List.of(), List.of(rootCrl, intermediateCrl));

        assertRejected(trust, StatusCodes.BadCertificateUntrusted, leafOfIntermediate.certificate());
    }

    @Test
    void trusted_intermediate_makes_its_certificates_trusted() {
        TrustList trust = new TrustList(List.of(intermediate.certificate()), List.of(root.certificate()),
                List.of(intermediateCrl), List.of(rootCrl));

        assertAccepted(trust, leafOfIntermediate.certificate());
    }

    @Test
    void auto_accept_accepts_untrusted_but_otherwise_valid_certificates() {
        PkiCertificateValidator v = new PkiCertificateValidator(TrustList.EMPTY,
                DEFAULTS.toBuilder().autoAcceptUntrusted(true).build());
        X509Certificate expired = CertificateBuilder.forApplication("Expired").keyPair(leafKeys)
                .validityWindow(Instant.now().minus(Duration.ofDays(10)), Instant.now().minus(Duration.ofDays(1)))
                .build().certificate();

        assertAccepted(v, selfSigned.certificate());
        assertAccepted(v, selfSigned.certificate());
        assertStatus(() -> v.validate(List.of(expired)), StatusCodes.BadCertificateTimeInvalid);
        // a chain that cannot be built is not "untrusted but valid"
        assertStatus(() -> v.validate(List.of(leafOfIntermediate.certificate())),
                StatusCodes.BadCertificateChainIncomplete);
    }

    // ---- 6. validity period

    @Test
    void expired_or_not_yet_valid_certificate_has_an_invalid_time() {
        X509Certificate expired = CertificateBuilder.forApplication("Expired").keyPair(leafKeys)
                .validityWindow(Instant.now().minus(Duration.ofDays(10)), Instant.now().minus(Duration.ofDays(1)))
                .build().certificate();
        X509Certificate future = CertificateBuilder.forApplication("Future").keyPair(leafKeys)
                .validityWindow(Instant.now().plus(Duration.ofDays(1)), Instant.now().plus(Duration.ofDays(10)))
                .build().certificate();

        assertThatThrownBy(() -> validator(TrustList.trusting(expired)).validate(List.of(expired)))
                .isInstanceOf(UaException.class)
                .hasMessageContaining("BadCertificateTimeInvalid").hasMessageContaining("expired on");
        assertThatThrownBy(() -> validator(TrustList.trusting(future)).validate(List.of(future)))
                .isInstanceOf(UaException.class)
                .hasMessageContaining("BadCertificateTimeInvalid").hasMessageContaining("is not valid before");
    }

    @Test
    void validity_is_checked_against_the_configured_clock() {
        Clock in2040 = Clock.fixed(Instant.parse("2040-01-01T00:00:00Z"), ZoneOffset.UTC);
        PkiCertificateValidator v = new PkiCertificateValidator(TrustList.trusting(selfSigned.certificate()),
                DEFAULTS.toBuilder().clock(in2040).build());

        assertStatus(() -> v.validate(List.of(selfSigned.certificate())), StatusCodes.BadCertificateTimeInvalid);
    }

    @Test
    void expired_issuer_has_an_invalid_issuer_time() {
        ApplicationCertificate oldCa = CertificateBuilder.forApplication("Old CA").ca(true)
                .keyPair(TestKeys.rsa("root"))
                .validityWindow(Instant.now().minus(Duration.ofDays(100)), Instant.now().minus(Duration.ofDays(1)))
                .build();
        X509Certificate leaf = CertificateBuilder.forApplication("Leaf Of Old CA").issuedBy(oldCa).keyPair(leafKeys)
                .build().certificate();
        TrustList trust = new TrustList(List.of(oldCa.certificate()), List.of(),
                List.of(CrlBuilder.issuedBy(oldCa).build()), List.of());

        assertRejected(trust, StatusCodes.BadCertificateIssuerTimeInvalid, leaf);
    }

    @Test
    void trust_is_checked_before_the_validity_period() {
        X509Certificate expired = CertificateBuilder.forApplication("Expired").keyPair(leafKeys)
                .validityWindow(Instant.now().minus(Duration.ofDays(10)), Instant.now().minus(Duration.ofDays(1)))
                .build().certificate();

        assertRejected(TrustList.EMPTY, StatusCodes.BadCertificateUntrusted, expired);
    }

    // ---- 9. certificate usage

    @Test
    void application_certificate_without_signing_or_encipherment_use_is_not_allowed() {
        X509Certificate signOnly = OddCertificates.v3("Sign Only", leafKeys, null, leafKeys.getPrivate(),
                KeyUsage.digitalSignature | KeyUsage.keyCertSign, false, null);
        X509Certificate encipherOnly = OddCertificates.v3("Encipher Only", leafKeys, null, leafKeys.getPrivate(),
                KeyUsage.keyEncipherment | KeyUsage.keyCertSign, false, null);

        assertThatThrownBy(() -> validator(TrustList.trusting(signOnly)).validate(List.of(signOnly)))
                .isInstanceOf(UaException.class).hasMessageContaining("BadCertificateUseNotAllowed")
                .hasMessageContaining("lacks keyEncipherment or dataEncipherment");
        assertThatThrownBy(() -> validator(TrustList.trusting(encipherOnly)).validate(List.of(encipherOnly)))
                .isInstanceOf(UaException.class).hasMessageContaining("BadCertificateUseNotAllowed")
                .hasMessageContaining("lacks digitalSignature");
    }

    @Test
    void ca_certificate_is_not_an_application_certificate() {
        TrustList trust = new TrustList(List.of(root.certificate()), List.of(), List.of(rootCrl), List.of());

        assertRejected(trust, StatusCodes.BadCertificateUseNotAllowed, intermediate.certificate());
    }

    @Test
    void issuer_that_is_not_a_ca_is_not_allowed_to_issue() {
        // an application certificate (CA=false) used to sign another certificate
        KeyPair keys = TestKeys.rsa("root");
        X509Certificate notACa = OddCertificates.v3("Not A CA", keys, null, keys.getPrivate(),
                KeyUsage.digitalSignature | KeyUsage.keyEncipherment | KeyUsage.keyCertSign, false, null);
        X509Certificate leaf = OddCertificates.v3("Leaf Of Not A CA", leafKeys, notACa, keys.getPrivate(),
                KeyUsage.digitalSignature | KeyUsage.keyEncipherment, false, null);

        assertRejected(TrustList.trusting(notACa), StatusCodes.BadCertificateIssuerUseNotAllowed, leaf);
    }

    @Test
    void ca_without_key_cert_sign_or_beyond_its_path_length_is_not_allowed_to_issue() {
        X509Certificate noCertSign = OddCertificates.v3("No CertSign CA", TestKeys.rsa("root"), null,
                TestKeys.rsa("root").getPrivate(), KeyUsage.cRLSign, true, null);
        X509Certificate leaf = OddCertificates.v3("Leaf", leafKeys, noCertSign, TestKeys.rsa("root").getPrivate(),
                KeyUsage.digitalSignature | KeyUsage.keyEncipherment, false, null);
        assertThatThrownBy(() -> validator(TrustList.trusting(noCertSign)).validate(List.of(leaf)))
                .isInstanceOf(UaException.class).hasMessageContaining("BadCertificateIssuerUseNotAllowed")
                .hasMessageContaining("lacks keyCertSign");

        ApplicationCertificate strictRoot = CertificateBuilder.forApplication("Strict Root").ca(true).pathLength(0)
                .keyPair(TestKeys.rsa("root")).build();
        ApplicationCertificate sub = CertificateBuilder.forApplication("Sub CA").ca(true).issuedBy(strictRoot)
                .keyPair(TestKeys.rsa("intermediate")).build();
        X509Certificate deep = CertificateBuilder.forApplication("Deep Leaf").issuedBy(sub).keyPair(leafKeys)
                .build().certificate();
        TrustList trust = new TrustList(List.of(strictRoot.certificate()), List.of(sub.certificate()),
                List.of(CrlBuilder.issuedBy(strictRoot).build()), List.of(CrlBuilder.issuedBy(sub).build()));
        assertThatThrownBy(() -> validator(trust).validate(List.of(deep)))
                .isInstanceOf(UaException.class).hasMessageContaining("BadCertificateIssuerUseNotAllowed")
                .hasMessageContaining("allows 0 CAs below it");
    }

    // ---- 10. find revocation list

    @Test
    void missing_crl_of_the_issuing_ca_leaves_revocation_unknown() {
        TrustList trust = new TrustList(List.of(root.certificate()), List.of(), List.of(), List.of());

        assertThatThrownBy(() -> validator(trust).validate(List.of(leafOfRoot.certificate())))
                .isInstanceOf(UaException.class).hasMessageContaining("BadCertificateRevocationUnknown")
                .hasMessageContaining("no CRL of the CA 'CN=Test Root CA'");
    }

    @Test
    void crl_must_be_in_the_crl_directory_of_the_cas_store() {
        // the root is trusted, its CRL lies in the issuers' CRL directory
        TrustList trust = new TrustList(List.of(root.certificate()), List.of(), List.of(), List.of(rootCrl));

        assertRejected(trust, StatusCodes.BadCertificateRevocationUnknown, leafOfRoot.certificate());
    }

    @Test
    void crl_with_the_cas_name_but_another_signature_is_ignored() {
        ApplicationCertificate impostor = CertificateBuilder.forApplication("Test Root CA").ca(true)
                .keyPair(TestKeys.rsa("intermediate")).build();
        TrustList trust = new TrustList(List.of(root.certificate()), List.of(),
                List.of(CrlBuilder.issuedBy(impostor).build()), List.of());

        assertRejected(trust, StatusCodes.BadCertificateRevocationUnknown, leafOfRoot.certificate());
    }

    @Test
    void missing_crl_of_the_root_above_an_intermediate_leaves_issuer_revocation_unknown() {
        TrustList trust = new TrustList(List.of(root.certificate()), List.of(intermediate.certificate()),
                List.of(), List.of(intermediateCrl));

        assertRejected(trust, StatusCodes.BadCertificateIssuerRevocationUnknown, leafOfIntermediate.certificate());
    }

    // ---- 11. revocation check

    @Test
    void leaf_revoked_by_its_ca_is_revoked() {
        X509CRL revoking = CrlBuilder.issuedBy(root).revoke(leafOfRoot.certificate()).number(java.math.BigInteger.TWO)
                .build();
        TrustList trust = new TrustList(List.of(root.certificate()), List.of(), List.of(revoking), List.of());

        assertThatThrownBy(() -> validator(trust).validate(List.of(leafOfRoot.certificate())))
                .isInstanceOf(UaException.class).hasMessageContaining("BadCertificateRevoked")
                .hasMessageContaining("was revoked on");
    }

    @Test
    void newest_crl_of_a_ca_decides() {
        X509CRL older = CrlBuilder.issuedBy(root).thisUpdate(Instant.now().minus(Duration.ofDays(2))).build();
        X509CRL newer = CrlBuilder.issuedBy(root).revoke(leafOfRoot.certificate()).build();
        TrustList trust = new TrustList(List.of(root.certificate()), List.of(), List.of(newer, older), List.of());

        assertRejected(trust, StatusCodes.BadCertificateRevoked, leafOfRoot.certificate());
    }

    @Test
    void revoked_intermediate_is_an_issuer_revocation() {
        X509CRL revoking = CrlBuilder.issuedBy(root).revoke(intermediate.certificate()).build();
        TrustList trust = new TrustList(List.of(root.certificate()), List.of(intermediate.certificate()),
                List.of(revoking), List.of(intermediateCrl));

        assertRejected(trust, StatusCodes.BadCertificateIssuerRevoked, leafOfIntermediate.certificate());
    }

    @Test
    void leaf_revoked_by_the_intermediate_is_revoked() {
        X509CRL revoking = CrlBuilder.issuedBy(intermediate).revoke(leafOfIntermediate.certificate()).build();
        TrustList trust = new TrustList(List.of(root.certificate()), List.of(intermediate.certificate()),
                List.of(rootCrl), List.of(revoking));

        assertRejected(trust, StatusCodes.BadCertificateRevoked, leafOfIntermediate.certificate());
    }

    // ---- host name and application URI

    @Test
    void application_uri_must_match_the_certificate() {
        X509Certificate c = selfSigned.certificate();

        assertThat(PkiCertificateValidator.applicationUriOf(c)).isEqualTo("urn:test:self");
        assertThatCode(() -> PkiCertificateValidator.checkApplicationUri(c, "urn:test:self"))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> PkiCertificateValidator.checkApplicationUri(c, "urn:test:other"))
                .isInstanceOf(UaException.class).hasMessageContaining("BadCertificateUriInvalid")
                .hasMessageContaining("'urn:test:self'").hasMessageContaining("'urn:test:other'");
        X509Certificate noUri = CertificateBuilder.forApplication("No Uri").keyPair(leafKeys).build().certificate();
        assertThat(PkiCertificateValidator.applicationUriOf(noUri)).isNull();
        assertStatus(() -> PkiCertificateValidator.checkApplicationUri(noUri, "urn:x"),
                StatusCodes.BadCertificateUriInvalid);
    }

    @Test
    void host_name_must_be_a_dns_or_ip_name_of_the_certificate() {
        X509Certificate c = selfSigned.certificate();

        for (String ok : List.of("self.test", "SELF.Test", "192.168.7.7", "fe80:0:0:0:0:0:0:7", "[fe80::7]")) {
            assertThatCode(() -> PkiCertificateValidator.checkHostName(c, ok)).as(ok).doesNotThrowAnyException();
        }
        for (String bad : List.of("other.test", "192.168.7.8", "self.test.evil", "fe80::8")) {
            assertStatus(() -> PkiCertificateValidator.checkHostName(c, bad),
                    StatusCodes.BadCertificateHostNameInvalid);
        }
        assertThatThrownBy(() -> PkiCertificateValidator.checkHostName(c, "other.test"))
                .hasMessageContaining("not issued to host 'other.test'").hasMessageContaining("self.test");
    }

    @Test
    void wildcard_dns_name_covers_one_label() {
        assertThat(HostNames.dnsMatches("*.acme.local", "line1.acme.local")).isTrue();
        assertThat(HostNames.dnsMatches("*.acme.local", "a.line1.acme.local")).isFalse();
        assertThat(HostNames.dnsMatches("*.acme.local", "acme.local")).isFalse();
        assertThat(HostNames.ipLiteral("not.an.ip")).isEmpty();
        assertThat(HostNames.ipLiteral("1.2.3.256")).isEmpty();
        assertThat(HostNames.ipLiteral("cafe:beef")).isEmpty();
    }

    // ---- logging memory

    @Test
    void failure_log_remembers_pairs_once_and_stays_bounded() {
        FailureLog log = new FailureLog(3);

        assertThat(log.firstTime("aa", StatusCodes.BadCertificateUntrusted)).isTrue();
        assertThat(log.firstTime("aa", StatusCodes.BadCertificateUntrusted)).isFalse();
        assertThat(log.firstTime("aa", StatusCodes.BadCertificateRevoked)).isTrue();
        for (int i = 0; i < 10; i++) {
            log.firstTime("t" + i, StatusCodes.BadCertificateUntrusted);
        }
        assertThat(log.size()).isEqualTo(3);
        assertThat(log.firstTime("aa", StatusCodes.BadCertificateUntrusted)).isTrue();
    }

    // ---- helpers

    private static PkiCertificateValidator validator(TrustList trust) {
        return new PkiCertificateValidator(trust, DEFAULTS);
    }

    private static void assertAccepted(TrustList trust, X509Certificate... chain) {
        assertAccepted(validator(trust), chain);
    }

    private static void assertAccepted(PkiCertificateValidator validator, X509Certificate... chain) {
        assertThatCode(() -> validator.validate(List.of(chain))).doesNotThrowAnyException();
    }

    private static void assertRejected(TrustList trust, int status, X509Certificate... chain) {
        assertStatus(() -> validator(trust).validate(List.of(chain)), status);
    }

    static void assertStatus(Runnable call, int status) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(UaException.class,
                e -> assertThat(e.statusCode().name()).as(e.getMessage()).isEqualTo(StatusCodes.name(status)));
    }
}
