package dev.opcua.stack.server.session;

import dev.opcua.stack.core.security.Certificates;
import java.security.cert.X509Certificate;

/** How messages and logs name a certificate. */
final class CertificateInfo {

    private CertificateInfo() {
    }

    /** Subject and SHA-1 thumbprint, the way errors and logs name a certificate. */
    static String describe(X509Certificate certificate) {
        return "'" + certificate.getSubjectX500Principal().getName() + "' (SHA-1 thumbprint "
                + Certificates.hex(Certificates.thumbprint(certificate)) + ")";
    }
}
