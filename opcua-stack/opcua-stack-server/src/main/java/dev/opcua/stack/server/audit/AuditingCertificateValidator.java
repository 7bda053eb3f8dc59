package dev.opcua.stack.server.audit;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.security.CertificateValidator;
import dev.opcua.stack.core.security.pki.PkiCertificateValidator;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Objects;

/**
 * A certificate validator that reports each certificate its delegate refuses as an AuditCertificate*
 * event (Part 4, 6.5.2; Part 5, 6.4.12), whose type the refusal's status chooses ({@link
 * AuditRecords#certificate}). The delegate (the PKI directory's validator of the core module) knows nothing
 * of auditing; the server wraps it only while auditing is on.
 */
public final class AuditingCertificateValidator implements CertificateValidator {

    private final CertificateValidator delegate;
    private final AuditLog audit;
    private final String system;

    /**
     * @param system the ClientUserId of the records: what was being validated ("System/OpenSecureChannel",
     *        "System/ActivateSession" for X.509 users)
     */
    public AuditingCertificateValidator(CertificateValidator delegate, AuditLog audit, String system) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.audit = Objects.requireNonNull(audit, "audit");
        this.system = Objects.requireNonNull(system, "system");
    }

    /** {@code validator} wrapped when {@code audit} is enabled, else {@code validator} itself. */
    public static CertificateValidator wrap(CertificateValidator validator, AuditLog audit, String system) {
        return audit.enabled() ? new AuditingCertificateValidator(validator, audit, system) : validator;
    }

    @Override
    public void validate(List<X509Certificate> chain) {
        try {
            delegate.validate(chain);
        } catch (UaException e) {
            X509Certificate leaf = chain.isEmpty() ? null : chain.get(0);
            String applicationUri = leaf == null ? null : applicationUri(leaf);
            audit.raise(AuditRecords.certificate(new AuditContext(system, null, null, applicationUri, null, 0), leaf,
                    e.statusCode().value(), e.getMessage()));
            throw e;
        }
    }

    private static String applicationUri(X509Certificate certificate) {
        try {
            return PkiCertificateValidator.applicationUriOf(certificate);
        } catch (RuntimeException e) { // unreadable: the record goes without it
            return null;
        }
    }

    @Override
    public String toString() {
        return "auditing " + delegate;
    }
}
