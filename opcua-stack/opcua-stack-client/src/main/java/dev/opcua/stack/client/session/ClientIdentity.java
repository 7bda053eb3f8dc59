package dev.opcua.stack.client.session;

import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.Certificates;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Objects;

/**
 * Who the user of a session is (Part 4, 7.41): the kind of UserIdentityToken ActivateSession sends.
 * The server's endpoint must offer a UserTokenPolicy of the same {@link #tokenType()}.
 */
public sealed interface ClientIdentity {

    /** The UserTokenType a policy must have to accept this identity. */
    UserTokenType tokenType();

    /** No user (AnonymousIdentityToken, Part 4, 7.41.3). */
    static ClientIdentity anonymous() {
        return Anonymous.INSTANCE;
    }

    /** A user name and password (UserNameIdentityToken, Part 4, 7.41.4). */
    static ClientIdentity userName(String userName, String password) {
        return new UserName(userName, password);
    }

    /** A user certificate and its private key (X509IdentityToken, Part 4, 7.41.5). */
    static ClientIdentity x509(X509Certificate certificate, PrivateKey privateKey) {
        return new X509(certificate, privateKey);
    }

    /** A user certificate held as an {@link ApplicationCertificate}; only the leaf certificate is sent. */
    static ClientIdentity x509(ApplicationCertificate certificate) {
        return new X509(certificate.certificate(), certificate.privateKey());
    }

    /** The anonymous user. */
    final class Anonymous implements ClientIdentity {

        private static final Anonymous INSTANCE = new Anonymous();

        private Anonymous() {
        }

        @Override
        public UserTokenType tokenType() {
            return UserTokenType.Anonymous;
        }

        @Override
        public String toString() {
            return "anonymous";
        }
    }

    /**
     * A user name with its password; the password leaves the client encrypted whenever the token
     * policy or the channel has a security policy (Part 4, 7.41.2).
     */
    record UserName(String userName, String password) implements ClientIdentity {

        public UserName {
            Objects.requireNonNull(userName, "userName");
            Objects.requireNonNull(password, "password");
        }

        @Override
        public UserTokenType tokenType() {
            return UserTokenType.UserName;
        }

        /** The password as the token carries it: UTF-8 (Part 4, 7.41.4). */
        byte[] passwordBytes() {
            return password.getBytes(StandardCharsets.UTF_8);
        }

        /** Never shows the password. */
        @Override
        public String toString() {
            return "user name '" + userName + "'";
        }
    }

    /** A user's X.509 certificate and the private key that signs for it. */
    record X509(X509Certificate certificate, PrivateKey privateKey) implements ClientIdentity {

        public X509 {
            Objects.requireNonNull(certificate, "certificate");
            Objects.requireNonNull(privateKey, "privateKey");
        }

        @Override
        public UserTokenType tokenType() {
            return UserTokenType.Certificate;
        }

        /** Never shows the key. */
        @Override
        public String toString() {
            return "user certificate " + certificate.getSubjectX500Principal().getName() + " (thumbprint "
                    + Certificates.hex(Certificates.thumbprint(certificate)) + ")";
        }
    }
}
