package dev.opcua.stack.core.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.opcua.stack.core.security.pki.CertificateLoader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * {@link CertificateLoader} reading certificates, CRLs and private keys from any bytes (DER or PEM, by
 * content), and PKCS#12 or JKS key stores (the type detected from the content) from any bytes written to
 * a temporary file. The only acceptable refusal is the documented {@link IllegalArgumentException}
 * naming the source.
 */
class CertificateLoaderFuzzTest {

    private static final String SOURCE = "fuzz-input";

    private static Path dir;
    private static Path file;

    @BeforeAll
    static void createFile() throws IOException {
        dir = Files.createTempDirectory("cert-fuzz");
        file = dir.resolve("input");
    }

    @AfterAll
    static void deleteFile() throws IOException {
        Files.deleteIfExists(file);
        Files.deleteIfExists(dir);
    }

    @FuzzTest(maxDuration = "5m")
    void readCertificates(byte[] data) {
        try {
            CertificateLoader.readCertificates(data, SOURCE);
        } catch (IllegalArgumentException refused) {
            // documented
        }
        try {
            CertificateLoader.readCrls(data, SOURCE);
        } catch (IllegalArgumentException refused) {
            // documented
        }
    }

    @FuzzTest(maxDuration = "5m")
    void readPrivateKey(byte[] data) {
        try {
            CertificateLoader.readPrivateKey(data, SOURCE, "password".toCharArray());
        } catch (IllegalArgumentException refused) {
            // documented
        }
        try {
            CertificateLoader.readPrivateKey(data, SOURCE, null);
        } catch (IllegalArgumentException refused) {
            // documented
        }
    }

    /** Key stores are read through the JDK's KeyStore, which wants a file to detect the type. */
    @FuzzTest(maxDuration = "5m")
    void loadKeyStore(byte[] data) {
        try {
            Files.write(file, data);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            CertificateLoader.loadKeyStore(file, "password".toCharArray(), null, null);
        } catch (IllegalArgumentException refused) {
            // documented
        }
    }
}
