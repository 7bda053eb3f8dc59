package dev.opcua.stack.server.session;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.transport.uasc.ResponseHeaders;
import dev.opcua.stack.core.transport.uasc.ServerSecureChannel;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DiagnosticInfo;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.core.types.structured.ActivateSessionRequest;
import dev.opcua.stack.core.types.structured.ActivateSessionResponse;
import dev.opcua.stack.core.types.structured.AnonymousIdentityToken;
import dev.opcua.stack.core.types.structured.CancelRequest;
import dev.opcua.stack.core.types.structured.CancelResponse;
import dev.opcua.stack.core.types.structured.CloseSessionRequest;
import dev.opcua.stack.core.types.structured.CloseSessionResponse;
import dev.opcua.stack.core.types.structured.CreateSessionRequest;
import dev.opcua.stack.core.types.structured.CreateSessionResponse;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import dev.opcua.stack.core.types.structured.GetEndpointsRequest;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.core.types.structured.SignatureData;
import dev.opcua.stack.core.types.structured.SignedSoftwareCertificate;
import dev.opcua.stack.core.types.structured.UserIdentityToken;
import dev.opcua.stack.core.types.structured.UserNameIdentityToken;
import dev.opcua.stack.core.types.structured.UserTokenPolicy;
import dev.opcua.stack.server.discovery.DiscoveryServices;
import dev.opcua.stack.server.services.ServiceDispatcher;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Session Service Set (Part 4, 5.6): CreateSession (5.6.2), ActivateSession (5.6.3), CloseSession
 * (5.6.4) and Cancel (5.6.5), and {@link #resolve} for the other service sets.
 *
 * <ul>
 *   <li>CreateSession: a SessionId (GUID NodeId in namespace 1) and an AuthenticationToken (an opaque
 *       NodeId of 32 random bytes from {@link SecureRandom}, namespace 0: a secret, not a node), the
 *       revised timeout ({@link SessionSettings#reviseTimeout}), a 32-byte serverNonce, the endpoints of
 *       the request's EndpointUrl as GetEndpoints would return them. With SecurityPolicy None there is
 *       no server certificate, no signature (null algorithm and signature) and no software
 *       certificates. The session is bound to the channel it was created on. With maxSessions open:
 *       ServiceFault BadTooManySessions.</li>
 *   <li>ActivateSession: the token must name an open session (else BadSessionIdInvalid). The first
 *       activation must come on the creating channel (else BadSecureChannelIdInvalid); a later one on
 *       another channel moves the session there only when it proves the same user (same
 *       {@link Identity}), else BadSecureChannelIdInvalid as well. A null identity token means
 *       anonymous (Part 4, 5.6.3). The token must be an AnonymousIdentityToken or a
 *       UserNameIdentityToken whose policyId names a policy of that type among the session's
 *       endpoints of SecurityPolicy None (else BadIdentityTokenInvalid); a password with an
 *       encryptionAlgorithm is refused with BadIdentityTokenInvalid until encrypted passwords are
 *       supported (with None the password is plain UTF-8). A refusal by the {@link IdentityValidator}
 *       is answered with its status and counted; the attempt that reaches
 *       {@code maxFailedAuthenticationAttempts} closes the session.</li>
 *   <li>CloseSession: on the session's channel, activated or not. Its deleteSubscriptions flag is
 *       ignored until subscriptions exist.</li>
 *   <li>Cancel: answers cancelCount 0; queued requests are not dropped yet (the request queue could
 *       drop them by requestHandle).</li>
 *   <li>Timeout: a session without a request for its revised timeout is closed; a sweep on the
 *       {@code opcua-session-timer} thread checks every session, at a period of a tenth of the minimum
 *       timeout, between 10 ms and 1 s. Every request that names the session resets its deadline.</li>
 *   <li>A session outlives its secure channel, so that the client can re-activate it on a new one,
 *       until it times out.</li>
 * </ul>
 *
 * <p>Owns the timer thread: {@link #close()} stops it and forgets every session.
 */
public final class SessionManager implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SessionManager.class);

    /** Bytes of the AuthenticationToken and of every server nonce (Part 4, 5.6.2: at least 32). */
    static final int NONCE_LENGTH = 32;

    private static final SignatureData NO_SIGNATURE = new SignatureData(null, ByteString.NULL);

    private final SessionSettings settings;
    private final IdentityValidator validator;
    private final Function<String, List<EndpointDescription>> endpoints;
    private final long maxRequestMessageSize;
    private final SecureRandom random = new SecureRandom();
    private final Map<NodeId, Session> sessions = new ConcurrentHashMap<>();
    private final AtomicInteger open = new AtomicInteger();
    private final SessionCounters counters = new SessionCounters();
    private final ScheduledExecutorService timer;
    private volatile boolean closed;

    private SessionManager(Builder builder) {
        this.settings = builder.settings;
        this.validator = Objects.requireNonNull(builder.validator, "identityValidator");
        this.endpoints = Objects.requireNonNull(builder.endpoints, "endpoints");
        this.maxRequestMessageSize = builder.maxRequestMessageSize;
        this.timer = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "opcua-session-timer");
            thread.setDaemon(true);
            return thread;
        });
        long period = Math.max(10, Math.min(1_000, settings.minSessionTimeout().toMillis() / 10));
        timer.scheduleWithFixedDelay(this::expireSessions, period, period, TimeUnit.MILLISECONDS);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Registers CreateSession, ActivateSession, CloseSession and Cancel with a dispatcher under construction. */
    public ServiceDispatcher.Builder registerWith(ServiceDispatcher.Builder dispatcher) {
        return dispatcher
                .registerSync(CreateSessionRequest.class, this::createSession)
                .registerSync(ActivateSessionRequest.class, this::activateSession)
                .registerSync(CloseSessionRequest.class, this::closeSession)
                .registerSync(CancelRequest.class, this::cancel);
    }

    /** CreateSession (Part 4, 5.6.2). */
    public CreateSessionResponse createSession(ServerSecureChannel channel, CreateSessionRequest request) {
        RequestHeader header = request.requestHeader();
        if (closed) {
            throw new UaException(StatusCodes.BadServerHalted, "the session manager is closed");
        }
        if (open.incrementAndGet() > settings.maxSessions()) {
            open.decrementAndGet();
            counters.rejected();
            throw new UaException(StatusCodes.BadTooManySessions,
                    "the server has " + settings.maxSessions() + " sessions already");
        }
        Session session;
        try {
            double timeout = settings.reviseTimeout(request.requestedSessionTimeout());
            List<EndpointDescription> sessionEndpoints = List.copyOf(endpoints.apply(request.endpointUrl()));
            NodeId token = NodeId.opaque(0, ByteString.wrap(randomBytes()));
            session = new Session(NodeId.guid(1, UUID.randomUUID()), token, request.sessionName(),
                    request.clientDescription(), request.endpointUrl(), sessionEndpoints, timeout,
                    request.maxResponseMessageSize(), channel.secureChannelId(), ByteString.wrap(randomBytes()),
                    System.nanoTime());
            sessions.put(token, session);
        } catch (RuntimeException e) {
            open.decrementAndGet();
            throw e;
        }
        counters.created();
        log.debug("{}: created {}", channel, session);
        return new CreateSessionResponse(ResponseHeaders.good(header.requestHandle()), session.sessionId(),
                session.authenticationToken(), session.revisedTimeout(), session.serverNonce(), ByteString.NULL,
                session.endpoints().toArray(EndpointDescription[]::new), new SignedSoftwareCertificate[0],
                NO_SIGNATURE, maxRequestMessageSize);
    }

    /** ActivateSession (Part 4, 5.6.3). */
    public ActivateSessionResponse activateSession(ServerSecureChannel channel, ActivateSessionRequest request) {
        RequestHeader header = request.requestHeader();
        Session session = lookup(header.authenticationToken());
        long channelId = channel.secureChannelId();
        boolean otherChannel = session.secureChannelId() != channelId;
        if (otherChannel && !session.isActivated()) {
            throw new UaException(StatusCodes.BadSecureChannelIdInvalid,
                    "the first activation must come on the channel that created the session");
        }
        session.touch(System.nanoTime());
        UserIdentityToken token = identityToken(request.userIdentityToken());
        UserTokenPolicy policy = policyOf(session, token);
        Identity identity;
        try {
            identity = Objects.requireNonNull(validator.validate(token, policy), "identity");
        } catch (UaException e) {
            refused(session, e);
            throw e;
        }
        if (otherChannel && !identity.equals(session.identity())) {
            throw new UaException(StatusCodes.BadSecureChannelIdInvalid,
                    "a session moves to another channel only for the same user");
        }
        ByteString nonce = ByteString.wrap(randomBytes());
        if (!session.activate(identity, channelId, nonce)) {
            throw new UaException(StatusCodes.BadSessionIdInvalid, "the session was closed");
        }
        log.debug("{}: activated {} for {}", channel, session, identity);
        return new ActivateSessionResponse(ResponseHeaders.good(header.requestHandle()), nonce, new StatusCode[0],
                new DiagnosticInfo[0]);
    }

    /** CloseSession (Part 4, 5.6.4). */
    public CloseSessionResponse closeSession(ServerSecureChannel channel, CloseSessionRequest request) {
        RequestHeader header = request.requestHeader();
        Session session = lookup(header.authenticationToken());
        if (session.secureChannelId() != channel.secureChannelId()) {
            throw new UaException(StatusCodes.BadSecureChannelIdInvalid, "the session is bound to another channel");
        }
        if (remove(session)) {
            counters.closed();
            log.debug("{}: closed {}", channel, session);
        }
        return new CloseSessionResponse(ResponseHeaders.good(header.requestHandle()));
    }

    /** Cancel (Part 4, 5.6.5): nothing is cancelled yet, see the class comment. */
    public CancelResponse cancel(ServerSecureChannel channel, CancelRequest request) {
        RequestHeader header = request.requestHeader();
        resolve(channel, header);
        return new CancelResponse(ResponseHeaders.good(header.requestHandle()), 0);
    }

    /**
     * The activated session a request of another service set belongs to, with its deadline reset.
     *
     * @throws UaException BadSessionIdInvalid (no such session, or closed), BadSessionNotActivated
     *         (created but not activated), BadSecureChannelIdInvalid (bound to another channel)
     */
    public Session resolve(ServerSecureChannel channel, RequestHeader header) {
        Session session = lookup(header.authenticationToken());
        if (!session.isActivated()) {
            throw new UaException(StatusCodes.BadSessionNotActivated, "the session is not activated");
        }
        if (session.secureChannelId() != channel.secureChannelId()) {
            throw new UaException(StatusCodes.BadSecureChannelIdInvalid, "the session is bound to another channel");
        }
        session.touch(System.nanoTime());
        return session;
    }

    /** Sessions open now, activated or not. */
    public int currentSessions() {
        return open.get();
    }

    public SessionCounters counters() {
        return counters;
    }

    public SessionSettings settings() {
        return settings;
    }

    /** A snapshot of the open sessions, activated or not, for diagnostics. */
    public List<Session> sessions() {
        return List.copyOf(sessions.values());
    }

    /** Stops the timer and forgets every session; CreateSession is answered BadServerHalted from now on. Idempotent. */
    @Override
    public void close() {
        closed = true;
        timer.shutdownNow();
        for (Session session : sessions.values()) {
            remove(session);
        }
    }

    /** For tests: the name of the timer thread, asked on that thread. */
    String timerThreadName() throws Exception {
        return timer.submit(() -> Thread.currentThread().getName()).get(5, TimeUnit.SECONDS);
    }

    /** For tests: whether the timer thread has ended. */
    boolean timerTerminated() {
        return timer.isTerminated();
    }

    private Session lookup(NodeId token) {
        Session session = token == null || token.isNull() ? null : sessions.get(token);
        if (session == null || session.isClosed()) {
            throw new UaException(StatusCodes.BadSessionIdInvalid, "no session for this authentication token");
        }
        return session;
    }

    private boolean remove(Session session) {
        if (!session.markClosed()) {
            return false;
        }
        sessions.remove(session.authenticationToken(), session);
        open.decrementAndGet();
        return true;
    }

    private void refused(Session session, UaException e) {
        counters.failedAuthentication();
        int failures = session.failedAuthentication();
        log.debug("{}: identity refused ({} of {}): {}", session, failures,
                settings.maxFailedAuthenticationAttempts(), e.getMessage());
        if (failures >= settings.maxFailedAuthenticationAttempts() && remove(session)) {
            counters.lockedOut();
            log.info("{} closed after {} failed authentications", session, failures);
        }
    }

    /** On the timer thread. */
    private void expireSessions() {
        try {
            long now = System.nanoTime();
            for (Session session : sessions.values()) {
                if (session.expired(now) && remove(session)) {
                    counters.timedOut();
                    log.debug("{} timed out", session);
                }
            }
        } catch (RuntimeException e) { // never let the periodic task die
            log.warn("session sweep failed", e);
        }
    }

    private static UserIdentityToken identityToken(ExtensionObject body) {
        if (body == null || body.isNull()) {
            return new AnonymousIdentityToken(null); // Part 4, 5.6.3: null means anonymous
        }
        Object value = body.isDecoded() ? body.decoded() : null;
        if (value instanceof AnonymousIdentityToken anonymous) {
            return anonymous;
        }
        if (value instanceof UserNameIdentityToken userName) {
            return userName;
        }
        throw new UaException(StatusCodes.BadIdentityTokenInvalid, "unsupported user identity token "
                + (value == null ? body.encodingId() : value.getClass().getSimpleName()));
    }

    /** The endpoint policy the token names; a null anonymous policyId takes the first anonymous policy. */
    private static UserTokenPolicy policyOf(Session session, UserIdentityToken token) {
        UserTokenType type = token instanceof AnonymousIdentityToken ? UserTokenType.Anonymous : UserTokenType.UserName;
        if (token instanceof UserNameIdentityToken userName) {
            String algorithm = userName.encryptionAlgorithm();
            if (algorithm != null && !algorithm.isEmpty()) {
                throw new UaException(StatusCodes.BadIdentityTokenInvalid,
                        "encrypted passwords are not supported yet: " + algorithm);
            }
        }
        String policyId = token.policyId();
        for (EndpointDescription endpoint : session.endpoints()) {
            if (!SecurityPolicy.None.uri().equals(endpoint.securityPolicyUri()) || endpoint.userIdentityTokens() == null) {
                continue;
            }
            for (UserTokenPolicy policy : endpoint.userIdentityTokens()) {
                if (policy.tokenType() == type && (policyId == null && type == UserTokenType.Anonymous
                        || Objects.equals(policyId, policy.policyId()))) {
                    return policy;
                }
            }
        }
        throw new UaException(StatusCodes.BadIdentityTokenInvalid,
                "no " + type + " user token policy '" + policyId + "' at this endpoint");
    }

    private byte[] randomBytes() {
        byte[] bytes = new byte[NONCE_LENGTH];
        random.nextBytes(bytes);
        return bytes;
    }

    /** Configuration of a {@link SessionManager}; the identity validator and the endpoints are required. */
    public static final class Builder {

        private SessionSettings settings = SessionSettings.DEFAULT;
        private IdentityValidator validator;
        private Function<String, List<EndpointDescription>> endpoints;
        private long maxRequestMessageSize;

        private Builder() {
        }

        public Builder settings(SessionSettings value) {
            settings = Objects.requireNonNull(value, "settings");
            return this;
        }

        public Builder identityValidator(IdentityValidator value) {
            validator = Objects.requireNonNull(value, "identityValidator");
            return this;
        }

        /**
         * The endpoints returned by CreateSession for the request's EndpointUrl, whose UserTokenPolicies
         * ActivateSession accepts.
         */
        public Builder endpoints(Function<String, List<EndpointDescription>> value) {
            endpoints = Objects.requireNonNull(value, "endpoints");
            return this;
        }

        /**
         * The endpoints as the server's GetEndpoints returns them for the EndpointUrl (Part 4, 5.6.2: the
         * client compares the two lists). The supplier is asked at each CreateSession, so that discovery
         * may be configured after the server has bound its port.
         */
        public Builder discoveryEndpoints(Supplier<DiscoveryServices> discovery) {
            Objects.requireNonNull(discovery, "discovery");
            return endpoints(url -> List.of(discovery.get().getEndpoints(new GetEndpointsRequest(
                    new RequestHeader(NodeId.NULL, null, 0, 0, null, 0, ExtensionObject.NULL), url, null, null))
                    .endpoints()));
        }

        /** The MaxRequestMessageSize announced in CreateSession, normally the transport's; default 0 (no limit). */
        public Builder maxRequestMessageSize(long value) {
            if (value < 0 || value > 0xFFFF_FFFFL) {
                throw new IllegalArgumentException("maxRequestMessageSize must be a UInt32, was " + value);
            }
            maxRequestMessageSize = value;
            return this;
        }

        public SessionManager build() {
            return new SessionManager(this);
        }
    }
}
