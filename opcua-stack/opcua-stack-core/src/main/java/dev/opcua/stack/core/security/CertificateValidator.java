package dev.opcua.stack.core.security;

import java.security.cert.X509Certificate;
import java.util.List;

/**
 * Decides whether a peer's certificate is trusted (Part 4, 6.1.3): the SPI between secure channels
 * and sessions on one side and trust lists on the other. The PKI directory implementation lives in
 * {@code security.pki}.
 */
@FunctionalInterface
public interface CertificateValidator {

    /**
     * Validates a certificate and the issuer certificates the peer sent with it.
     *
     * @param chain the peer's certificate first, then the issuers it sent (possibly none)
     * @throws dev.opcua.stack.core.UaException with the status of the first check that fails, e.g.
     *         BadCertificateUntrusted, BadCertificateTimeInvalid, BadCertificateRevoked,
     *         BadCertificatePolicyCheckFailed
     */
    void validate(List<X509Certificate> chain);

    /** Trusts every certificate: for tests and benchmarks only, never for a plant. */
    static CertificateValidator acceptAll() {
        return chain -> {
        };
    }
}
