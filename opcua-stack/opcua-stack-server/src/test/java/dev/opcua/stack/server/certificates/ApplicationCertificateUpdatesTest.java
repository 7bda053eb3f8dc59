package dev.opcua.stack.server.certificates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.ApplicationCertificates;
import dev.opcua.stack.core.security.CertificateType;
import dev.opcua.stack.core.security.pki.CertificateBuilder;
import dev.opcua.stack.core.security.pki.CertificateLoader;
import dev.opcua.stack.core.security.pki.PkiDirectory;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.testing.TestSigningCa;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The checks of UpdateCertificate and CreateSigningRequest (Part 12, 7.10.5 and 7.10.10), without a network. */
class ApplicationCertificateUpdatesTest {

    private static final String URI = "urn:test:updates:server";
    private static final String NAME = "updates server";
    private static final NodeId RSA = NodeId.ns0(NodeIds.RsaSha256ApplicationCertificateType);
    private static final ApplicationCertificate CA = CertificateBuilder.forApplication("updates CA").ca(true).build();

    @TempDir
    Path dir;
    private PkiDirectory pki;
    private ApplicationCertificate current;
    private ApplicationCertificates certificates;
    private ApplicationCertificate currentEcc;

    @BeforeEach
    void server() {
        pki = new PkiDirectory(dir);
        current = pki.loadOrCreateApplicationCertificate(URI, NAME, List.of("localhost"), 2048, Duration.ofDays(30));
        currentEcc = pki.loadOrCreateApplicationCertificate(CertificateType.ECC_NIST_P256, URI, NAME,
                List.of("localhost"), 2048, Duration.ofDays(30));
        certificates = ApplicationCertificates.of(current, currentEcc);
    }

    private ApplicationCertificateUpdates updates() {
        return new ApplicationCertificateUpdates(certificates, URI, NAME, pki);
    }

    private ApplicationCertificate inUse() {
        return certificates.get(CertificateType.RSA_SHA256);
    }

    @Test
    void an_ecc_certificate_is_renewed_in_its_own_slot_and_file_and_the_rsa_one_stays() throws Exception {
        NodeId p256 = NodeId.ns0(NodeIds.EccNistP256ApplicationCertificateType);
        byte[] request = updates().createSigningRequest(null, p256, null, true, new byte[32]);
        assertThat(pki.pendingKeyFile(CertificateType.ECC_NIST_P256, NAME)).exists();
        assertThat(pki.pendingKeyFile(NAME)).doesNotExist();
        X509Certificate renewed = TestSigningCa.sign(CA, request);
        assertThat(CertificateType.of(renewed.getPublicKey())).isEqualTo(CertificateType.ECC_NIST_P256);

        ApplicationCertificateUpdates afterRestart = updates();
        assertStatus(() -> afterRestart.updateCertificate(null, null, RSA, encoded(renewed),
                new byte[][] {encoded(CA.certificate())}, null, null), StatusCodes.BadCertificateInvalid,
                "does not fit RsaSha256ApplicationCertificateType");
        assertThat(afterRestart.updateCertificate(null, null, p256, renewed.getEncoded(),
                new byte[][] {CA.certificate().getEncoded()}, null, null)).isTrue();
        afterRestart.applyChanges(null);

        assertThat(certificates.get(CertificateType.ECC_NIST_P256).certificate()).isEqualTo(renewed);
        assertThat(inUse()).isSameAs(current);
        assertThat(pki.pendingKeyFile(CertificateType.ECC_NIST_P256, NAME)).doesNotExist();
        assertThat(CertificateLoader.loadPem(pki.ownCertsDir().resolve(NAME + ".ecc-nistP256.der"),
                pki.ownPrivateDir().resolve(NAME + ".ecc-nistP256.pem")).certificate()).isEqualTo(renewed);
        assertThat(afterRestart.certificates(null)).extracting(c -> c.typeId())
                .containsExactly(RSA, p256);
        assertStatus(() -> afterRestart.createSigningRequest(null,
                NodeId.ns0(NodeIds.EccNistP384ApplicationCertificateType), null, false, null),
                StatusCodes.BadInvalidArgument, "holds no EccNistP384ApplicationCertificateType");
    }

