package dev.opcua.spring.boot.actuate.endpoint;

import dev.opcua.spring.boot.actuate.endpoint.OpcUaEndpoint.CertificateDescriptor;
import dev.opcua.spring.boot.actuate.endpoint.OpcUaEndpoint.EndpointDescriptor;
import dev.opcua.spring.boot.actuate.endpoint.OpcUaEndpoint.QueueWaitDescriptor;
import dev.opcua.spring.boot.actuate.endpoint.OpcUaEndpoint.RequestQueueDescriptor;
import dev.opcua.spring.boot.actuate.endpoint.OpcUaEndpoint.ServerDescriptor;
import dev.opcua.spring.boot.actuate.endpoint.OpcUaEndpoint.ServiceDescriptor;
import dev.opcua.spring.boot.actuate.endpoint.OpcUaEndpoint.SessionDescriptor;
import dev.opcua.spring.boot.actuate.endpoint.OpcUaEndpoint.SubscriptionsDescriptor;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.structured.ApplicationDescription;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import dev.opcua.stack.core.types.structured.ServerStatusDataType;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.nodeset.NamespaceNotExportableException;
import dev.opcua.stack.server.requests.RejectReason;
import dev.opcua.stack.server.requests.RequestStatistics;
import dev.opcua.stack.server.session.Identity;
import dev.opcua.stack.server.session.Session;
import dev.opcua.stack.server.subscriptions.SubscriptionStatistics;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The server's part of the {@link OpcUaEndpoint opcua endpoint}: the server with its certificate, the
 * endpoints it offers (Part 4, 5.4.4), its sessions (Part 4, 5.6), the request queue and the subscriptions
 * (Part 4, 5.13), read from {@link OpcUaServer#statistics()}; and the NodeSet2 export of a namespace (Part 6,
 * Annex F). It is the only class of the endpoint that names a type of {@code opcua-stack-server}, so that an
 * application without that module (a client only) loads none: the auto-configuration creates it only when the
 * module is on the class path and the application has a server.
 */
public final class OpcUaServerEndpointSection {

    private final OpcUaServer server;
    private final Clock clock;

    public OpcUaServerEndpointSection(OpcUaServer server) {
        this(server, Clock.systemUTC());
    }

