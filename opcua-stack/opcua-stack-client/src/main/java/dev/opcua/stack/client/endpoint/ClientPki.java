package dev.opcua.stack.client.endpoint;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.CertificateType;
import dev.opcua.stack.core.security.SecurityPolicy;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
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
    private final String applicationUri;
    private final String applicationName;
    /** The ECC certificates, one per curve, loaded or created the first time a policy of that curve is used. */
    private final Map<CertificateType, ApplicationCertificate> eccCertificates =
            new ConcurrentHashMap<>();

    private ClientPki(PkiDirectory directory, ApplicationCertificate certificate, CertificateValidator validator,
            String applicationUri, String applicationName) {
        this.directory = directory;
        this.certificate = certificate;
        this.validator = validator;
        this.applicationUri = applicationUri;
        this.applicationName = applicationName;
        if (certificate != null && certificate.type().isEcc()) {
            eccCertificates.put(certificate.type(), certificate);
        }
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
        return new ClientPki(directory, own, validator, applicationUri, applicationName);
    }

    /** The client's certificate and key; null when it has neither a PKI directory nor one given. */
    public ApplicationCertificate certificate() {
        return certificate;
    }

    /**
     * The client's certificate for a channel with {@code policy} (Part 12, 7.8.4: one per certificate type):
     * the RSA one for the RSA policies; for an ECC policy the one of its curve, given or loaded from (created
     * in) the PKI directory the first time it is needed; null for None or when there is none.
     */
    public ApplicationCertificate certificate(SecurityPolicy policy) {
        CertificateType type = policy.certificateType();
        if (type == null) {
            return null;
        }
        ApplicationCertificate current = certificate;
        if (current != null && current.type() == type) {
            return current;
        }
        if (!type.isEcc()) {
            return null;
        }
        if (directory == null) {
            return eccCertificates.get(type);
        }
        return eccCertificates.computeIfAbsent(type, t -> directory.loadOrCreateApplicationCertificate(t,
                applicationUri, applicationName, List.of(localHostName()), KEY_SIZE, VALIDITY));
    }

    /** Whether the client has, or can create, a certificate for a channel with {@code policy}. */
    public boolean canUse(SecurityPolicy policy) {
        CertificateType type = policy.certificateType();
        if (type == null) {
            return true;
        }
        ApplicationCertificate current = certificate;
        return (current != null && current.type() == type) || (type.isEcc() && directory != null)
                || eccCertificates.containsKey(type);
    }

    /** Puts another client certificate in use for the connections made from now on (a renewed one). */
    public void replaceCertificate(ApplicationCertificate next) {
        Objects.requireNonNull(next, "next");
        if (next.type().isEcc()) {
            eccCertificates.put(next.type(), next);
        }
        if (certificate == null || certificate.type() == next.type()) {
            this.certificate = next;
        }
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
