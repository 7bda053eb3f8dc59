package dev.opcua.stack.server.interop;

import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.CertificateType;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.security.pki.CertificateBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;

/**
 * The kind of key of an application instance certificate in the open62541 interop tests: each security policy
 * needs its own (Part 7: the RSA policies an RSA key, each ECC policy a key on its curve; Part 12, 7.8.4).
 */
enum PeerKey {

    RSA_2048(CertificateType.RSA_SHA256),
    NIST_P256(CertificateType.ECC_NIST_P256),
    NIST_P384(CertificateType.ECC_NIST_P384),
    BRAINPOOL_P256R1(CertificateType.ECC_BRAINPOOL_P256R1),
    BRAINPOOL_P384R1(CertificateType.ECC_BRAINPOOL_P384R1);

    private final CertificateType type;

    PeerKey(CertificateType type) {
        this.type = type;
    }

    /** The key of the certificates a policy needs. */
    static PeerKey of(SecurityPolicy policy) {
        for (PeerKey key : values()) {
            if (key.type == policy.certificateType()) {
                return key;
            }
        }
        return RSA_2048;
    }

    /** A self-signed certificate for {@code localhost} with the application URI in its subjectAltName. */
    ApplicationCertificate certificate(String applicationName, String applicationUri) {
        return CertificateBuilder.forApplication(applicationName).type(type).applicationUri(applicationUri)
                .hostNames("localhost").build();
    }

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
