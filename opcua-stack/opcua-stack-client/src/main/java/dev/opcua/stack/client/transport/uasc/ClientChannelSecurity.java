package dev.opcua.stack.client.transport.uasc;

import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.CertificateValidator;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Objects;

/**
 * How a client secures one channel (Part 4, 5.5.2; Part 6, 6.7.4): the policy and mode of the
 * endpoint it chose, its own application instance certificate, the server's certificate from the
 * endpoint description, and who decides whether that certificate is trusted (Part 4, 6.1.3).
 *
 * @param security the endpoint's policy and mode
 * @param certificate the client's certificate and key; null only with SecurityPolicy None
 * @param serverCertificateChain the server's certificate (and issuers) as the endpoint lists it; empty with None
 * @param serverValidator validates the server certificate before the channel is opened
 */
public record ClientChannelSecurity(EndpointSecurity security, ApplicationCertificate certificate,
        List<X509Certificate> serverCertificateChain, CertificateValidator serverValidator) {

    /** SecurityPolicy None. */
    public static final ClientChannelSecurity NONE =
            new ClientChannelSecurity(EndpointSecurity.NONE, null, List.of(), CertificateValidator.acceptAll());

    public ClientChannelSecurity {
        Objects.requireNonNull(security, "security");
        Objects.requireNonNull(serverValidator, "serverValidator");
        serverCertificateChain = List.copyOf(serverCertificateChain);
        if (security.policy() != SecurityPolicy.None && (certificate == null || serverCertificateChain.isEmpty())) {
            throw new IllegalArgumentException(security + " needs the client's certificate and the server's");
        }
    }

    /** The server's certificate; null with SecurityPolicy None. */
    public X509Certificate serverCertificate() {
        return serverCertificateChain.isEmpty() ? null : serverCertificateChain.get(0);
    }
}
