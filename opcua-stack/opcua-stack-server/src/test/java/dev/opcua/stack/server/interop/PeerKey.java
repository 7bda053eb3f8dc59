package dev.opcua.stack.server.interop;

import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.pki.CertificateBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;

/**
 * The kind of key of an application instance certificate in the open62541 interop tests: each security policy
 * needs its own (Part 7: the RSA policies an RSA key, each ECC policy a key on its curve). The ECC kinds are
 * added here, with the policies' rows in {@link Open62541Case#sessions()}, once {@link CertificateBuilder} makes
 * EC certificates.
 */
enum PeerKey {

    RSA_2048 {
        @Override
        ApplicationCertificate certificate(String applicationName, String applicationUri) {
            return CertificateBuilder.forApplication(applicationName).applicationUri(applicationUri)
                    .hostNames("localhost").build();
        }
    };

    /** A self-signed certificate for {@code localhost} with the application URI in its subjectAltName. */
    abstract ApplicationCertificate certificate(String applicationName, String applicationUri);

    /** The files the C programs read: the certificate in DER, the private key as unencrypted PKCS#8 DER. */
    record KeyFiles(Path certificate, Path privateKey) {
    }

    /** Writes {@code certificate} and its key into {@code directory} as {@code name.der} and {@code name.key.der}. */
    static KeyFiles write(Path directory, String name, ApplicationCertificate certificate) {
        try {
            Path der = Files.write(directory.resolve(name + ".der"),
                    certificate.certificate().getEncoded());
            Path key = Files.write(directory.resolve(name + ".key.der"),
                    certificate.privateKey().getEncoded());
            return new KeyFiles(der, key);
        } catch (CertificateEncodingException e) {
            throw new IllegalStateException("certificate of " + name + " cannot be encoded", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A trust-list folder holding these certificates (DER), for the programs' {@code --trust-dir}. */
    static Path trustDirectory(Path directory, X509Certificate... trusted) {
        try {
            Files.createDirectories(directory);
            for (int i = 0; i < trusted.length; i++) {
                Files.write(directory.resolve("trusted-" + i + ".der"), trusted[i].getEncoded());
            }
            return directory;
        } catch (CertificateEncodingException e) {
            throw new IllegalStateException("a trusted certificate cannot be encoded", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
