package dev.opcua.stack.server.certificates;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.pki.PkiCertificateValidator;
import dev.opcua.stack.core.security.pki.TrustList;
import dev.opcua.stack.core.security.pki.ValidationOptions;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The validation of certificates an administrator pushes (Part 12, 7.10.5 UpdateCertificate, 7.8.2.5
 * CloseAndUpdate, 7.8.2.6 AddCertificate): the process of Part 4, 6.1.3 against a given trust list, with
 * the suppressible errors of Part 4, Table 100 (trust, validity, usage, revocation unknown) logged as
 * warnings and ignored, as Part 12 requires. Structure, chain, signature and revocation failures refuse.
 */
final class CertificateChecks {

    private static final Logger log = LoggerFactory.getLogger(CertificateChecks.class);

    private static final Set<Integer> SUPPRESSIBLE = Set.of(StatusCodes.BadCertificateUntrusted,
            StatusCodes.BadCertificateTimeInvalid, StatusCodes.BadCertificateIssuerTimeInvalid,
            StatusCodes.BadCertificateUseNotAllowed, StatusCodes.BadCertificateIssuerUseNotAllowed,
            StatusCodes.BadCertificateRevocationUnknown, StatusCodes.BadCertificateIssuerRevocationUnknown);

    private CertificateChecks() {
    }

    /**
     * Validates {@code chain} (the certificate first, then its issuers) against {@code trust}.
     *
     * @throws UaException the status of the first check that is not suppressible
     */
    static void validate(List<X509Certificate> chain, TrustList trust, String what) {
        try {
            new PkiCertificateValidator(trust, ValidationOptions.defaults()).validate(chain);
        } catch (UaException e) {
            if (!SUPPRESSIBLE.contains(e.statusCode().value())) {
                throw new UaException(e.statusCode(), what + " failed validation: " + e.getMessage(), e);
            }
            log.warn("{}: ignoring the suppressible {} (Part 12 asks so): {}", what, e.statusCode(), e.getMessage());
        }
    }
}
