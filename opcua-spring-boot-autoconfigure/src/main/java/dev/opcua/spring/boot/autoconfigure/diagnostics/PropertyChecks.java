package dev.opcua.spring.boot.autoconfigure.diagnostics;

import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.pki.CertificateLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import org.springframework.util.unit.DataSize;

/**
 * The checks every {@code opcua.*} property mapper makes, each failing with an
 * {@link InvalidOpcUaPropertyException} that names the full key, the value, what is wrong and what is
 * allowed. One instance per prefix ({@code opcua.server}, {@code opcua.client.connections.plant}).
 */
public final class PropertyChecks {

    /** Makes the exception of one mapper (server or client) for a key. */
    @FunctionalInterface
    public interface Failure {
        InvalidOpcUaPropertyException create(String key, Object value, String reason, String allowed, Throwable cause);
    }

    public static final String POSITIVE_DURATION = "a positive duration, such as 500ms, 30s, 10m or 1h";
    public static final String POSITIVE_SIZE = "a positive size, such as 65535B, 512KB or 2MB";

    private final String prefix;
    private final Failure failure;

    public PropertyChecks(String prefix, Failure failure) {
        this.prefix = Objects.requireNonNull(prefix, "prefix");
        this.failure = Objects.requireNonNull(failure, "failure");
    }

    /** The full key of a property under this prefix. */
    public String key(String suffix) {
        return prefix + "." + suffix;
    }

    /** The exception for the property {@code suffix}. */
    public InvalidOpcUaPropertyException invalid(String suffix, Object value, String reason, String allowed) {
        return invalid(suffix, value, reason, allowed, null);
    }

    /** The exception for the property {@code suffix}, caused by {@code cause}. */
    public InvalidOpcUaPropertyException invalid(String suffix, Object value, String reason, String allowed,
            Throwable cause) {
        return failure.create(key(suffix), value, reason, allowed, cause);
    }

    /**
     * The exception for an error that names no property (the stack's rule on several values, or on the
     * configuration as a whole): it has no key, and its reason is the error's own text.
     */
    public InvalidOpcUaPropertyException refused(RuntimeException error, String allowed) {
        String text = error.getMessage() == null ? error.toString() : error.getMessage();
        return failure.create(null, null, "the stack refuses this configuration: " + text, allowed, error);
    }

    public String requireText(String suffix, String value, String allowed) {
        if (value == null || value.isBlank()) {
            throw invalid(suffix, value, value == null ? "it is not set" : "it is empty", allowed);
        }
        return value;
    }

    public int positive(String suffix, int value) {
        if (value < 1) {
            throw invalid(suffix, value, "it must be positive", "a count of 1 or more");
        }
        return value;
    }

    public int nonNegative(String suffix, int value, String allowed) {
        if (value < 0) {
            throw invalid(suffix, value, "it must not be negative", allowed);
        }
        return value;
    }

    public Duration positiveDuration(String suffix, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw invalid(suffix, value, "it must be positive", POSITIVE_DURATION);
        }
        return value;
    }

    /** A size in bytes that fits an int. */
    public int bytes(String suffix, DataSize size) {
        if (size == null || size.isNegative() || size.toBytes() == 0 || size.toBytes() > Integer.MAX_VALUE) {
            throw invalid(suffix, size, size == null || size.toBytes() <= 0 ? "it must be positive" : "larger than 2GB - 1",
                    POSITIVE_SIZE + ", below 2GB");
        }
        return (int) size.toBytes();
    }

    public Path existingFile(String suffix, Path file) {
        if (!Files.isRegularFile(file)) {
            throw invalid(suffix, file, "the file " + file.toAbsolutePath() + " does not exist",
                    "the path of a readable file");
        }
        return file;
    }

    /**
     * The certificate and private key of the group {@code group} ({@code security.certificate}):
     * {@code pem-certificate} with {@code pem-private-key} (and {@code pem-private-key-password}), or
     * {@code keystore} with {@code keystore-password} and {@code alias}; null when neither is set.
     */
    public ApplicationCertificate certificate(String group, Path pemCertificate, Path pemPrivateKey,
            String pemPrivateKeyPassword, Path keystore, String keystorePassword, String alias) {
        boolean pem = pemCertificate != null || pemPrivateKey != null;
        if (pem && keystore != null) {
            throw invalid(group + ".keystore", keystore, "pem-certificate is set too, and only one certificate is used",
                    "either keystore (with keystore-password and alias) or pem-certificate with pem-private-key");
        }
        if (pem) {
            if (pemCertificate == null) {
                throw invalid(group + ".pem-certificate", null, "pem-private-key is set but not its certificate",
                        "the PEM or DER file of the certificate");
            }
            if (pemPrivateKey == null) {
                throw invalid(group + ".pem-private-key", null, "pem-certificate is set but not its private key",
                        "the PEM file of the private key");
            }
            Path certificateFile = existingFile(group + ".pem-certificate", pemCertificate);
            Path keyFile = existingFile(group + ".pem-private-key", pemPrivateKey);
            char[] password = pemPrivateKeyPassword == null ? null : pemPrivateKeyPassword.toCharArray();
            try {
                return CertificateLoader.loadPem(certificateFile, keyFile, password);
            } catch (IllegalArgumentException e) {
                throw invalid(group + ".pem-certificate", pemCertificate, e.getMessage(),
                        "a certificate file and the file of its private key (PEM PKCS#8 or PKCS#1)", e);
            }
        }
        if (keystore != null) {
            Path file = existingFile(group + ".keystore", keystore);
            char[] password = keystorePassword == null ? null : keystorePassword.toCharArray();
            try {
                return CertificateLoader.loadKeyStore(file, password, alias, null);
            } catch (IllegalArgumentException e) {
                throw invalid(group + ".keystore", keystore, e.getMessage(), "a PKCS#12 or JKS key store with"
                        + " keystore-password and, when it holds several keys, alias", e);
            }
        }
        return null;
    }
}