    /** @param clock what the age of a session and the certificate's days left are measured with */
    public OpcUaServerEndpointSection(OpcUaServer server, Clock clock) {
        this.server = Objects.requireNonNull(server, "server");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** The server's part of {@code /actuator/opcua}, every value read now. */
    ServerPart read() {
        Instant now = clock.instant();
        return new ServerPart(server(now), endpoints(), sessions(now), requests(), subscriptions());
    }

    /**
     * The nodes of one namespace as a NodeSet2 document, see {@link OpcUaServer#exportNodeSet}.
     *
     * @param namespace the namespace's index in the NamespaceArray, or its URI
     * @return null for an unknown namespace, and for one that no in-memory node manager holds
     */
    byte[] exportNodeSet(String namespace) {
        String uri = namespaceUri(namespace);
        if (uri == null) {
            return null;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            server.exportNodeSet(uri, out);
        } catch (NamespaceNotExportableException e) {
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
        }
        return out.toByteArray();
    }

    /** The namespace a selector names: an index of the NamespaceArray or a URI of it; null for neither. */
    private String namespaceUri(String selector) {
        if (!selector.isEmpty() && selector.chars().allMatch(Character::isDigit)) {
            return selector.length() > 5 ? null : server.namespaces().uri(Integer.parseInt(selector));
        }
        return server.namespaces().indexOf(selector) >= 0 ? selector : null;
    }

    private ServerDescriptor server(Instant now) {
        ServerStatusDataType status = server.serverStatus();
        DateTime startTime = status.startTime();
        return new ServerDescriptor(server.namespaces().uri(1), server.lifecycle().name(), status.state().name(),
                startTime == null || startTime.isNull() ? null : startTime.toInstant(), certificate(now));
    }

    private CertificateDescriptor certificate(Instant now) {
        ApplicationCertificate own = server.applicationCertificate();
        if (own == null) {
            return null;
        }
        X509Certificate certificate = own.certificate();
        Instant notAfter = certificate.getNotAfter().toInstant();
        return new CertificateDescriptor(certificate.getSubjectX500Principal().getName(),
                certificate.getNotBefore().toInstant(), notAfter, Duration.between(now, notAfter).toDays());
    }

    private List<EndpointDescriptor> endpoints() {
        List<EndpointDescriptor> result = new ArrayList<>();
        for (EndpointDescription endpoint : server.endpoints()) {
            result.add(new EndpointDescriptor(endpoint.endpointUrl(), SecurityPolicy.nameOf(endpoint.securityPolicyUri()),
                    String.valueOf(endpoint.securityMode()), Short.toUnsignedInt(endpoint.securityLevel())));
        }
        return result;
    }

    private List<SessionDescriptor> sessions(Instant now) {
        List<SessionDescriptor> result = new ArrayList<>();
        for (Session session : server.statistics().sessions()) {
            ApplicationDescription client = session.clientDescription();
            EndpointSecurity security = session.security();
            Identity identity = session.identity();
            result.add(new SessionDescriptor(String.valueOf(session.sessionId()), session.sessionName(),
                    client == null || client.applicationName() == null ? null : client.applicationName().text(),
                    client == null ? null : client.applicationUri(),
                    security == null ? null : security.policy().name(),
                    security == null ? null : String.valueOf(security.mode()),
                    session.isActivated(),
                    identity == null ? null : String.valueOf(identity.tokenType()),
                    identity == null ? null : identity.userName(),
                    session.createdAt(), Duration.between(session.createdAt(), now),
                    session.lastRequestAt(), session.secureChannelId()));
        }
        result.sort(Comparator.comparing(SessionDescriptor::createdAt));
        return result;
    }

    private RequestQueueDescriptor requests() {
        RequestStatistics statistics = server.statistics().requests();
        if (statistics == null) {
            return null;
        }
        Map<String, Long> rejected = new LinkedHashMap<>();
        for (RejectReason reason : RejectReason.values()) {
            rejected.put(reason.name(), statistics.rejected(reason));
        }
        long waits = statistics.queueWaitCount();
        Duration meanWait = waits == 0 ? Duration.ZERO : Duration.ofNanos(statistics.queueWaitTotalNanos() / waits);
        return new RequestQueueDescriptor(statistics.queued(), statistics.priorityQueued(),
                statistics.queueCapacity(), statistics.priorityQueueCapacity(), statistics.workers(),
                statistics.busyWorkers(), statistics.activeRequests(), statistics.admitted(), statistics.ranInline(),
                rejected,
                new QueueWaitDescriptor(waits, meanWait, Duration.ofNanos(statistics.queueWaitMaxNanos())),
                services(statistics));
    }

    /** The services that ran, by their Part 4 name ({@code Read}, not the request class's {@code ReadRequest}). */
    private static Map<String, ServiceDescriptor> services(RequestStatistics statistics) {
        Map<String, ServiceDescriptor> result = new LinkedHashMap<>();
        statistics.services().forEach((type, counters) -> {
            String name = type.endsWith("Request") ? type.substring(0, type.length() - "Request".length()) : type;
            long count = counters.count();
            result.put(name, new ServiceDescriptor(count, counters.faults(),
                    count == 0 ? Duration.ZERO : Duration.ofNanos(counters.totalNanos() / count),
                    Duration.ofNanos(counters.maxNanos())));
        });
        return result;
    }

    private SubscriptionsDescriptor subscriptions() {
        SubscriptionStatistics statistics = server.statistics().subscriptions();
        if (statistics == null) {
            return null;
        }
        return new SubscriptionsDescriptor(statistics.subscriptions(), statistics.monitoredItems(),
                statistics.parkedPublishRequests(), statistics.notificationsSent(),
                statistics.notificationsDropped(), statistics.notificationMessagesSent(),
                statistics.keepAlivesSent(), statistics.latePublishes());
    }

    /**
     * What the server adds to {@link OpcUaEndpoint.OpcUaServerDescriptor}: every part null in an application
     * without a server ({@link #NONE}).
     */
    record ServerPart(ServerDescriptor server, List<EndpointDescriptor> endpoints, List<SessionDescriptor> sessions,
            RequestQueueDescriptor requests, SubscriptionsDescriptor subscriptions) {

        static final ServerPart NONE = new ServerPart(null, null, null, null, null);
    }
}
