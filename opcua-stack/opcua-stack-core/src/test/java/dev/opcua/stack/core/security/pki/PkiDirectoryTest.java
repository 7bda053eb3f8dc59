package dev.opcua.stack.core.security.pki;

import static dev.opcua.stack.core.security.pki.PkiCertificateValidatorTest.assertStatus;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.ApplicationCertificate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.X509Certificate;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The PKI directory: layout, own certificate, trust material picked up without a restart, rejected/. */
class PkiDirectoryTest {

    private static ApplicationCertificate root;
    private static ApplicationCertificate peer;
    private static ApplicationCertificate leafOfRoot;

    @TempDir
    Path dir;

    @BeforeAll
    static void certificates() {
        root = CertificateBuilder.forApplication("Directory Root CA").ca(true).keyPair(TestKeys.rsa("root")).build();
        peer = CertificateBuilder.forApplication("Peer: Line/1*").applicationUri("urn:peer")
                .keyPair(TestKeys.rsa("leaf-a")).build();
        leafOfRoot = CertificateBuilder.forApplication("Leaf Of Directory Root").applicationUri("urn:leaf")
                .issuedBy(root).keyPair(TestKeys.rsa("leaf-a")).build();
    }

    @Test
    void creates_the_layout_when_absent() {
        PkiDirectory pki = new PkiDirectory(dir.resolve("pki"));

        for (String sub : List.of("own/certs", "own/private", "trusted/certs", "trusted/crl", "issuers/certs",
                "issuers/crl", "rejected")) {
            assertThat(dir.resolve("pki").resolve(sub)).isDirectory();
        }
        assertThat(pki.trustList().trustedCertificates()).isEmpty();
    }

