package dev.opcua.spring.boot.actuate.endpoint;

import dev.opcua.spring.boot.client.OpcUaClientSnapshot;
import dev.opcua.spring.boot.client.OpcUaClients;
import dev.opcua.spring.boot.client.listener.OpcUaListenerInfo;
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
import java.time.Clock;
import java.time.Duration;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

/**
 * The {@code opcua} Actuator endpoint ({@code /actuator/opcua}): what the OPC UA server offers and who
 * uses it now — its endpoints (Part 4, 5.4.4), its sessions with their client, security, user, age and
 * last request (Part 4, 5.6), the request queue and the subscriptions — and the application's own client
 * connections (endpoint, state, security, session, subscriptions, reconnects, notifications, last
 * error). An application may have a server, clients or both; what it lacks is left out (null, which the
 * Actuator's JSON omits). Every value is read when the endpoint is called; nothing is kept.
 * {@code /actuator/opcua/nodeset/{namespace}} exports a namespace of the server as NodeSet2 XML.
 */
@Endpoint(id = "opcua")
public class OpcUaEndpoint {

    /** The first path segment of the NodeSet2 export, {@code /actuator/opcua/nodeset/{namespace}}. */
    public static final String NODESET = "nodeset";
    /** The content type of the NodeSet2 export. */
    public static final String NODESET_MEDIA_TYPE = "application/xml";

    private final OpcUaServer server;
    private final OpcUaClients clients;
    private final Clock clock;
    private volatile Supplier<List<OpcUaListenerInfo>> listeners = List::of;

    /** The endpoint of a server-only application. */
    public OpcUaEndpoint(OpcUaServer server) {
        this(server, Clock.systemUTC());
    }

    /** @param clock what the age of a session is measured with */
    public OpcUaEndpoint(OpcUaServer server, Clock clock) {
        this(Objects.requireNonNull(server, "server"), null, clock);
    }

    /** The endpoint of a client-only application. */
    public OpcUaEndpoint(OpcUaClients clients) {
        this(null, Objects.requireNonNull(clients, "clients"), Clock.systemUTC());
    }

