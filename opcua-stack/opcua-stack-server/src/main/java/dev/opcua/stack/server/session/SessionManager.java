package dev.opcua.stack.server.session;

import dev.opcua.stack.server.audit.AuditContext;
import dev.opcua.stack.server.roles.RoleMapper;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.Certificates;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.server.transport.uasc.ResponseHeaders;
import dev.opcua.stack.server.transport.uasc.ServerSecureChannel;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DiagnosticInfo;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.structured.ActivateSessionRequest;
import dev.opcua.stack.core.types.structured.ActivateSessionResponse;
import dev.opcua.stack.core.types.structured.CancelRequest;
import dev.opcua.stack.core.types.structured.CancelResponse;
import dev.opcua.stack.core.types.structured.CloseSessionRequest;
import dev.opcua.stack.core.types.structured.CloseSessionResponse;
import dev.opcua.stack.core.types.structured.CreateSessionRequest;
import dev.opcua.stack.core.types.structured.CreateSessionResponse;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.core.types.structured.ResponseHeader;
import dev.opcua.stack.core.types.structured.SignatureData;
import dev.opcua.stack.core.types.structured.SignedSoftwareCertificate;
import dev.opcua.stack.core.types.structured.UserIdentityToken;
import dev.opcua.stack.core.types.structured.UserTokenPolicy;
import dev.opcua.stack.server.services.AnsweredThen;
import dev.opcua.stack.server.services.ServiceDispatcher;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.Arrays;
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
import java.util.function.LongSupplier;
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
 *       the request's EndpointUrl as GetEndpoints would return them. On a secure channel the
 *       clientNonce must have 32 bytes or more (BadNonceInvalid), the clientCertificate must be the
 *       channel's (BadSecurityChecksFailed; BadCertificateInvalid when it does not parse) and carry the
 *       clientDescription's applicationUri (BadCertificateUriInvalid); the response carries the server
 *       certificate and the serverSignature over clientCertificate and clientNonce. With SecurityPolicy
 *       None there is no signature (null algorithm and signature), the server certificate only when one
 *       is configured (user tokens may be encrypted with it), and no software certificates. The session
 *       is bound to the channel it was created on. With maxSessions open: BadTooManySessions.</li>
 *   <li>ActivateSession: the token must name an open session (else BadSessionIdInvalid). The first
 *       activation must come on the creating channel (else BadSecureChannelIdInvalid); a later one on
 *       another channel moves the session there only when that channel was opened with the same client
 *       certificate and the activation proves the same user (same {@link Identity}), else
 *       BadSecureChannelIdInvalid as well. On a secure channel the clientSignature must sign the server
 *       certificate and the last server nonce with the key of the session's client certificate (else
 *       BadApplicationSignatureInvalid). A null identity token means anonymous (Part 4, 5.6.3). The
 *       token must be an Anonymous, UserName or X509 identity token whose policyId names a policy of
 *       that type of the endpoint matching the channel's security (else BadIdentityTokenInvalid); how the
 *       token is secured is checked by {@link UserTokenProof}, then the {@link IdentityValidator}
 *       decides. The server nonce changes with each successful activation only.</li>
 *   <li>Failed authentications (a refused proof or identity) are counted; with
 *       {@code maxFailedAuthenticationAttempts} reached, a client certificate is locked out for
 *       {@code failedAuthenticationLockout} (its ActivateSession requests get BadUserAccessDenied), and
 *       a session of a None channel is closed. See {@link SessionSettings}.</li>
 *   <li>CloseSession: on the session's channel, activated or not. Its deleteSubscriptions flag goes to
 *       the {@link SessionListener}, which hears of every closed session.</li>
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
    private final Function<String, List<EndpointDescription>> endpoints;
    /** The endpoints the last session was created with, shared by the next ones while they are equal. */
    private volatile List<EndpointDescription> lastEndpoints = List.of();
    private final long maxRequestMessageSize;
    private final ApplicationProof applicationProof;
    private final UserTokenProof userTokenProof;
    private final SessionEphemeralKeys ephemeralKeys;
    private final ClientLockout lockout;
    private final LongSupplier nanoClock;
    private final SecureRandom random = new SecureRandom();
    private final Map<NodeId, Session> sessions = new ConcurrentHashMap<>();
    private final AtomicInteger open = new AtomicInteger();
    private final SessionCounters counters = new SessionCounters();
    private final SessionListener listener;
    private final RoleMapper roleMapper;
    private final SessionTakeover takeover;
    /** The audit records of this service set; null when the server does not audit. */
    private final SessionAudit audit;
    private final ScheduledExecutorService timer;
    private volatile boolean closed;

    SessionManager(SessionManagerBuilder builder) {
        this.settings = builder.settings;
        this.endpoints = Objects.requireNonNull(builder.endpoints, "endpoints");
        this.maxRequestMessageSize = builder.maxRequestMessageSize;
        this.applicationProof = new ApplicationProof(builder.applicationCertificates);
        this.ephemeralKeys = new SessionEphemeralKeys(builder.applicationCertificates);
        this.userTokenProof = new UserTokenProof(applicationProof, builder.userCertificateValidator,
                Objects.requireNonNull(builder.validator, "identityValidator"), ephemeralKeys);
        this.lockout = new ClientLockout(settings.maxFailedAuthenticationAttempts(),
                settings.failedAuthenticationLockout());
        this.nanoClock = builder.nanoClock;
        this.listener = builder.listener;
        this.roleMapper = builder.roleMapper;
        this.takeover = builder.takeover;
        this.audit = builder.audit.enabled() ? new SessionAudit(builder.audit) : null;
        this.timer = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "opcua-session-timer");
            thread.setDaemon(true);
            return thread;
        });
        long period = Math.max(10, Math.min(1_000, settings.minSessionTimeout().toMillis() / 10));
        timer.scheduleWithFixedDelay(this::expireSessions, period, period, TimeUnit.MILLISECONDS);
    }

    public static SessionManagerBuilder builder() {
        return new SessionManagerBuilder();
    }

    /** Registers CreateSession, ActivateSession, CloseSession and Cancel with a dispatcher under construction. */
    public ServiceDispatcher.Builder registerWith(ServiceDispatcher.Builder dispatcher) {
        return dispatcher
                .registerSync(CreateSessionRequest.class, this::createSession)
                .registerSync(ActivateSessionRequest.class, this::activateSession)
                .register(CloseSessionRequest.class, this::closeSessionAnswered)
                .registerSync(CancelRequest.class, this::cancel);
    }

    /** CreateSession (Part 4, 5.6.2), audited (Part 4, 6.5.4) when the server audits. */
    public CreateSessionResponse createSession(ServerSecureChannel channel, CreateSessionRequest request) {
        return audit == null ? create(channel, request) : audit.createSession(channel, request, this::create);
    }

    private CreateSessionResponse create(ServerSecureChannel channel, CreateSessionRequest request) {
        RequestHeader header = request.requestHeader();
        if (closed) {
            throw new UaException(StatusCodes.BadServerHalted, "the session manager is closed");
        }
        SecurityPolicy policy = channel.security().policy();
        X509Certificate clientCertificate = policy == SecurityPolicy.None ? null
                : applicationProof.checkCreateSession(channel, request);
        if (open.incrementAndGet() > settings.maxSessions()) {
            open.decrementAndGet();
            counters.rejected();
            throw new UaException(StatusCodes.BadTooManySessions,
                    "the server has " + settings.maxSessions() + " sessions already");
        }
        Session session;
        SignatureData signature = NO_SIGNATURE;
        // one read: the certificate sent is the one that signs, also when it is being replaced now
        ApplicationCertificate server = applicationProof.serverCertificate(policy);
        try {
            if (clientCertificate != null) {
                signature = applicationProof.serverSignature(server, policy, request.clientCertificate(),
                        request.clientNonce());
            }
            double timeout = settings.reviseTimeout(request.requestedSessionTimeout());
            List<EndpointDescription> sessionEndpoints = shared(endpoints.apply(request.endpointUrl()));
            NodeId token = NodeId.opaque(0, ByteString.wrap(randomBytes()));
            session = new Session(NodeId.guid(1, UUID.randomUUID()), token, request.sessionName(),
                    request.clientDescription(), request.endpointUrl(), sessionEndpoints, timeout,
                    request.maxResponseMessageSize(), channel.secureChannelId(), ByteString.wrap(randomBytes()),
                    nanoClock.getAsLong(), clientCertificate,
                    clientCertificate == null ? null : ByteString.wrap(Certificates.thumbprint(clientCertificate)),
                    channel.security());
            sessions.put(token, session);
        } catch (RuntimeException e) {
            open.decrementAndGet();
            throw e;
        }
        counters.created();
        log.debug("{}: created {}", channel, session);
        return new CreateSessionResponse(responseHeader(header, session), session.sessionId(),
                session.authenticationToken(), session.revisedTimeout(), session.serverNonce(),
                server == null ? ByteString.NULL : server.der(),
                session.endpoints().toArray(EndpointDescription[]::new), new SignedSoftwareCertificate[0],
                signature, maxRequestMessageSize);
    }

    /**
     * The endpoints a session keeps (for ActivateSession's user token policies): the list of the previous
     * CreateSession when this one equals it, so that 10,000 sessions of one endpoint URL hold one list
     * rather than 10,000 copies of a dozen endpoint descriptions (each GetEndpoints answer is built anew).
     */
    private List<EndpointDescription> shared(List<EndpointDescription> fresh) {
        List<EndpointDescription> last = lastEndpoints;
        if (last.equals(fresh)) {
            return last;
        }
        List<EndpointDescription> copy = List.copyOf(fresh);
        lastEndpoints = copy;
        return copy;
    }

    /** ActivateSession (Part 4, 5.6.3), audited (Part 4, 6.5.4) when the server audits. */
    public ActivateSessionResponse activateSession(ServerSecureChannel channel, ActivateSessionRequest request) {
        if (audit == null) {
            return activate(channel, request);
        }
        NodeId token = request.requestHeader().authenticationToken();
        return audit.activateSession(channel, request, token == null ? null : sessions.get(token), this::activate);
    }

    private ActivateSessionResponse activate(ServerSecureChannel channel, ActivateSessionRequest request) {
        Session session = lookupOrTakeOver(request.requestHeader().authenticationToken());
        try {
            return activate(channel, request, session);
        } catch (RuntimeException e) {
            if (session.takeoverPending() && remove(session, true)) {
                // a partner's session whose client did not prove it here (Part 4, 5.6.3) is not kept: it would
                // hold a session slot and a stale nonce; the stored state stays the partner's
                log.info("{} of a partner server not taken over: {}", session, e.getMessage());
            }
            throw e;
        }
    }

    private ActivateSessionResponse activate(ServerSecureChannel channel, ActivateSessionRequest request,
            Session session) {
        RequestHeader header = request.requestHeader();
        long channelId = channel.secureChannelId();
        boolean otherChannel = session.secureChannelId() != channelId;
        if (otherChannel && !session.isActivated()) {
            throw new UaException(StatusCodes.BadSecureChannelIdInvalid,
                    "the first activation must come on the channel that created the session");
        }
        if (otherChannel && !sameClientCertificate(session, channel)) {
            throw new UaException(StatusCodes.BadSecureChannelIdInvalid, "a session moves only to a channel opened"
                    + " with the client certificate it was created with");
        }
        session.touch(nanoClock.getAsLong());
        EndpointSecurity security = channel.security();
        ByteString serverNonce = session.serverNonce();
        if (security.policy() != SecurityPolicy.None) {
            applicationProof.verifyClientSignature(security.policy(), session.clientCertificate(),
                    request.clientSignature(), serverNonce);
        }
        UserIdentityToken token = ActivationTokens.identityToken(request.userIdentityToken());
        UserTokenPolicy policy = ActivationTokens.policyOf(session, security, token);
        SecurityPolicy tokenPolicy = UserTokenProof.tokenPolicy(policy, security.policy());
        userTokenProof.checkFormat(token, policy, tokenPolicy, security);
        checkLockout(session);
        Identity identity;
        try {
            identity = userTokenProof.authenticate(token, policy, tokenPolicy, request.userTokenSignature(),
                    serverNonce, session);
        } catch (UaException e) {
            refused(session, e);
            throw e;
        }
        if (otherChannel && !identity.equals(session.identity())) {
            throw new UaException(StatusCodes.BadSecureChannelIdInvalid,
                    "a session moves to another channel only for the same user");
        }
        ByteString nonce = ByteString.wrap(randomBytes());
        if (!session.activate(identity, roleMapper.mask(identity), channelId, nonce)) {
            throw new UaException(StatusCodes.BadSessionIdInvalid, "the session was closed");
        }
        if (session.clientThumbprint() != null) {
            lockout.succeeded(session.clientThumbprint());
        }
        if (session.takeoverPending()) {
            completeTakeover(session, header.authenticationToken());
        }
        log.debug("{}: activated {} for {}", channel, session, identity);
        return new ActivateSessionResponse(responseHeader(header, session), nonce, new StatusCode[0],
                new DiagnosticInfo[0]);
    }

    /** A Good header, with a new ephemeral key when the request asked for one (Part 6, 6.8.2). */
    private ResponseHeader responseHeader(RequestHeader request, Session session) {
        return ResponseHeaders.good(request.requestHandle(), ephemeralKeys.answer(session, request));
    }

    /** CloseSession (Part 4, 5.6.4), audited (Part 4, 6.5.4) when the server audits. */
    public CloseSessionResponse closeSession(ServerSecureChannel channel, CloseSessionRequest request) {
        AnsweredThen<CloseSessionResponse> answered = closeSessionAnswered(channel, request);
        answered.afterSent();
        return answered.join();
    }

    /**
     * CloseSession as the dispatcher runs it: the request is checked, the response sent, and then the session
     * is closed, its subscriptions released and its outstanding Publish requests answered BadSessionClosed
     * (Part 4, 5.7.4.1 asks for all of it and for no order). A client that reconnects on BadSessionClosed has
     * read its CloseSession response by then; a Publish that arrives before the response is sent is parked and
     * answered with the others.
     */
    private AnsweredThen<CloseSessionResponse> closeSessionAnswered(ServerSecureChannel channel,
            CloseSessionRequest request) {
        RequestHeader header = request.requestHeader();
        Session session = lookup(header.authenticationToken());
        if (session.secureChannelId() != channel.secureChannelId()) {
            throw new UaException(StatusCodes.BadSecureChannelIdInvalid, "the session is bound to another channel");
        }
        return AnsweredThen.of(new CloseSessionResponse(ResponseHeaders.good(header.requestHandle())), () -> {
            if (remove(session, request.deleteSubscriptions())) { // false: closed meanwhile (timeout, another close)
                counters.closed();
                log.debug("{}: closed {}", channel, session);
                if (audit != null) {
                    audit.closed(channel, header, session);
                }
            }
        });
    }

    /**
     * Cancel (Part 4, 5.6.5): nothing is cancelled yet, see the class comment; audited (Part 4, 6.5.4) when
     * the server audits.
     */
    public CancelResponse cancel(ServerSecureChannel channel, CancelRequest request) {
        RequestHeader header = request.requestHeader();
        Session session;
        try {
            session = resolve(channel, header);
        } catch (UaException e) {
            if (audit != null) {
                audit.cancel(channel, AuditContext.of(channel, header, AuditContext.ANONYMOUS, null, null),
                        request.requestHandle(), e.statusCode().value(), e.getMessage());
            }
            throw e;
        }
        if (audit != null) {
            audit.cancel(channel, session.auditContext(channel, header), request.requestHandle(), StatusCodes.Good,
                    null);
        }
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
        session.touch(nanoClock.getAsLong());
        return session;
    }

    /**
     * Drops a session that another server of a HotAndMirrored set took over (its client activated it there): its
     * subscriptions are deleted here and parked Publish requests answered BadSessionClosed; the shared state is
     * the other server's now and is not touched.
     *
     * @return whether this server held the session
     */
    public boolean release(NodeId sessionId) {
        for (Session session : sessions.values()) {
            if (session.sessionId().equals(sessionId) && remove(session, true)) {
                log.info("{} was taken over by a partner server: dropped here", session);
                return true;
            }
        }
        return false;
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
            remove(session, true);
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

    /**
     * The session of the token; one this server does not hold is looked for in the shared state of a
     * HotAndMirrored set and, when found, restored unclaimed, to be claimed once its client proved it.
     */
    private Session lookupOrTakeOver(NodeId token) {
        Session known = token == null || token.isNull() ? null : sessions.get(token);
        if (known != null || closed || token == null || token.isNull()) {
            return lookup(token);
        }
        SessionSnapshot snapshot = takeover.find(token);
        if (snapshot == null) {
            return lookup(token);
        }
        Session restored = Session.restored(snapshot, token, shared(endpoints.apply(snapshot.endpointUrl())),
                nanoClock.getAsLong());
        if (sessions.putIfAbsent(token, restored) != null) {
            return lookup(token);
        }
        open.incrementAndGet();
        log.info("{} is held for a partner server: taking it over", restored);
        return restored;
    }

    /** Claims a session taken over once its client activated it; a lost claim closes it here. */
    private void completeTakeover(Session session, NodeId token) {
        try {
            takeover.takenOver(session, token);
            session.takeoverDone();
            log.info("{} taken over from a partner server", session);
        } catch (RuntimeException e) {
            remove(session, true);
            if (e instanceof UaException ua) {
                throw ua;
            }
            throw new UaException(StatusCodes.BadSessionIdInvalid, "the session cannot be taken over: "
                    + e.getMessage());
        }
    }

    private boolean remove(Session session, boolean deleteSubscriptions) {
        if (!session.markClosed()) {
            return false;
        }
        sessions.remove(session.authenticationToken(), session);
        open.decrementAndGet();
        try {
            listener.sessionClosed(session, deleteSubscriptions);
        } catch (RuntimeException e) { // the session is closed either way
            log.warn("{}: session listener failed", session, e);
        }
        return true;
    }

    /** Refuses an activation while the session's client certificate is locked out. */
    private void checkLockout(Session session) {
        ByteString thumbprint = session.clientThumbprint();
        if (thumbprint == null || !settings.locksOut()) {
            return;
        }
        long remaining = lockout.remainingNanos(thumbprint, nanoClock.getAsLong());
        if (remaining > 0) {
            throw new UaException(StatusCodes.BadUserAccessDenied, "client " + CertificateInfo.describe(
                    session.clientCertificate()) + " is locked out for another "
                    + TimeUnit.NANOSECONDS.toSeconds(remaining + 999_999_999L) + " s after "
                    + settings.maxFailedAuthenticationAttempts() + " failed authentications");
        }
    }

    /**
     * Counts a failed authentication: per client certificate on a secure channel, per session on None
     * (see {@link SessionSettings#maxFailedAuthenticationAttempts()}).
     */
    private void refused(Session session, UaException e) {
        counters.failedAuthentication();
        if (!settings.locksOut()) {
            log.debug("{}: identity refused: {}", session, e.getMessage());
            return;
        }
        ByteString thumbprint = session.clientThumbprint();
        if (thumbprint != null) {
            log.debug("{}: identity refused: {}", session, e.getMessage());
            if (lockout.failed(thumbprint, nanoClock.getAsLong())) {
                counters.lockedOut();
                log.warn("client {} locked out for {} after {} failed authentications",
                        CertificateInfo.describe(session.clientCertificate()), settings.failedAuthenticationLockout(),
                        settings.maxFailedAuthenticationAttempts());
            }
            return;
        }
        int failures = session.failedAuthentication();
        log.debug("{}: identity refused ({} of {}): {}", session, failures,
                settings.maxFailedAuthenticationAttempts(), e.getMessage());
        if (failures >= settings.maxFailedAuthenticationAttempts() && remove(session, true)) {
            counters.lockedOut();
            log.info("{} closed after {} failed authentications", session, failures);
        }
    }

    /** Whether the channel was opened with the certificate the session was created with (none for None). */
    private static boolean sameClientCertificate(Session session, ServerSecureChannel channel) {
        List<X509Certificate> chain = channel.clientCertificateChain();
        X509Certificate original = session.clientCertificate();
        if (original == null || chain.isEmpty()) {
            return original == null && chain.isEmpty();
        }
        return Arrays.equals(Certificates.encode(original), Certificates.encode(chain.get(0)));
    }

    /** On the timer thread. */
    private void expireSessions() {
        try {
            long now = nanoClock.getAsLong();
            for (Session session : sessions.values()) {
                boolean activated = session.isActivated();
                if (session.expired(now) && remove(session, false)) {
                    counters.timedOut(activated);
                    log.debug("{} timed out", session);
                    if (audit != null) {
                        audit.timedOut(session);
                    }
                }
            }
        } catch (RuntimeException e) { // never let the periodic task die
            log.warn("session sweep failed", e);
        }
    }

    private byte[] randomBytes() {
        byte[] bytes = new byte[NONCE_LENGTH];
        random.nextBytes(bytes);
        return bytes;
    }
}