    @Test
    void application_certificate_is_created_once_and_reloaded_afterwards() throws Exception {
        PkiDirectory pki = new PkiDirectory(dir);

        ApplicationCertificate created = pki.loadOrCreateApplicationCertificate("urn:acme:line1", "Acme Line 1",
                List.of("line1.acme.local", "10.0.0.5"), 1024, Duration.ofDays(30));
        ApplicationCertificate loaded = new PkiDirectory(dir).loadOrCreateApplicationCertificate("urn:acme:line1",
                "Acme Line 1", List.of("line1.acme.local", "10.0.0.5"), 1024, Duration.ofDays(30));

        assertThat(loaded.certificate()).isEqualTo(created.certificate());
        assertThat(loaded.privateKey().getEncoded()).isEqualTo(created.privateKey().getEncoded());
        X509Certificate c = created.certificate();
        assertThat(((RSAPublicKey) c.getPublicKey()).getModulus().bitLength()).isEqualTo(1024);
        assertThat(PkiCertificateValidator.applicationUriOf(c)).isEqualTo("urn:acme:line1");
        assertThatCode(() -> PkiCertificateValidator.checkHostName(c, "10.0.0.5")).doesNotThrowAnyException();
        assertThat(c.getNotAfter().toInstant()).isBefore(Instant.now().plus(Duration.ofDays(31)));
        Path key = dir.resolve("own/private/Acme Line 1.pem");
        assertThat(dir.resolve("own/certs/Acme Line 1.der")).isRegularFile();
        assertThat(key).isRegularFile();
        if (Files.getFileStore(key).supportsFileAttributeView(PosixFileAttributeView.class)) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(key))).isEqualTo("rw-------");
        }
    }

    @Test
    void own_certificate_whose_key_does_not_match_is_refused() {
        PkiDirectory pki = new PkiDirectory(dir);
        CertificateLoader.save(peer, dir.resolve("own/certs/App.der"), dir.resolve("own/private/App.pem"));
        CertificateLoader.writePrivateKeyPem(root.privateKey(), dir.resolve("own/private/App.pem"));

        assertThatThrownBy(() -> pki.loadOrCreateApplicationCertificate("urn:peer", "App", List.of(), 2048,
                Duration.ofDays(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("does not match").hasMessageContaining("App.der");
    }

    @Test
    void own_certificate_without_key_is_refused() throws Exception {
        PkiDirectory pki = new PkiDirectory(dir);
        Files.write(dir.resolve("own/certs/App.der"), peer.certificate().getEncoded());

        assertThatThrownBy(() -> pki.loadOrCreateApplicationCertificate("urn:peer", "App", List.of(), 2048,
                Duration.ofDays(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has no private key").hasMessageContaining("App.pem is missing");
    }

    @Test
    void untrusted_certificate_is_copied_to_rejected_and_trusted_once_moved_to_trusted_certs() throws Exception {
        PkiDirectory pki = new PkiDirectory(dir, Duration.ZERO, 100);
        PkiCertificateValidator validator = new PkiCertificateValidator(pki, ValidationOptions.defaults());
        X509Certificate c = peer.certificate();

        assertStatus(() -> validator.validate(List.of(c)), StatusCodes.BadCertificateUntrusted);

        Path rejected = dir.resolve("rejected/Peer_ Line_1_ [" + X509Names.thumbprintHex(c) + "].der");
        assertThat(rejected).isRegularFile();
        assertThat(Files.readAllBytes(rejected)).isEqualTo(c.getEncoded());
        assertStatus(() -> validator.validate(List.of(c)), StatusCodes.BadCertificateUntrusted);
        assertThat(list(dir.resolve("rejected"))).hasSize(1);

        Files.move(rejected, dir.resolve("trusted/certs").resolve(rejected.getFileName()));

        assertThatCode(() -> validator.validate(List.of(c))).doesNotThrowAnyException();
    }

    @Test
    void changes_wait_for_the_reload_interval() throws Exception {
        PkiDirectory pki = new PkiDirectory(dir, Duration.ofHours(1), 100);
        PkiCertificateValidator validator = new PkiCertificateValidator(pki, ValidationOptions.defaults());
        Files.write(dir.resolve("trusted/certs/peer.der"), peer.certificate().getEncoded());

        assertStatus(() -> validator.validate(List.of(peer.certificate())), StatusCodes.BadCertificateUntrusted);
        assertThat(pki.reload().trustedCertificates()).containsExactly(peer.certificate());
        assertThatCode(() -> validator.validate(List.of(peer.certificate()))).doesNotThrowAnyException();
    }

    @Test
    void crl_written_into_trusted_crl_revokes_without_a_restart() throws Exception {
        PkiDirectory pki = new PkiDirectory(dir, Duration.ZERO, 100);
        PkiCertificateValidator validator = new PkiCertificateValidator(pki, ValidationOptions.defaults());
        CertificateLoader.writeCertificatesPem(List.of(root.certificate()), dir.resolve("trusted/certs/root.pem"));
        Files.write(dir.resolve("trusted/crl/root.crl"), CrlBuilder.issuedBy(root).build().getEncoded());
        X509Certificate leaf = leafOfRoot.certificate();

        assertThatCode(() -> validator.validate(List.of(leaf))).doesNotThrowAnyException();

        Files.write(dir.resolve("trusted/crl/root.crl"), CrlBuilder.issuedBy(root).revoke(leaf)
                .thisUpdate(Instant.now().plusSeconds(1)).build().getEncoded());
        Files.setLastModifiedTime(dir.resolve("trusted/crl/root.crl"), FileTime.from(Instant.now().plusSeconds(5)));

        assertStatus(() -> validator.validate(List.of(leaf)), StatusCodes.BadCertificateRevoked);
    }

    @Test
    void trust_material_of_all_kinds_is_read_and_unreadable_files_are_skipped() throws Exception {
        new PkiDirectory(dir); // creates the layout
        Files.write(dir.resolve("trusted/certs/root.cer"), root.certificate().getEncoded());
        CertificateLoader.writeCertificatesPem(List.of(peer.certificate()), dir.resolve("trusted/certs/peer.crt"));
        Files.writeString(dir.resolve("trusted/certs/broken.der"), "not a certificate");
        Files.writeString(dir.resolve("trusted/certs/readme.txt"), "ignored: not a certificate extension");
        Files.write(dir.resolve("issuers/certs/leaf.der"), leafOfRoot.certificate().getEncoded());
        Files.write(dir.resolve("trusted/crl/root.crl"), CrlBuilder.issuedBy(root).build().getEncoded());
        Files.write(dir.resolve("issuers/crl/root.crl"), CrlBuilder.issuedBy(root).build().getEncoded());

        TrustList trust = new PkiDirectory(dir).trustList();

        assertThat(trust.trustedCertificates()).containsExactlyInAnyOrder(root.certificate(), peer.certificate());
        assertThat(trust.issuerCertificates()).containsExactly(leafOfRoot.certificate());
        assertThat(trust.trustedCrls()).hasSize(1);
        assertThat(trust.issuerCrls()).hasSize(1);
    }

    @Test
    void reject_is_idempotent_and_keeps_the_newest_files() throws Exception {
        PkiDirectory pki = new PkiDirectory(dir, Duration.ZERO, 3);
        Instant t = Instant.parse("2024-01-01T00:00:00Z");
        Path first = null;
        for (int i = 0; i < 5; i++) {
            X509Certificate c = CertificateBuilder.forApplication("Rejected " + i).keyPair(TestKeys.rsa("leaf-a"))
                    .build().certificate();
            Path file = pki.reject(c);
            assertThat(pki.reject(c)).isEqualTo(file);
            Files.setLastModifiedTime(file, FileTime.from(t.plusSeconds(i)));
            first = first == null ? file : first;
        }

        assertThat(list(dir.resolve("rejected"))).hasSize(3)
                .allSatisfy(name -> assertThat(name).matches("Rejected [234] \\[[0-9a-f]{40}\\]\\.der"));
        assertThat(first).doesNotExist();
    }

    private static List<String> list(Path d) throws Exception {
        try (Stream<Path> s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    // ---- writes of push certificate management (Part 12, 7.8.2 and 7.10)

    @Test
    void replacing_the_trusted_certificates_writes_the_new_ones_deletes_the_others_and_takes_effect_at_once()
            throws Exception {
        PkiDirectory pki = new PkiDirectory(dir, Duration.ofHours(1), PkiDirectory.DEFAULT_MAX_REJECTED);
        Files.write(pki.trustedCertsDir().resolve("by-hand.der"), peer.certificate().getEncoded());
        pki.reload();

        pki.replaceCertificates(true, List.of(root.certificate()));

        assertThat(pki.trustList().trustedCertificates()).as("reread without waiting for the interval")
                .containsExactly(root.certificate());
        assertThat(pki.trustedCertsDir().resolve("by-hand.der")).doesNotExist();
        assertThat(new PkiDirectory(dir).trustList().trustedCertificates()).as("kept on disk")
                .containsExactly(root.certificate());
    }

    @Test
    void removing_a_ca_by_thumbprint_removes_its_crls_and_an_unknown_thumbprint_changes_nothing() {
        PkiDirectory pki = new PkiDirectory(dir, Duration.ofHours(1), PkiDirectory.DEFAULT_MAX_REJECTED);
        pki.addCertificate(root.certificate(), true);
        pki.addCertificate(peer.certificate(), true);
        pki.replaceCrls(true, List.of(CrlBuilder.issuedBy(root).build()));
        assertThat(pki.trustList().trustedCrls()).hasSize(1);

        assertThat(pki.removeCertificate("00".repeat(20), true)).isFalse();
        assertThat(pki.trustList().trustedCertificates()).hasSize(2);
        assertThat(pki.removeCertificate(X509Names.thumbprintHex(root.certificate()).toUpperCase(), true)).isTrue();

        assertThat(pki.trustList().trustedCertificates()).containsExactly(peer.certificate());
        assertThat(pki.trustList().trustedCrls()).isEmpty();
    }

    @Test
    void rejected_certificates_are_listed_and_a_saved_application_certificate_is_the_one_loaded_next() {
        PkiDirectory pki = new PkiDirectory(dir);
        pki.reject(peer.certificate());
        assertThat(pki.rejectedCertificates()).containsExactly(peer.certificate());

        pki.saveApplicationCertificate(leafOfRoot, "Leaf Of Directory Root");

        ApplicationCertificate loaded = new PkiDirectory(dir).loadOrCreateApplicationCertificate("urn:leaf",
                "Leaf Of Directory Root", List.of(), 2048, Duration.ofDays(1));
        assertThat(loaded.certificate()).isEqualTo(leafOfRoot.certificate());
        assertThat(loaded.issuers()).containsExactly(root.certificate());
    }
}
