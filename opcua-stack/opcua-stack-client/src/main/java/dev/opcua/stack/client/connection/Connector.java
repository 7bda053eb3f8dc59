package dev.opcua.stack.client.connection;

import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.client.discovery.DiscoveryClient;
import dev.opcua.stack.client.endpoint.ClientPki;
import dev.opcua.stack.client.endpoint.EndpointSelector;
import dev.opcua.stack.client.session.ClientIdentity;
import dev.opcua.stack.client.session.ClientSession;
import dev.opcua.stack.client.session.SessionOptions;
import dev.opcua.stack.client.transport.ReverseConnectListener;
import dev.opcua.stack.client.transport.UaTcpClientChannel;
import dev.opcua.stack.client.transport.uasc.ClientChannelSecurity;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.Certificates;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.transport.EndpointUrl;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens channels and sessions for one client configuration. The endpoint is chosen once from
 * GetEndpoints (Part 4, 5.4.4) and kept for reconnects; {@link #forgetEndpoint()} makes the next
 * channel ask again (after a security failure, a restarted server may have a new certificate).
 * The channel always goes to the configured URL, whatever host the server names in its endpoints,
 * since that is the address the user knows to be reachable.
 */
final class Connector {

    private static final Logger log = LoggerFactory.getLogger(Connector.class);

    private final OpcUaClientConfig config;
    private final ClientPki pki;
    private final SessionOptions sessionOptions;
    private volatile EndpointDescription endpoint;
    private volatile ClientChannelSecurity security;
    /** The server channels go to: the configured URL, or another server of a redundant set after a failover. */
    private volatile String endpointUrl;

    Connector(OpcUaClientConfig config) {
        this.config = config;
        this.endpointUrl = config.endpointUrl();
        this.pki = ClientPki.create(config.pkiDir(), config.certificate(), config.acceptAnyServerCertificate(),
                config.applicationUri(), config.applicationName(), EndpointUrl.parse(config.endpointUrl()).socketHost());
        this.sessionOptions = SessionOptions.builder().applicationUri(config.applicationUri())
                .productUri(config.productUri()).applicationName(config.applicationName())
                .sessionName(config.sessionName()).sessionTimeout(config.sessionTimeout())
                .requestTimeout(config.requestTimeout()).identity(config.identity()).localeIds(config.localeIds())
                .build();
    }

    /**
     * Opens a secure channel to the chosen endpoint, choosing it first when none is chosen yet: over a connection
     * the client dials, or with reverse connect over the server's next connection to the listener.
     */
    CompletableFuture<UaTcpClientChannel> openChannel() {
        ClientChannelSecurity chosen = security;
        CompletableFuture<ClientChannelSecurity> securing = chosen != null ? CompletableFuture.completedFuture(chosen)
                : endpoints().thenApply(this::choose);
        return securing.thenCompose(this::channel);
    }

    private CompletableFuture<UaTcpClientChannel> channel(ClientChannelSecurity channelSecurity) {
        ReverseConnectListener listener = config.reverseConnectListener();
        if (listener == null) {
            return UaTcpClientChannel.connect(endpointUrl, config.quotas(), channelSecurity,
                    config.resources());
        }
        return listener.accept(config.reverseConnectServerUri(), endpointUrl, config.quotas(),
                channelSecurity);
    }

    /** GetEndpoints (Part 4, 5.4.4) over a channel without security of its own, closed afterwards. */
    private CompletableFuture<EndpointDescription[]> endpoints() {
        return DiscoveryClient.getEndpoints(channel(ClientChannelSecurity.NONE), endpointUrl,
                config.quotas());
    }

    /** Creates and activates a new session on {@code channel}. */
    CompletableFuture<ClientSession> createSession(UaTcpClientChannel channel) {
        return ClientSession.open(channel, sessionOptions);
    }

    /**
     * Sends the channels opened from now on to another server (a failover between the servers of a
     * non-transparent redundant set, Part 4, 6.6.2.4): its endpoints are asked for again, since each
     * server of the set has its own certificate and ApplicationUri.
     */
    void retarget(String url) {
        endpointUrl = url;
        forgetEndpoint();
    }

    /** The server the next channel goes to. */
    String endpointUrl() {
        return endpointUrl;
    }

    /** The next {@link #openChannel()} asks the server for its endpoints again. */
    void forgetEndpoint() {
        security = null;
    }

    /** Puts another client certificate in use; the next connect chooses its endpoint again with it. */
    void replaceCertificate(ApplicationCertificate next) {
        pki.replaceCertificate(next);
        forgetEndpoint();
    }

    /** The client certificate the next connect presents; null without one. */
    ApplicationCertificate certificate() {
        return pki.certificate();
    }

    /** Whether an X.509 user can sign for {@code policy}: an ECC policy needs a user key on its curve. */
    private boolean userKeyFits(SecurityPolicy policy) {
        return !(config.identity() instanceof ClientIdentity.X509 user)
                || !policy.isEcc() || policy.certificateType().matches(user.certificate().getPublicKey());
    }

    /** The endpoint in use; null before the first channel. */
    EndpointDescription endpoint() {
        return endpoint;
    }

    private ClientChannelSecurity choose(EndpointDescription[] endpoints) {
        Set<SecurityPolicy> allowed = config.allowedSecurityPolicies();
        ApplicationCertificate own = pki.certificate(); // one read: it may be replaced meanwhile
        if (config.securityPolicy() == null) {
            // chosen among the policies the client holds (or can create) a certificate for; None always
            allowed = allowed.stream().filter(pki::canUse).filter(this::userKeyFits)
                    .collect(Collectors.toUnmodifiableSet());
        }
        EndpointDescription e;
        try {
            e = EndpointSelector.select(endpoints, config.securityPolicy(), config.securityMode(), allowed,
                    config.identity().tokenType());
        } catch (UaException ex) {
            throw new UaException(ex.statusCode(), "cannot connect to " + endpointUrl + ": "
                    + stripStatus(ex) + (allowed.size() == 1 && config.securityPolicy() == null
                            && own == null ? " (only None is possible: the client has no certificate;"
                                    + " configure pkiDir or certificate for secure endpoints)" : ""));
        }
        EndpointSecurity es = EndpointSelector.securityOf(e);
        if (es.policy() != SecurityPolicy.None) {
            own = pki.certificate(es.policy());
        }
        ClientChannelSecurity s;
        if (es.policy() == SecurityPolicy.None) {
            s = new ClientChannelSecurity(es, own, List.of(), pki.validator());
        } else {
            if (own == null) {
                throw new UaException(StatusCodes.BadSecurityPolicyRejected, "endpoint " + EndpointSelector.describe(e)
                        + " needs the client's application certificate of type " + es.policy().certificateType()
                        + ": configure pkiDir (certificates of every type are created there) or a certificate"
                        + " of that type");
            }
            if (e.serverCertificate() == null || e.serverCertificate().isNull() || e.serverCertificate().length() == 0) {
                throw new UaException(StatusCodes.BadCertificateInvalid, "endpoint " + EndpointSelector.describe(e)
                        + " names no server certificate");
            }
            List<X509Certificate> chain = Certificates.decodeChain(e.serverCertificate().unsafeBytes());
            s = new ClientChannelSecurity(es, own, chain, pki.validator());
        }
        log.info("connecting to {} over endpoint {}", endpointUrl, EndpointSelector.describe(e));
        this.endpoint = e;
        this.security = s;
        return s;
    }

    private static String stripStatus(UaException e) {
        String m = e.getMessage();
        String prefix = e.statusCode() + ": ";
        return m.startsWith(prefix) ? m.substring(prefix.length()) : m;
    }
}
