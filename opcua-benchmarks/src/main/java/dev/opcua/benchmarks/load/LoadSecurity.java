package dev.opcua.benchmarks.load;

import dev.opcua.stack.client.discovery.DiscoveryClient;
import dev.opcua.stack.client.session.SessionOptions;
import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.CertificateValidator;
import dev.opcua.stack.core.security.Certificates;
import dev.opcua.stack.client.transport.uasc.ClientChannelSecurity;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.security.pki.CertificateBuilder;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The security every channel and session of one harness run uses, settled once before the load
 * starts so that only the secure channel and session handshakes are measured: for a secured run a
 * client application instance certificate (Part 4, 6.1.2) created in memory, and the server
 * certificate of the endpoint (Part 4, 7.14) with the requested policy and mode, found with
 * GetEndpoints (Part 4, 5.4.4).
 */
final class LoadSecurity {

    /** The harness's ApplicationUri, in its certificate and in CreateSession alike (Part 4, 5.6.2). */
    static final String APPLICATION_URI = "urn:dev.opcua:bench:load";

    private static final long TIMEOUT_S = 10;
    private static final SessionOptions SESSION = SessionOptions.builder()
            .applicationUri(APPLICATION_URI)
            .applicationName("load harness")
            .sessionName("load")
            .sessionTimeout(Duration.ofMinutes(2))
            .requestTimeout(Duration.ofSeconds(10))
            .build();

    /** SecurityPolicy None, anonymous sessions. */
    static final LoadSecurity NONE = new LoadSecurity(ClientChannelSecurity.NONE);

    private final ClientChannelSecurity channel;

    private LoadSecurity(ClientChannelSecurity channel) {
        this.channel = channel;
    }

    /**
     * {@link #NONE} for {@link EndpointSecurity#NONE}; otherwise creates the client certificate and asks
     * the server at {@code url} for its endpoints.
     *
     * @throws IllegalStateException when the server offers no endpoint with {@code security}, listing what it offers
     */
    static LoadSecurity of(EndpointSecurity security, String url, ClientResources resources) throws Exception {
        if (security.policy() == SecurityPolicy.None) {
            return NONE;
        }
        EndpointDescription[] endpoints = DiscoveryClient.getEndpoints(url, TransportQuotas.DEFAULT, resources)
                .get(TIMEOUT_S, TimeUnit.SECONDS);
        EndpointDescription endpoint = select(endpoints, security, url);
        ByteString der = endpoint.serverCertificate();
        if (der == null || der.isNull() || der.length() == 0) {
            throw new IllegalStateException("the " + security + " endpoint " + endpoint.endpointUrl() + " of " + url
                    + " carries no server certificate");
        }
        List<X509Certificate> serverChain = Certificates.decodeChain(der.unsafeBytes());
        ApplicationCertificate client = CertificateBuilder.forApplication("load harness")
                .type(security.policy().certificateType()) // RSA, or ECC on the policy's curve
                .applicationUri(APPLICATION_URI)
                .build();
        // The harness trusts whatever certificate the server presents: it measures a server it usually
        // started itself (or one named by --url on purpose), and a trust decision is not what is measured.
        return new LoadSecurity(new ClientChannelSecurity(security, client, serverChain,
                CertificateValidator.acceptAll()));
    }

    /** The first endpoint with the policy URI and mode of {@code security}. */
    static EndpointDescription select(EndpointDescription[] endpoints, EndpointSecurity security, String url) {
        List<String> offered = new ArrayList<>();
        for (EndpointDescription endpoint : endpoints) {
            if (security.policy().uri().equals(endpoint.securityPolicyUri())
                    && security.mode() == endpoint.securityMode()) {
                return endpoint;
            }
            String name = SecurityPolicy.nameOf(endpoint.securityPolicyUri()) + "/" + endpoint.securityMode();
            if (!offered.contains(name)) {
                offered.add(name);
            }
        }
        throw new IllegalStateException("the server at " + url + " offers no " + security + " endpoint; it offers "
                + (offered.isEmpty() ? "no endpoints" : String.join(", ", offered))
                + (!offered.isEmpty() && offered.stream().allMatch(o -> o.startsWith("None/"))
                        ? " (a bench server offers more when started with --pki DIR)" : ""));
    }

    /** What each channel is opened with. */
    ClientChannelSecurity channel() {
        return channel;
    }

    /** What each session is created and activated with: the harness's URI, an anonymous user. */
    SessionOptions session() {
        return SESSION;
    }
}