    /**
     * @param server the application's server, or null
     * @param clients the application's client connections, or null
     * @param clock what the age of a session is measured with
     */
    public OpcUaEndpoint(OpcUaServer server, OpcUaClients clients, Clock clock) {
        if (server == null && clients == null) {
            throw new IllegalArgumentException("the opcua endpoint needs a server, clients or both");
        }
        this.server = server;
        this.clients = clients;
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Where the annotated client listeners ({@code @OpcUaSubscription} methods) are listed from. */
    public void setListeners(Supplier<List<OpcUaListenerInfo>> listeners) {
        this.listeners = Objects.requireNonNull(listeners, "listeners");
    }

    @ReadOperation
    public OpcUaServerDescriptor opcua() {
        Map<String, OpcUaClientSnapshot> connections = clients();
        List<OpcUaListenerInfo> listenerInfos = listeners.get();
        List<OpcUaListenerInfo> listed = listenerInfos == null || listenerInfos.isEmpty() ? null : listenerInfos;
        if (server == null) {
            return new OpcUaServerDescriptor(null, null, null, null, null, connections, listed);
        }
        Instant now = clock.instant();
        return new OpcUaServerDescriptor(server(now), endpoints(), sessions(now), requests(), subscriptions(),
                connections, listed);
    }

    /**
     * {@code GET /actuator/opcua/nodeset/{namespace}}: the nodes of one namespace of the server as a NodeSet2
     * document (Part 6, Annex F), see {@link OpcUaServer#exportNodeSet}. {@code namespace} is the namespace's
     * index in the server's NamespaceArray, or its URI when that has no '/' (such as {@code urn:acme:line1}):
     * a URI with slashes is not a path segment that servlet containers and WebFlux pass on alike. Answers
     * null, which the Actuator sends as 404, for another first segment, an unknown namespace, one that no
     * in-memory node manager holds, and in an application without a server.
     *
     * @param resource {@code nodeset}
     */
    @ReadOperation(produces = NODESET_MEDIA_TYPE)
    public byte[] nodeSet(@Selector String resource, @Selector String namespace) {
        if (server == null || !NODESET.equals(resource)) {
            return null;
        }
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

    /** The client connections by name, in the registry's order; null without clients. */
    private Map<String, OpcUaClientSnapshot> clients() {
        if (clients == null || clients.names().isEmpty()) {
            return null;
        }
        Map<String, OpcUaClientSnapshot> result = new LinkedHashMap<>();
        clients.asMap().forEach((name, client) -> result.put(name, OpcUaClientSnapshot.of(client)));
        return result;
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
     * What {@code /actuator/opcua} returns: the server's part (named for it, as before clients were
     * added) and the clients'.
     *
     * @param server null without a server
     * @param endpoints null without a server
     * @param sessions null without a server
     * @param requests null before the server started, or without a server
     * @param subscriptions null before the server started, or without a server
     * @param clients the client connections by name ({@code opcua.client.connections.<name>}); null without
     *        clients
     * @param listeners the annotated client listeners (id, connection, node, created, status, notifications,
     *        errors, problem); null without any
     */
    public record OpcUaServerDescriptor(ServerDescriptor server, List<EndpointDescriptor> endpoints,
            List<SessionDescriptor> sessions, RequestQueueDescriptor requests,
            SubscriptionsDescriptor subscriptions, Map<String, OpcUaClientSnapshot> clients,
            List<OpcUaListenerInfo> listeners) {
    }

    /**
     * The server.
     *
     * @param state RUNNING, NOT_STARTED or STOPPED
     * @param serverState the ServerState clients read in ServerStatus (Part 5, 12.6: Running, Shutdown ...)
     * @param startTime the ServerStatus StartTime
     * @param certificate the application instance certificate; null without one (SecurityPolicy None only)
     */
    public record ServerDescriptor(String applicationUri, String state, String serverState, Instant startTime,
            CertificateDescriptor certificate) {
    }

    /**
     * The server's application instance certificate (Part 4, 6.1).
     *
     * @param subject its subject, as RFC 2253 writes it
     * @param daysLeft whole days until {@code notAfter}, negative once expired
     */
    public record CertificateDescriptor(String subject, Instant notBefore, Instant notAfter, long daysLeft) {
    }

    /**
     * One endpoint offered (Part 4, 7.14).
     *
     * @param securityPolicy the policy's short name ({@code Basic256Sha256}, {@code None})
     * @param securityMode None, Sign or SignAndEncrypt
     */
    public record EndpointDescriptor(String url, String securityPolicy, String securityMode, int securityLevel) {
    }

    /**
     * One open session.
     *
     * @param sessionId the public session id (never the authentication token)
     * @param name the sessionName the client gave
     * @param clientApplicationName the client's ApplicationDescription applicationName
     * @param clientApplicationUri the client's ApplicationDescription applicationUri
     * @param activated whether ActivateSession succeeded
     * @param identityType Anonymous, UserName, Certificate; null until activated
     * @param userName the user name, or the subject of a certificate user; null for anonymous
     * @param age since the session was created
     * @param lastRequestAt when the session's last request arrived
     */
    public record SessionDescriptor(String sessionId, String name, String clientApplicationName,
            String clientApplicationUri, String securityPolicy, String securityMode, boolean activated,
            String identityType, String userName, Instant createdAt, Duration age, Instant lastRequestAt,
            long secureChannelId) {
    }

    /**
     * The request pipeline.
     *
     * @param queued requests waiting for a worker, both lanes
     * @param capacity the ordinary queue's bound (MaxQueuedRequestCount)
     * @param active requests begun and not yet answered
     * @param admitted requests taken since start: into the queue, or to run at once on their I/O thread
     * @param inline of those, the ones that ran on their I/O thread because no request waited
     *        ({@code requests.inline-when-idle})
     * @param rejected requests answered without being run, by reason
     * @param services the requests answered since start, by service (Publish, which is parked and not run,
     *        is not among them)
     */
    public record RequestQueueDescriptor(int queued, int priorityQueued, int capacity, int priorityCapacity,
            int workers, int busyWorkers, long active, long admitted, long inline, Map<String, Long> rejected,
            QueueWaitDescriptor queueWait, Map<String, ServiceDescriptor> services) {
    }

    /**
     * The calls of one service since start.
     *
     * @param count requests answered
     * @param faults of them answered with a ServiceFault
     * @param mean mean time from the start of their run to their answer
     * @param max the longest such time
     */
    public record ServiceDescriptor(long count, long faults, Duration mean, Duration max) {
    }

    /** How long requests waited for a worker: how many were taken, their mean and the longest wait. */
    public record QueueWaitDescriptor(long count, Duration mean, Duration max) {
    }

    /** The subscription layer (Part 4, 5.13). */
    public record SubscriptionsDescriptor(long subscriptions, long monitoredItems, long parkedPublishRequests,
            long notificationsSent, long notificationsDropped, long notificationMessagesSent, long keepAlivesSent,
            long latePublishes) {
    }
}
