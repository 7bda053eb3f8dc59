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
 * content) written to a temporary file. The only acceptable refusal is the documented
 * {@link IllegalArgumentException} naming the file.
 */
class CertificateLoaderFuzzTest {

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

    private static void write(byte[] data) {
        try {
            Files.write(file, data);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @FuzzTest(maxDuration = "5m")
    void readCertificates(byte[] data) {
        write(data);
        try {
            CertificateLoader.readCertificates(file);
        } catch (IllegalArgumentException refused) {
            // documented
        }
        try {
            CertificateLoader.readCrls(file);
        } catch (IllegalArgumentException refused) {
            // documented
        }
    }

    @FuzzTest(maxDuration = "5m")
    void readPrivateKey(byte[] data) {
        write(data);
        try {
            CertificateLoader.readPrivateKey(file, "password".toCharArray());
        } catch (IllegalArgumentException refused) {
            // documented
        }
        try {
            CertificateLoader.readPrivateKey(file, null);
        } catch (IllegalArgumentException refused) {
            // documented
        }
    }
}
