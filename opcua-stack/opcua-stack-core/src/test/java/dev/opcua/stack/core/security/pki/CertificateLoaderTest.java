package dev.opcua.stack.core.security.pki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import dev.opcua.stack.core.security.crypto.BouncyCastle;

import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.CertificateType;
import java.io.OutputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509CRL;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8EncryptorBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Loading application certificates from PEM files and key stores, and writing them back. */
class CertificateLoaderTest {

    private static final char[] PASSWORD = "s3cret".toCharArray();

    private static ApplicationCertificate ca;
    private static ApplicationCertificate app;
    private static ApplicationCertificate other;

    @TempDir
    Path dir;

    @BeforeAll
    static void certificates() {
        ca = CertificateBuilder.forApplication("Loader CA").ca(true).keyPair(TestKeys.rsa("root")).build();
        app = CertificateBuilder.forApplication("Loader App").applicationUri("urn:loader").issuedBy(ca)
                .keyPair(TestKeys.rsa("leaf-a")).build();
        other = CertificateBuilder.forApplication("Other App").keyPair(TestKeys.rsa("root")).build();
    }

    @Test
    void pem_certificate_with_issuers_and_pkcs8_key_load() throws Exception {
        Path cert = dir.resolve("app.crt");
        CertificateLoader.writeCertificatesPem(List.of(app.certificate(), ca.certificate()), cert);
        Path key = dir.resolve("app.key");
        CertificateLoader.writePrivateKeyPem(app.privateKey(), key);

        ApplicationCertificate loaded = CertificateLoader.loadPem(cert, key);

        assertThat(text(key)).startsWith("-----BEGIN PRIVATE KEY-----");
        assertThat(loaded.certificate()).isEqualTo(app.certificate());
        assertThat(loaded.issuers()).containsExactly(ca.certificate());
        assertThat(loaded.privateKey().getEncoded()).isEqualTo(app.privateKey().getEncoded());
    }

    @Test
    void pkcs1_key_loads() throws Exception {
        Path key = dir.resolve("app.pem");
        writePem(key, app.privateKey());
        Path cert = dir.resolve("app.der");
        Files.write(cert, app.certificate().getEncoded());

        assertThat(text(key)).startsWith("-----BEGIN RSA PRIVATE KEY-----");
        assertThat(CertificateLoader.loadPem(cert, key).certificate()).isEqualTo(app.certificate());
    }