    private static byte[] encoded(X509Certificate certificate) {
        try {
            return certificate.getEncoded();
        } catch (java.security.cert.CertificateEncodingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void assertStatus(Runnable call, int status, String message) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(UaException.class,
                e -> assertThat(e.statusCode().value()).isEqualTo(status)).hasMessageContaining(message);
    }

    @Test
    void a_new_key_needs_32_bytes_of_nonce_and_another_group_or_type_is_refused() {
        ApplicationCertificateUpdates updates = updates();

        assertStatus(() -> updates.createSigningRequest(null, RSA, null, true, new byte[31]),
                StatusCodes.BadInvalidArgument, "at least 32 bytes");
        assertStatus(() -> updates.createSigningRequest(NodeId.ns0(NodeIds.ServerConfiguration_CertificateGroups_DefaultHttpsGroup),
                RSA, null, false, null), StatusCodes.BadInvalidArgument, "DefaultApplicationGroup");
        assertStatus(() -> updates.createSigningRequest(null, NodeId.ns0(NodeIds.ApplicationCertificateType), null,
                false, null), StatusCodes.BadInvalidArgument, "RsaSha256ApplicationCertificateType");
        assertStatus(() -> updates.createSigningRequest(null, RSA, "not a =distinguished=name", false, null),
                StatusCodes.BadInvalidArgument, "subjectName");
        assertThat(pki.pendingKeyFile(NAME)).doesNotExist();
    }

    @Test
    void a_key_made_for_a_request_is_kept_across_a_restart_and_used_when_its_certificate_arrives() throws Exception {
        byte[] request = updates().createSigningRequest(null, RSA, "CN=renewed updates server, O=test", true,
                new byte[32]);
        assertThat(pki.pendingKeyFile(NAME)).exists();
        X509Certificate renewed = TestSigningCa.sign(CA, request);
        assertThat(renewed.getSubjectX500Principal().getName()).isEqualTo("CN=renewed updates server,O=test");

        ApplicationCertificateUpdates afterRestart = updates();
        assertThat(afterRestart.updateCertificate(null, null, null, renewed.getEncoded(),
                new byte[][] {CA.certificate().getEncoded()}, null, null)).isTrue();
        assertThat(inUse()).as("nothing in use before ApplyChanges").isSameAs(current);
        afterRestart.applyChanges(null);

        assertThat(inUse().certificate()).isEqualTo(renewed);
        assertThat(inUse().issuers()).containsExactly(CA.certificate());
        assertThat(pki.pendingKeyFile(NAME)).doesNotExist();
        assertThat(CertificateLoader.loadPem(pki.ownCertsDir().resolve(NAME + ".der"),
                pki.ownPrivateDir().resolve(NAME + ".pem")).certificate()).isEqualTo(renewed);
    }

    @Test
    void a_certificate_for_another_key_or_application_or_an_unknown_key_format_changes_nothing() throws Exception {
        ApplicationCertificateUpdates updates = updates();
        byte[] ownBefore = Files.readAllBytes(pki.ownCertsDir().resolve(NAME + ".der"));
        ApplicationCertificate otherKey = CertificateBuilder.forApplication(NAME).applicationUri(URI)
                .issuedBy(CA).build();
        ApplicationCertificate otherApplication = CertificateBuilder.forApplication(NAME).applicationUri("urn:other")
                .keyPair(new java.security.KeyPair(current.certificate().getPublicKey(), current.privateKey()))
                .issuedBy(CA).build();
        byte[][] issuers = {CA.certificate().getEncoded()};

        assertStatus(() -> updates.updateCertificate(null, null, RSA, der(otherKey), issuers, null, null),
                StatusCodes.BadSecurityChecksFailed, "matches neither");
        assertStatus(() -> updates.updateCertificate(null, null, RSA, der(otherApplication), issuers, null, null),
                StatusCodes.BadCertificateUriInvalid, "urn:other");
        assertStatus(() -> updates.updateCertificate(null, null, RSA, der(otherKey), issuers, "DER", new byte[] {1}),
                StatusCodes.BadNotSupported, "PEM and PFX");
        assertStatus(() -> updates.updateCertificate(null, null, RSA, new byte[] {1, 2, 3}, issuers, null, null),
                StatusCodes.BadCertificateInvalid, "certificate");
        updates.applyChanges(null);

        assertThat(inUse()).isSameAs(current);
        assertThat(Files.readAllBytes(pki.ownCertsDir().resolve(NAME + ".der"))).isEqualTo(ownBefore);
    }

    @Test
    void a_certificate_with_its_own_pem_key_is_taken() throws Exception {
        ApplicationCertificateUpdates updates = updates();
        ApplicationCertificate next = CertificateBuilder.forApplication(NAME).applicationUri(URI).issuedBy(CA).build();
        Path keyFile = dir.resolve("next.pem");
        CertificateLoader.writePrivateKeyPem(next.privateKey(), keyFile);

        assertThat(updates.updateCertificate(null, null, RSA, der(next), new byte[][] {CA.certificate().getEncoded()},
                "PEM", Files.readAllBytes(keyFile))).isTrue();
        updates.applyChanges(null);

        assertThat(inUse().certificate()).isEqualTo(next.certificate());
    }

    private static byte[] der(ApplicationCertificate certificate) {
        return certificate.der().bytes();
    }
}
