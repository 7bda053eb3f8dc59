package dev.opcua.stack.server.transport.uasc;

import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.ApplicationCertificates;
import dev.opcua.stack.core.security.CertificateType;
import dev.opcua.stack.core.security.CertificateValidator;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import java.util.List;
import java.util.Objects;

/**
 * What the secure channels of a server need to know about security (Part 6, 6.7.4): the policy and
 * mode pairs it accepts in OpenSecureChannel, its application instance certificate and private key,
 * and who decides whether a client certificate is trusted.
 *
 * @param endpoints accepted (policy, mode) pairs; OPN with another policy is refused with
 *        BadSecurityPolicyRejected, with another mode with BadSecurityModeRejected, except None, which is
 *        always accepted for the discovery services
 * @param certificates the server's certificates and keys, one per certificate type its policies need
 *        (RSA, and each ECC curve offered), replaceable while the server runs; none only when every pair is None
 * @param clientValidator validates client certificates of OPN (Part 4, 6.1.3)
 */
public record ServerChannelSecurity(List<EndpointSecurity> endpoints, ApplicationCertificates certificates,
        CertificateValidator clientValidator) {

    /** SecurityPolicy None only, no certificate. */
    public static final ServerChannelSecurity NONE_ONLY =
            new ServerChannelSecurity(List.of(EndpointSecurity.NONE), (ApplicationCertificate) null,
                    CertificateValidator.acceptAll());

    public ServerChannelSecurity {
        endpoints = List.copyOf(endpoints);
        Objects.requireNonNull(certificates, "certificates");
        Objects.requireNonNull(clientValidator, "clientValidator");
        if (endpoints.isEmpty()) {
            throw new IllegalArgumentException("at least one security policy and mode is required");
        }
        CertificateType missing = certificates.missingFor(endpoints.stream().map(EndpointSecurity::policy).toList());
        if (missing != null) {
            throw new IllegalArgumentException("security policies other than None need an application certificate:"
                    + " there is no " + missing + " certificate for " + endpoints.stream()
                            .map(EndpointSecurity::policy).filter(p -> p.certificateType() == missing).distinct()
                            .toList());
        }
    }

    /** With a certificate that is not replaced; null only when every pair is None. */
    public ServerChannelSecurity(List<EndpointSecurity> endpoints, ApplicationCertificate certificate,
            CertificateValidator clientValidator) {
        this(endpoints, ApplicationCertificates.of(certificate), clientValidator);
    }

    /** The primary certificate in use now (the RSA one when there is one); null when every pair is None. */
    public ApplicationCertificate certificate() {
        return certificates.primary();
    }

    /** The certificate a channel being opened with {@code policy} takes now; null for None. */
    public ApplicationCertificate certificate(SecurityPolicy policy) {
        return certificates.forPolicy(policy);
    }

    /** Whether any endpoint uses this policy. */
    public boolean offers(SecurityPolicy policy) {
        return endpoints.stream().anyMatch(e -> e.policy() == policy);
    }

    /** Whether this exact pair is an endpoint. */
    public boolean offers(EndpointSecurity security) {
        return endpoints.contains(security);
    }

    /**
     * Whether an OpenSecureChannel with this policy is accepted: an offered one, or None, which every
     * server accepts for its discovery services (Part 4, 5.4.1: DiscoveryEndpoints shall not require
     * message security); see {@link #discoveryOnly()}.
     */
    public boolean accepts(SecurityPolicy policy) {
        return policy == SecurityPolicy.None || offers(policy);
    }

    /** Whether an OpenSecureChannel with this pair is accepted: an offered pair, or None for discovery. */
    public boolean accepts(EndpointSecurity security) {
        return EndpointSecurity.NONE.equals(security) || offers(security);
    }

    /**
     * Whether channels with SecurityPolicy None may only call the discovery services (GetEndpoints,
     * FindServers): true when no endpoint offers None.
     */
    public boolean discoveryOnly() {
        return !offers(SecurityPolicy.None);
    }
}
