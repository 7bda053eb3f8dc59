package dev.opcua.stack.server.session;

import dev.opcua.stack.server.audit.AuditContext;
import dev.opcua.stack.core.security.Certificates;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import java.security.cert.X509Certificate;
import java.util.Objects;

/**
 * The user a session acts for, as an {@link IdentityValidator} established it from the user identity
 * token of ActivateSession (Part 4, 5.6.3; Part 4, 7.41 UserIdentityToken). Two identities are equal
 * when they are the same user, which is what re-activating a session on another secure channel asks.
 *
 * @param tokenType how the user proved who they are
 * @param userName the user name; the certificate's subject for certificate users; null for anonymous
 * @param certificateThumbprint lower-case hex SHA-1 thumbprint of a certificate user's certificate, else null
 */
public record Identity(UserTokenType tokenType, String userName, String certificateThumbprint) {

    /** The anonymous user. */
    public static final Identity ANONYMOUS = new Identity(UserTokenType.Anonymous, null, null);

    public Identity {
        Objects.requireNonNull(tokenType, "tokenType");
        if (tokenType == UserTokenType.Certificate) {
            Objects.requireNonNull(certificateThumbprint, "certificateThumbprint");
        }
    }

    /** An identity that is not a certificate user. */
    public Identity(UserTokenType tokenType, String userName) {
        this(tokenType, userName, null);
    }

    /** A user who proved their name with a password. */
    public static Identity user(String userName) {
        return new Identity(UserTokenType.UserName, Objects.requireNonNull(userName, "userName"));
    }

    /** A user who proved possession of an X.509 certificate's key (Part 4, 7.41.5). */
    public static Identity certificate(String subject, String thumbprint) {
        return new Identity(UserTokenType.Certificate, Objects.requireNonNull(subject, "subject"), thumbprint);
    }

    /** {@link #certificate(String, String)} with the certificate's RFC 2253 subject and SHA-1 thumbprint. */
    public static Identity certificate(X509Certificate certificate) {
        return certificate(certificate.getSubjectX500Principal().getName(),
                Certificates.hex(Certificates.thumbprint(certificate)));
    }

    public boolean isAnonymous() {
        return tokenType == UserTokenType.Anonymous;
    }

    /**
     * ClientUserId of audit events (Part 5, 6.4.3): the user name, a certificate user's subject, or
     * {@link AuditContext#ANONYMOUS} for the anonymous user.
     */
    public String auditUserId() {
        return userName != null ? userName : isAnonymous() ? AuditContext.ANONYMOUS : tokenType.name();
    }
}