    @Test
    void encrypted_pkcs8_key_loads_with_its_password_only() throws Exception {
        Path key = dir.resolve("enc.pem");
        writePem(key, new JcaPKCS8Generator(app.privateKey(), new JceOpenSSLPKCS8EncryptorBuilder(
                JcaPKCS8Generator.AES_256_CBC).setProvider(BouncyCastle.provider()).setPassword(PASSWORD).build()));

        assertThat(text(key)).startsWith("-----BEGIN ENCRYPTED PRIVATE KEY-----");
        PrivateKey loaded = CertificateLoader.readPrivateKey(key, PASSWORD);
        assertThat(loaded.getEncoded()).isEqualTo(app.privateKey().getEncoded());
        assertThatThrownBy(() -> CertificateLoader.readPrivateKey(key, "wrong".toCharArray()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("wrong password").hasMessageContaining(key.toString());
        assertThatThrownBy(() -> CertificateLoader.readPrivateKey(key, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is encrypted; a password is required").hasMessageContaining(key.toString());
    }

    @Test
    void saved_certificate_and_key_load_back_with_the_chain() {
        Path cert = dir.resolve("own/certs/app.der");
        Path key = dir.resolve("own/private/app.pem");

        CertificateLoader.save(app, cert, key);
        ApplicationCertificate loaded = CertificateLoader.loadPem(cert, key);

        assertThat(loaded.certificate()).isEqualTo(app.certificate());
        assertThat(loaded.issuers()).containsExactly(ca.certificate());
        assertThat(dir.resolve("own/certs").toFile().list()).containsExactly("app.der");
    }

    @Test
    void key_of_another_certificate_is_refused_naming_both_files() {
        Path cert = dir.resolve("app.der");
        Path key = dir.resolve("other.pem");
        CertificateLoader.save(app, cert, dir.resolve("app.pem"));
        CertificateLoader.writePrivateKeyPem(other.privateKey(), key);

        assertThatThrownBy(() -> CertificateLoader.loadPem(cert, key))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("does not match the certificate 'CN=Loader App'")
                .hasMessageContaining(cert.toString()).hasMessageContaining(key.toString());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = CertificateType.class, names = {"ECC_NIST_P256", "ECC_NIST_P384", "ECC_BRAINPOOL_P256R1",
            "ECC_BRAINPOOL_P384R1"})
    void an_ecc_key_saved_and_loaded_back_matches_its_certificate_and_not_another_of_the_curve(CertificateType type) {
        ApplicationCertificate first = CertificateBuilder.forApplication("Ecc A").type(type).build();
        ApplicationCertificate second = CertificateBuilder.forApplication("Ecc B").type(type).build();
        Path cert = dir.resolve("a.der");
        Path key = dir.resolve("a.pem");
        Path otherKey = dir.resolve("b.pem");
        CertificateLoader.save(first, cert, key);
        CertificateLoader.writePrivateKeyPem(second.privateKey(), otherKey);

        ApplicationCertificate loaded = CertificateLoader.loadPem(cert, key);

        assertThat(loaded.type()).isEqualTo(type);
        assertThat(CertificateLoader.keyMatches(loaded.certificate(), loaded.privateKey())).isTrue();
        assertThat(CertificateLoader.keyMatches(first.certificate(), second.privateKey())).isFalse();
        assertThatThrownBy(() -> CertificateLoader.loadPem(cert, otherKey))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("does not match the certificate 'CN=Ecc A'");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = CertificateType.class, names = {"RSA_SHA256", "ECC_NIST_P256", "ECC_NIST_P384",
            "ECC_BRAINPOOL_P256R1"})
    void a_plain_pkcs8_key_is_read_by_the_jdk_alone_into_the_key_bouncycastle_would_return(CertificateType type)
            throws Exception {
        ApplicationCertificate certificate = CertificateBuilder.forApplication("Plain").type(type).build();
        Path key = dir.resolve("plain.pem");
        CertificateLoader.writePrivateKeyPem(certificate.privateKey(), key);
        byte[] bytes = Files.readAllBytes(key);

        PrivateKey plain = CertificateLoader.plainPkcs8Key(bytes);

        PrivateKey converted = new JcaPEMKeyConverter().getPrivateKey(PrivateKeyInfo.getInstance(
                certificate.privateKey().getEncoded()));
        assertThat(plain).isNotNull().isEqualTo(converted).hasSameClassAs(converted);
        assertThat(CertificateLoader.readPrivateKey(key, null)).isEqualTo(converted);
    }

    @Test
    void other_pem_keys_are_left_to_bouncycastle() throws Exception {
        Path pkcs1 = dir.resolve("pkcs1.pem");
        writePem(pkcs1, app.privateKey());
        Path keyAndCertificate = dir.resolve("both.pem");
        CertificateLoader.writePrivateKeyPem(app.privateKey(), keyAndCertificate);
        Files.writeString(keyAndCertificate, text(keyAndCertificate) + pemOf(app.certificate()));
        String plain = "-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n";

        assertThat(CertificateLoader.plainPkcs8Key(Files.readAllBytes(pkcs1))).isNull();
        assertThat(CertificateLoader.plainPkcs8Key(Files.readAllBytes(keyAndCertificate))).isNull();
        assertThat(CertificateLoader.plainPkcs8Key(plain.getBytes(StandardCharsets.US_ASCII))).isNull();
        assertThat(CertificateLoader.readPrivateKey(keyAndCertificate, null)).isEqualTo(app.privateKey());
        assertThatThrownBy(() -> CertificateLoader.readPrivateKey(plain.getBytes(StandardCharsets.US_ASCII),
                "garbage.pem", null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("garbage.pem");
    }

    @Test
    void an_rsa_key_never_matches_an_ecc_certificate() {
        ApplicationCertificate ecc = CertificateBuilder.forApplication("Ecc").type(CertificateType.ECC_NIST_P256)
                .build();

        assertThat(CertificateLoader.keyMatches(ecc.certificate(), app.privateKey())).isFalse();
        assertThat(CertificateLoader.keyMatches(app.certificate(), ecc.privateKey())).isFalse();
    }

    @Test
    void missing_or_garbage_files_are_named() throws Exception {
        Path missing = dir.resolve("nope.der");
        Path garbage = dir.resolve("garbage.der");
        Files.write(garbage, new byte[] {1, 2, 3});
        Path certificateNotKey = dir.resolve("swapped.pem");
        CertificateLoader.writeCertificatesPem(List.of(app.certificate()), certificateNotKey);

        assertThatThrownBy(() -> CertificateLoader.readCertificates(missing))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(missing + " does not exist");
        assertThatThrownBy(() -> CertificateLoader.readCertificates(garbage))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(garbage.toString());
        assertThatThrownBy(() -> CertificateLoader.readPrivateKey(garbage, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(garbage.toString());
        assertThatThrownBy(() -> CertificateLoader.readPrivateKey(certificateNotKey, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no private key in " + certificateNotKey);
    }

    @Test
    void bytes_read_elsewhere_are_parsed_alike_and_their_source_is_named_in_errors() throws Exception {
        Path pem = dir.resolve("bytes.pem");
        CertificateLoader.writeCertificatesPem(List.of(app.certificate()), pem);
        byte[] garbage = {1, 2, 3};

        assertThat(CertificateLoader.readCertificates(Files.readAllBytes(pem), "classpath:app.pem"))
                .containsExactly(app.certificate());
        assertThatThrownBy(() -> CertificateLoader.readCertificates(garbage, "classpath:app.pem"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("classpath:app.pem");
        assertThatThrownBy(() -> CertificateLoader.readCrls(garbage, "classpath:ca.crl"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("classpath:ca.crl");
        assertThatThrownBy(() -> CertificateLoader.readPrivateKey(Files.readAllBytes(pem), "classpath:app.pem", null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no private key in classpath:app.pem");
    }

    @Test
    void crls_read_from_der_and_pem() throws Exception {
        X509CRL crl = CrlBuilder.issuedBy(ca).revoke(app.certificate()).build();
        Path der = dir.resolve("ca.crl");
        Files.write(der, crl.getEncoded());
        Path pem = dir.resolve("ca.pem");
        writePem(pem, crl);

        assertThat(CertificateLoader.readCrls(der)).containsExactly(crl);
        assertThat(CertificateLoader.readCrls(pem)).containsExactly(crl);
    }

    @Test
    void pkcs12_key_entry_loads_without_alias_when_it_is_the_only_one() throws Exception {
        Path store = keyStore("PKCS12", "app.p12", "app", PASSWORD);

        ApplicationCertificate loaded = CertificateLoader.loadKeyStore(store, PASSWORD, null, null);

        assertThat(loaded.certificate()).isEqualTo(app.certificate());
        assertThat(loaded.issuers()).containsExactly(ca.certificate());
        assertThat(CertificateLoader.loadKeyStore(store, PASSWORD, "app", PASSWORD).certificate())
                .isEqualTo(app.certificate());
    }

    @Test
    void pkcs12_with_the_wrong_password_or_an_unknown_alias_is_refused_with_the_aliases_listed() throws Exception {
        Path store = keyStore("PKCS12", "app.p12", "app", PASSWORD);

        assertThatThrownBy(() -> CertificateLoader.loadKeyStore(store, "wrong".toCharArray(), null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("wrong password for key store " + store);
        assertThatThrownBy(() -> CertificateLoader.loadKeyStore(store, PASSWORD, "server", null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("alias 'server' not found in key store " + store)
                .hasMessageContaining("app").hasMessageContaining("ca");
        assertThatThrownBy(() -> CertificateLoader.loadKeyStore(store, PASSWORD, "ca", null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("alias 'ca' in key store " + store + " is a certificate entry");
    }

    @Test
    void key_password_defaults_to_the_store_password_and_a_wrong_one_is_named() throws Exception {
        Path store = keyStore("PKCS12", "app.p12", "app", "keypass".toCharArray());

        assertThat(CertificateLoader.loadKeyStore(store, PASSWORD, "app", "keypass".toCharArray()).certificate())
                .isEqualTo(app.certificate());
        assertThatThrownBy(() -> CertificateLoader.loadKeyStore(store, PASSWORD, "app", null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("wrong key password for alias 'app' in key store " + store);
    }

    @Test
    void store_without_or_with_several_key_entries_needs_its_alias() throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        ks.setCertificateEntry("ca", ca.certificate());
        Path none = store(ks, "none.p12");
        ks.setKeyEntry("app", app.privateKey(), PASSWORD, new Certificate[] {app.certificate(), ca.certificate()});
        ks.setKeyEntry("other", other.privateKey(), PASSWORD, new Certificate[] {other.certificate()});
        Path two = store(ks, "two.p12");

        assertThatThrownBy(() -> CertificateLoader.loadKeyStore(none, PASSWORD, null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("key store " + none + " holds no private key entry");
        assertThatThrownBy(() -> CertificateLoader.loadKeyStore(two, PASSWORD, null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("several private key entries").hasMessageContaining("name the alias");
        assertThat(CertificateLoader.loadKeyStore(two, PASSWORD, "other", null).certificate())
                .isEqualTo(other.certificate());
    }

    @Test
    void jks_store_loads_and_a_wrong_password_is_named() throws Exception {
        Path store = keyStore("JKS", "app.jks", "app", PASSWORD);

        assertThat(CertificateLoader.loadKeyStore(store, PASSWORD, null, null).certificate())
                .isEqualTo(app.certificate());
        assertThatThrownBy(() -> CertificateLoader.loadKeyStore(store, "wrong".toCharArray(), null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("wrong password for key store " + store);
        Path notAStore = dir.resolve("text.p12");
        Files.writeString(notAStore, "hello");
        assertThatThrownBy(() -> CertificateLoader.loadKeyStore(notAStore, PASSWORD, null, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(notAStore.toString());
    }

    @Test
    void key_store_bytes_are_typed_by_their_content_and_errors_name_the_source() throws Exception {
        byte[] pkcs12 = Files.readAllBytes(keyStore("PKCS12", "bytes.p12", "app", PASSWORD));
        byte[] jks = Files.readAllBytes(keyStore("JKS", "bytes.jks", "app", PASSWORD));

        assertThat(CertificateLoader.loadKeyStore(pkcs12, "classpath:app.p12", PASSWORD, null, null).certificate())
                .isEqualTo(app.certificate());
        assertThat(CertificateLoader.loadKeyStore(jks, "classpath:app.jks", PASSWORD, null, null).certificate())
                .isEqualTo(app.certificate());
        assertThatThrownBy(() -> CertificateLoader.loadKeyStore(jks, "classpath:app.jks", "wrong".toCharArray(),
                null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("wrong password for key store classpath:app.jks");
        assertThatThrownBy(() -> CertificateLoader.loadKeyStore("hello".getBytes(), "classpath:text.p12", PASSWORD,
                null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("classpath:text.p12 is not a PKCS#12 or JKS key store: it starts with neither a DER "
                        + "sequence nor the JKS magic number");
        assertThatThrownBy(() -> CertificateLoader.loadKeyStore(new byte[] {0x30, 0x03, 0x02, 0x01}, "cut.p12",
                PASSWORD, null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("cannot read key store cut.p12");
        assertThatThrownBy(() -> CertificateLoader.loadKeyStore(dir.resolve("missing.p12"), PASSWORD, null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("does not exist");
    }

    /** Fuzzing found it: the JDK's JCEKS parser threw NegativeArraySizeException on a claimed length. */
    @Test
    void jceks_and_malformed_stores_are_refused_with_the_documented_error() throws Exception {
        byte[] jks = Files.readAllBytes(keyStore("JKS", "magic.jks", "app", PASSWORD));
        byte[] jceks = jks.clone();
        jceks[0] = jceks[1] = jceks[2] = jceks[3] = (byte) 0xCE;
        assertThatThrownBy(() -> CertificateLoader.loadKeyStore(jceks, "app.jceks", PASSWORD, null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("app.jceks is not a PKCS#12 or JKS key store");

        byte[] negativeLength = jks.clone();
        // the first entry's alias length (after magic, version, count and tag) set to 0xFFFF: readUTF fails
        negativeLength[16] = negativeLength[17] = (byte) 0xFF;
        assertThatThrownBy(() -> CertificateLoader.loadKeyStore(negativeLength, "cut.jks", PASSWORD, null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("cannot read key store cut.jks");
    }

    private Path keyStore(String type, String name, String alias, char[] keyPassword) throws Exception {
        KeyStore ks = KeyStore.getInstance(type);
        ks.load(null, null);
        ks.setKeyEntry(alias, app.privateKey(), keyPassword, new Certificate[] {app.certificate(), ca.certificate()});
        ks.setCertificateEntry("ca", ca.certificate());
        return store(ks, name);
    }

    private Path store(KeyStore ks, String name) throws Exception {
        Path file = dir.resolve(name);
        try (OutputStream out = Files.newOutputStream(file)) {
            ks.store(out, PASSWORD);
        }
        return file;
    }

    private static void writePem(Path file, Object o) throws Exception {
        StringWriter text = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(text)) {
            w.writeObject(o);
        }
        Files.writeString(file, text.toString(), StandardCharsets.US_ASCII);
    }

    private static String pemOf(Object o) throws Exception {
        StringWriter text = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(text)) {
            w.writeObject(o);
        }
        return text.toString();
    }

    private static String text(Path file) throws Exception {
        return Files.readString(file, StandardCharsets.US_ASCII);
    }
}
