package dev.opcua.spring.boot.actuate.endpoint;

import dev.opcua.spring.boot.actuate.endpoint.OpcUaServerEndpointSection.ServerPart;
import dev.opcua.spring.boot.client.OpcUaClientSnapshot;
import dev.opcua.spring.boot.client.listener.OpcUaListenerInfo;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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
 *
 * <p>The server's part comes from an {@link OpcUaServerEndpointSection}, the clients' from an
 * {@link OpcUaClientsEndpointSection}: this class names no type of {@code opcua-stack-server} or
 * {@code opcua-stack-client}, so that it serves an application that has only one of them on its class path.
 */
@Endpoint(id = "opcua")
public class OpcUaEndpoint {

    /** The first path segment of the NodeSet2 export, {@code /actuator/opcua/nodeset/{namespace}}. */
    public static final String NODESET = "nodeset";
    /** The content type of the NodeSet2 export. */
    public static final String NODESET_MEDIA_TYPE = "application/xml";

    private final OpcUaServerEndpointSection server;
    private final OpcUaClientsEndpointSection clients;

    /** The endpoint of a server-only application. */
    public OpcUaEndpoint(OpcUaServerEndpointSection server) {
        this(Objects.requireNonNull(server, "server"), null);
    }

    /** The endpoint of a client-only application. */
    public OpcUaEndpoint(OpcUaClientsEndpointSection clients) {
        this(null, Objects.requireNonNull(clients, "clients"));
    }

    /**
     * @param server the application's server, or null
     * @param clients the application's client connections, or null
     */
    public OpcUaEndpoint(OpcUaServerEndpointSection server, OpcUaClientsEndpointSection clients) {
        if (server == null && clients == null) {
            throw new IllegalArgumentException("the opcua endpoint needs a server, clients or both");
        }
        this.server = server;
        this.clients = clients;
    }

    @ReadOperation
    public OpcUaServerDescriptor opcua() {
        Map<String, OpcUaClientSnapshot> connections = clients == null ? null : clients.connections();
        List<OpcUaListenerInfo> listeners = clients == null ? null : clients.listeners();
        ServerPart part = server == null ? ServerPart.NONE : server.read();
        return new OpcUaServerDescriptor(part.server(), part.endpoints(), part.sessions(), part.requests(),
                part.subscriptions(), connections, listeners);
    }

    /**
     * {@code GET /actuator/opcua/nodeset/{namespace}}: the nodes of one namespace of the server as a NodeSet2
     * document (Part 6, Annex F), see {@code OpcUaServer.exportNodeSet}. {@code namespace} is the namespace's
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
        return server.exportNodeSet(namespace);
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
