package dev.opcua.stack.client.endpoint;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.CertificateValidator;
import dev.opcua.stack.core.security.pki.PkiCertificateValidator;
import dev.opcua.stack.core.security.pki.PkiDirectory;
import dev.opcua.stack.core.security.pki.ValidationOptions;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client's side of Part 4, 6.1.3: its own application instance certificate, and the decision
 * whether a server's certificate is trusted. With a PKI directory, the server certificate must chain
 * to {@code trusted/} and name the host the client connects to; an untrusted one is copied to
 * {@code rejected/} for an administrator to move. Accepting any certificate is an explicit opt-in,
 * logged as a warning each time a client is built with it.
 */
public final class ClientPki {

    private static final Logger log = LoggerFactory.getLogger(ClientPki.class);
    private static final int KEY_SIZE = 2048;
    private static final Duration VALIDITY = Duration.ofDays(5 * 365);

    private final PkiDirectory directory;
    private volatile ApplicationCertificate certificate;
    private final CertificateValidator validator;

    private ClientPki(PkiDirectory directory, ApplicationCertificate certificate, CertificateValidator validator) {
        this.directory = directory;
        this.certificate = certificate;
        this.validator = validator;
    }

    /**
     * @param pkiDir the PKI directory, or null
     * @param certificate the client certificate given explicitly, or null to load or create it in {@code pkiDir}
     * @param acceptAny whether every server certificate is accepted unchecked
     * @param host the host the client connects to, which the server certificate must name (Part 4, 6.1.3)
     */
    public static ClientPki create(Path pkiDir, ApplicationCertificate certificate, boolean acceptAny,
            String applicationUri, String applicationName, String host) {
        PkiDirectory directory = pkiDir == null ? null : new PkiDirectory(pkiDir);
        ApplicationCertificate own = certificate;
        if (own == null && directory != null) {
            own = directory.loadOrCreateApplicationCertificate(applicationUri, applicationName,
                    List.of(localHostName()), KEY_SIZE, VALIDITY);
        }
        CertificateValidator validator;
        if (acceptAny) {
            log.warn("the OPC UA client of {} accepts ANY server certificate without validation: a server that "
                    + "impersonates it will not be noticed; use this for development only", applicationUri);
            validator = CertificateValidator.acceptAll();
        } else if (directory != null) {
            PkiCertificateValidator pki = new PkiCertificateValidator(directory, ValidationOptions.defaults());
            validator = chain -> {
                pki.validate(chain);
                PkiCertificateValidator.checkHostName(chain.get(0), host);
            };
        } else {
            validator = chain -> {
                throw new UaException(StatusCodes.BadCertificateUntrusted, "the server certificate "
                        + describe(chain.get(0)) + " cannot be validated: the client has no PKI directory (pkiDir) "
                        + "with a trust list, and accepting any certificate is not enabled");
            };
        }
        return new ClientPki(directory, own, validator);
    }

    /** The client's certificate and key; null when it has neither a PKI directory nor one given. */
    public ApplicationCertificate certificate() {
        return certificate;
    }

    /** Puts another client certificate in use for the connections made from now on (a renewed one). */
    public void replaceCertificate(ApplicationCertificate next) {
        this.certificate = Objects.requireNonNull(next, "next");
    }

    /** Validates server certificates. */
    public CertificateValidator validator() {
        return validator;
    }

    /** The PKI directory; null when none is configured. */
    public PkiDirectory directory() {
        return directory;
    }

    private static String describe(X509Certificate certificate) {
        return "'" + certificate.getSubjectX500Principal().getName() + "'";
    }

    /** This machine's host name, for the client certificate and the default application URI. */
    public static String localHostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }
}
