package dev.opcua.stack.server.session;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.Certificates;
import dev.opcua.stack.core.types.structured.UserIdentityToken;
import dev.opcua.stack.core.types.structured.UserTokenPolicy;
import dev.opcua.stack.core.types.structured.X509IdentityToken;
import java.security.cert.X509Certificate;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Users identified by an X.509 certificate (Part 4, 7.41.5), as {@link Identity#certificate(X509Certificate)}.
 * By the time it is asked, the {@link SessionManager} has checked the certificate with the server's user
 * certificate validator (the trust list of users) and the user's signature; this validator only decides
 * which of those users may log in. Other tokens are refused with BadIdentityTokenRejected, so that it
 * composes with {@link IdentityValidator#anyOf}.
 */
public final class X509IdentityValidator implements IdentityValidator {

    private final Predicate<X509Certificate> allowed;

    /** @param allowed whether the holder of a trusted user certificate may log in; if not: BadUserAccessDenied */
    public X509IdentityValidator(Predicate<X509Certificate> allowed) {
        this.allowed = Objects.requireNonNull(allowed, "allowed");
    }

    /** Every user whose certificate the user certificate validator trusts. */
    public static X509IdentityValidator anyTrusted() {
        return new X509IdentityValidator(certificate -> true);
    }

    @Override
    public Identity validate(UserIdentityToken token, UserTokenPolicy policy) {
        if (!(token instanceof X509IdentityToken x509)) {
            throw new UaException(StatusCodes.BadIdentityTokenRejected,
                    "token " + token.getClass().getSimpleName() + " is not accepted");
        }
        byte[] der = x509.certificateData() == null ? null : x509.certificateData().unsafeBytes();
        X509Certificate certificate = Certificates.decode(der);
        if (!allowed.test(certificate)) {
            throw new UaException(StatusCodes.BadUserAccessDenied, "user certificate "
                    + CertificateInfo.describe(certificate) + " is not allowed to log in");
        }
        return Identity.certificate(certificate);
    }
}
