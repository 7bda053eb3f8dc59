package dev.opcua.stack.server.session;

import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.server.audit.AuditContext;
import dev.opcua.stack.server.transport.uasc.ServerSecureChannel;
import dev.opcua.stack.core.security.Certificates;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.structured.ApplicationDescription;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * A session (Part 4, 5.6): created on one secure channel, usable once activated, bound to the channel
 * of its last activation, and closed by CloseSession, by its timeout, or by too many failed
 * activations. What the other service sets see of a session after
 * {@link SessionManager#resolve SessionManager.resolve}.
 *
 * <p>Thread-safe: the state changes under the session's monitor; the last activity is a volatile
 * timestamp written by every request that touches the session.
 */
public final class Session {

    enum State { CREATED, ACTIVATED, CLOSED }

    private final NodeId sessionId;
    private final NodeId authenticationToken;
    private final String sessionName;
    private final ApplicationDescription clientDescription;
    private final String endpointUrl;
    private final List<EndpointDescription> endpoints;
    private final long timeoutNanos;
    private final double revisedTimeoutMillis;
    private final long maxResponseMessageSize;
    private final X509Certificate clientCertificate;
    private final ByteString clientThumbprint;
    private final EndpointSecurity security;
    private final Instant createdAt;
    private final long createdNanos;

    private volatile long lastActivityNanos;
    private volatile long secureChannelId;
    private volatile State state = State.CREATED;
    private volatile Identity identity;
    /** The user's roles as a {@link dev.opcua.stack.server.roles.WellKnownRole} mask, set with the identity. */
    private volatile long roles;
    private ByteString serverNonce;
    private int failedAuthentications;
    /** Taken over from a partner's state and not yet proven by its client on this server. */
    private volatile boolean takeoverPending;
    /** State other service sets keep per session, by its type; dropped with the session. */
    private final ConcurrentHashMap<Class<?>, Object> attachments = new ConcurrentHashMap<>(4);

    Session(NodeId sessionId, NodeId authenticationToken, String sessionName, ApplicationDescription clientDescription,
            String endpointUrl, List<EndpointDescription> endpoints, double revisedTimeoutMillis,
            long maxResponseMessageSize, long secureChannelId, ByteString serverNonce, long nowNanos,
            X509Certificate clientCertificate, ByteString clientThumbprint, EndpointSecurity security) {
        this.sessionId = sessionId;
        this.authenticationToken = authenticationToken;
        this.sessionName = sessionName;
        this.clientDescription = clientDescription;
        this.endpointUrl = endpointUrl;
        this.endpoints = endpoints;
        this.revisedTimeoutMillis = revisedTimeoutMillis;
        this.timeoutNanos = (long) (revisedTimeoutMillis * 1_000_000d);
        this.maxResponseMessageSize = maxResponseMessageSize;
        this.secureChannelId = secureChannelId;
        this.serverNonce = serverNonce;
        this.lastActivityNanos = nowNanos;
        this.clientCertificate = clientCertificate;
        this.clientThumbprint = clientThumbprint;
        this.security = security;
        this.createdAt = Instant.now();
        this.createdNanos = nowNanos;
    }

    /**
     * A session of a partner server, from its {@link SessionSnapshot}: activated for the snapshot's user and
     * bound to no channel, so that the client's ActivateSession on a new channel passes the checks of a session
     * moving to another channel (Part 4, 5.6.3).
     */
    static Session restored(SessionSnapshot snapshot, NodeId authenticationToken, List<EndpointDescription> endpoints,
            long nowNanos) {
        X509Certificate certificate = snapshot.clientCertificate();
        Session session = new Session(snapshot.sessionId(), authenticationToken, snapshot.sessionName(),
                snapshot.clientDescription(), snapshot.endpointUrl(), endpoints, snapshot.revisedTimeout(),
                snapshot.maxResponseMessageSize(), 0, snapshot.serverNonce(), nowNanos, certificate,
                certificate == null ? null : ByteString.wrap(Certificates.thumbprint(certificate)),
                snapshot.security());
        session.activate(snapshot.identity(), snapshot.roles(), 0, snapshot.serverNonce());
        session.takeoverPending = true;
        return session;
    }

    /** What a partner server needs to go on with this session; null before its first activation. */
    public synchronized SessionSnapshot snapshot() {
        if (state != State.ACTIVATED) {
            return null;
        }
        return new SessionSnapshot(sessionId, sessionName, clientDescription, endpointUrl, revisedTimeoutMillis,
                maxResponseMessageSize, clientCertificate, security, identity, roles, serverNonce);
    }

    /**
     * SHA-256 of this session's AuthenticationToken in its text form (Part 6, 5.3.1.10): what a shared session
     * store keys a session by, so that the token itself, a secret, is never stored.
     */
    public byte[] authenticationTokenHash() {
        return tokenHash(authenticationToken);
    }

    /** SHA-256 of {@code token}'s text form, see {@link #authenticationTokenHash()}. */
    public static byte[] tokenHash(NodeId token) {
        try {
            return java.security.MessageDigest.getInstance("SHA-256").digest(token.toString()
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /** Whether this session was taken over from a partner and its client has not activated it here yet. */
    public boolean takeoverPending() {
        return takeoverPending;
    }

    void takeoverDone() {
        takeoverPending = false;
    }

    /** The security policy and mode of the secure channel the session was created on. */
    public EndpointSecurity security() {
        return security;
    }

    /** When the session was created (wall clock). */
    public Instant createdAt() {
        return createdAt;
    }

    /** When the session's last request arrived (wall clock, derived from the monotonic clock of its timeout). */
    public Instant lastRequestAt() {
        return createdAt.plusNanos(lastActivityNanos - createdNanos);
    }

    /** The public id of the session (Part 4, 5.6.2 sessionId), a GUID NodeId in namespace 1. */
    public NodeId sessionId() {
        return sessionId;
    }

    /** The secret that requests carry in their RequestHeader; never logged or shown to other clients. */
    NodeId authenticationToken() {
        return authenticationToken;
    }

    public String sessionName() {
        return sessionName;
    }

    public ApplicationDescription clientDescription() {
        return clientDescription;
    }

    /** The EndpointUrl the client gave in CreateSession. */
    public String endpointUrl() {
        return endpointUrl;
    }

    /** The revised session timeout in milliseconds. */
    public double revisedTimeout() {
        return revisedTimeoutMillis;
    }

    /** The client's MaxResponseMessageSize (0 = no limit), for the services that build large responses. */
    public long maxResponseMessageSize() {
        return maxResponseMessageSize;
    }

    /**
     * The client's application instance certificate, as CreateSession carried it on a secure channel;
     * null when the session was created with SecurityPolicy None.
     */
    public X509Certificate clientCertificate() {
        return clientCertificate;
    }

    /** SHA-1 thumbprint of {@link #clientCertificate()}; null with SecurityPolicy None. */
    ByteString clientThumbprint() {
        return clientThumbprint;
    }

    /** The SecureChannelId the session is bound to now. */
    public long secureChannelId() {
        return secureChannelId;
    }

    /**
     * Who acts in a request of this session, for its audit records (Part 5, 6.4.3): the user of the last
     * activation, the request's auditEntryId, the client's address and ApplicationUri, the session.
     */
    public AuditContext auditContext(ServerSecureChannel channel, RequestHeader header) {
        Identity user = identity;
        return AuditContext.of(channel, header, user == null ? AuditContext.ANONYMOUS : user.auditUserId(),
                clientDescription == null ? null : clientDescription.applicationUri(), sessionId);
    }

    /** The user of the last successful activation; null before the first. */
    public Identity identity() {
        return identity;
    }

    /**
     * The roles of the user of the last activation as a mask of
     * {@link dev.opcua.stack.server.roles.WellKnownRole} bits (Part 3, 4.9); 0 before the first.
     */
    public long roles() {
        return roles;
    }

    public boolean isActivated() {
        return state == State.ACTIVATED;
    }

    public boolean isClosed() {
        return state == State.CLOSED;
    }

    /**
     * The state a service set keeps for this session, such as its continuation points (Part 4, 7.9:
     * they live until released or the session closes): created by {@code create} on first use, one per
     * type, and gone with the session.
     */
    public <T> T attachment(Class<T> type, Supplier<? extends T> create) {
        return type.cast(attachments.computeIfAbsent(type, t -> create.get()));
    }

    List<EndpointDescription> endpoints() {
        return endpoints;
    }

    State state() {
        return state;
    }

    void touch(long nowNanos) {
        lastActivityNanos = nowNanos;
    }

    boolean expired(long nowNanos) {
        return nowNanos - lastActivityNanos > timeoutNanos;
    }

    /** The last server nonce sent to the client: CreateSession's, then each successful ActivateSession's. */
    synchronized ByteString serverNonce() {
        return serverNonce;
    }

    /**
     * Activates (again) for {@code user} with its role mask on channel {@code channelId} with a fresh
     * nonce; false once closed.
     */
    synchronized boolean activate(Identity user, long userRoles, long channelId, ByteString nonce) {
        if (state == State.CLOSED) {
            return false;
        }
        roles = userRoles;
        identity = user;
        secureChannelId = channelId;
        serverNonce = nonce;
        failedAuthentications = 0;
        state = State.ACTIVATED;
        return true;
    }

    /** Counts a refused activation; returns the count so far. */
    synchronized int failedAuthentication() {
        return ++failedAuthentications;
    }

    /** Marks the session closed; true for the caller that closed it. */
    synchronized boolean markClosed() {
        if (state == State.CLOSED) {
            return false;
        }
        state = State.CLOSED;
        return true;
    }

    @Override
    public String toString() {
        return "Session[" + sessionId + ", '" + sessionName + "', " + state + ", channel " + secureChannelId + "]";
    }
}
