package dev.opcua.stack.client.connection;

import dev.opcua.stack.client.ClientState;
import dev.opcua.stack.client.ClientStateListener;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.client.services.RequestObserver;
import dev.opcua.stack.client.services.ServiceInvoker;
import dev.opcua.stack.client.session.ClientSession;
import dev.opcua.stack.client.transport.Failures;
import dev.opcua.stack.client.transport.RequestHeaders;
import dev.opcua.stack.client.transport.UaTcpClientChannel;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.UaRequestMessage;
import dev.opcua.stack.core.types.UaResponseMessage;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadResponse;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.RequestHeader;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owns a client's connection: the secure channel and the session on it, the {@link ClientState},
 * the keep-alive, and the reconnect loop. It is the client's {@link ServiceInvoker}: while connected a
 * request goes straight to the session's channel; while reconnecting it waits (bounded in number and
 * by its own timeout) or fails fast, as configured.
 *
 * <p>Reconnect (Part 4, 6.7 "Re-establishing connections"): when the channel closes, the keep-alive
 * fails more often than allowed, or the subscriptions report a silent server or a lost session, the
 * manager waits a {@link Backoff} delay, opens a new channel and first tries to move the existing
 * session onto it (ActivateSession, Part 4, 5.6.3); when the server no longer knows the session it
 * creates a new one. {@link Hooks#onSessionReady} then restores what depends on the session
 * (namespace table, subscriptions: Republish, TransferSubscriptions or re-creation) before the state
 * becomes CONNECTED and the waiting requests go out. A failed attempt schedules the next one, the
 * delay doubling up to the configured maximum, until {@link #disconnect()}.
 *
 * <p>Thread-safe. State changes and the connect/disconnect futures complete on the callback executor;
 * listeners are told of changes one at a time, in order.
 */
public final class ConnectionManager implements ServiceInvoker {

    private static final Logger log = LoggerFactory.getLogger(ConnectionManager.class);
    private static final ReadValueId[] SERVER_STATE = {new ReadValueId(NodeId.ns0(NodeIds.Server_ServerStatus_State),
            AttributeIds.Value, null, QualifiedName.NULL)};

    /** What the client restores when a session is ready, and stops when the connection is lost. */
    public interface Hooks {

        /**
         * A session is active on a new channel and requests may be sent; the state becomes CONNECTED
         * when the returned future completes (a failure is logged, it does not fail the connect).
         *
         * @param newSession whether the session is new (false: the previous one was re-activated)
         * @param firstConnect whether this is the connect the user asked for, not a reconnect
         */
        CompletableFuture<Void> onSessionReady(boolean newSession, boolean firstConnect);

        /** The connection was lost; a reconnect follows. Must not block. */
        void onConnectionLost();
    }

    /** The channel and its active session: what requests go over. */
    private record Active(UaTcpClientChannel channel, ClientSession session) {
    }

    /** Service names per request class ({@code ReadRequest} -> {@code Read}), computed once per class. */
    private static final ClassValue<String> SERVICE_NAMES = new ClassValue<>() {
        @Override
        protected String computeValue(Class<?> type) {
            String name = type.getSimpleName();
            return name.endsWith("Request") ? name.substring(0, name.length() - "Request".length()) : name;
        }
    };

    /** Failed attempts logged at WARN/INFO before only every hundredth is. */
    private static final int QUIET_AFTER_ATTEMPTS = 5;

    private final OpcUaClientConfig config;
    private final RequestObserver observer;
    private final Connector connector;
    private final Timer timer;
    private final Executor executor;
    private final SerialExecutor notifications;
    private final List<ClientStateListener> listeners = new CopyOnWriteArrayList<>();
    private final Backoff backoff;
    private final AtomicLong reconnects = new AtomicLong();
    private volatile Hooks hooks;

    private final Object lock = new Object();
    private volatile ClientState state = ClientState.DISCONNECTED;
    private volatile Active active;
    private volatile Throwable lastError;
    private final ArrayDeque<Waiting<?>> waiters = new ArrayDeque<>();
    private ClientSession session;
    private long generation;
    private CompletableFuture<Void> connected;
    private Timeout reconnectTimeout;
    private Timeout keepAliveTimeout;
    private int keepAliveFailures;

    public ConnectionManager(OpcUaClientConfig config) {
        this.config = config;
        this.observer = config.requestObserver();
        this.connector = new Connector(config);
        this.timer = config.resources().timer();
        this.executor = config.resources().executor();
        this.notifications = new SerialExecutor(executor);
        this.backoff = new Backoff(config.reconnectInitialDelay(), config.reconnectMaxDelay());
    }

    /** Set once by the client before the first connect. */
    public void hooks(Hooks hooks) {
        this.hooks = hooks;
    }

    public ClientState state() {
        return state;
    }

    public void addStateListener(ClientStateListener listener) {
        listeners.add(listener);
    }

    public void removeStateListener(ClientStateListener listener) {
        listeners.remove(listener);
    }

    /** The endpoint chosen at the first connect; null before. */
    public EndpointDescription endpoint() {
        return connector.endpoint();
    }

    /** The session requests go to now; null while not connected. */
    public ClientSession session() {
        Active a = active;
        return a == null ? null : a.session();
    }

    /** The channel requests go over now; null while not connected. */
    public UaTcpClientChannel channel() {
        Active a = active;
        return a == null ? null : a.channel();
    }

    /** Why the client last left CONNECTED or last failed to connect; null when it never did. */
    public Throwable lastError() {
        return lastError;
    }

    /** How many times a lost connection was re-established. */
    public long reconnects() {
        return reconnects.get();
    }

    // ---- connect and disconnect -------------------------------------------------------------------

    /**
     * Connects unless connected: completes once CONNECTED, or fails with why the first attempt failed
     * (the state is then DISCONNECTED again) unless the configuration says to keep trying
     * ({@link OpcUaClientConfig#keepTryingToConnect()}: the state stays CONNECTING and attempts follow
     * with the reconnect delays until one succeeds or {@link #disconnect()}). While reconnecting it
     * completes when the reconnect does.
     */
    public CompletableFuture<Void> connect() {
        long gen;
        CompletableFuture<Void> future;
        synchronized (lock) {
            if (state == ClientState.CONNECTED) {
                return CompletableFuture.completedFuture(null);
            }
            if (state != ClientState.DISCONNECTED) {
                return connected.copy();
            }
            connected = new CompletableFuture<>();
            future = connected;
            gen = ++generation;
            setState(ClientState.CONNECTING, null);
        }
        attempt(gen, true);
        return future.copy();
    }

    /**
     * Disconnects: requests waiting fail with BadNotConnected, the reconnect loop stops, the session is
     * closed (CloseSession deletes its subscriptions, Part 4, 5.6.4) and then the channel. Completes when
     * the channel is closed; idempotent.
     */
    public CompletableFuture<Void> disconnect() {
        Active a;
        List<Waiting<?>> dropped;
        CompletableFuture<Void> pendingConnect;
        synchronized (lock) {
            if (state == ClientState.DISCONNECTED) {
                return CompletableFuture.completedFuture(null);
            }
            generation++;
            a = active;
            active = null;
            session = null;
            cancel(reconnectTimeout);
            cancel(keepAliveTimeout);
            dropped = drainWaiters();
            pendingConnect = connected;
            setState(ClientState.DISCONNECTED, null);
        }
        UaException notConnected = new UaException(StatusCodes.BadNotConnected, "the client was disconnected from "
                + config.endpointUrl());
        dropped.forEach(w -> w.fail(notConnected));
        if (pendingConnect != null) {
            completeLater(() -> pendingConnect.completeExceptionally(notConnected));
        }
        if (a == null) {
            return CompletableFuture.completedFuture(null);
        }
        return close(a);
    }

    /** CloseSession, then the channel; completes when the channel is closed. */
    private CompletableFuture<Void> close(Active a) {
        CompletableFuture<Void> closed = new CompletableFuture<>();
        a.session().close().orTimeout(config.requestTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete((ok, failure) -> {
                    if (failure != null) {
                        log.debug("CloseSession on {} failed: {}", config.endpointUrl(), failure.toString());
                    }
                    a.channel().close().whenComplete((c, f) -> closed.complete(null));
                });
        return closed;
    }

    /**
     * Puts another client certificate in use: the channels opened from now on (the next reconnect)
     * present it; the channel open now keeps the one it was opened with.
     */
    public void replaceCertificate(ApplicationCertificate next) {
        connector.replaceCertificate(next);
    }

    /** The client certificate the next channel presents; null without one. */
    public ApplicationCertificate certificate() {
        return connector.certificate();
    }

    // ---- sending ----------------------------------------------------------------------------------

    @Override
    public <T extends UaResponseMessage> CompletableFuture<T> send(
            Function<RequestHeader, ? extends UaRequestMessage> build, Class<T> responseType) {
        return send(build, responseType, config.requestTimeout().toMillis());
    }

    @Override
    public <T extends UaResponseMessage> CompletableFuture<T> send(
            Function<RequestHeader, ? extends UaRequestMessage> build, Class<T> responseType, long timeoutMillis) {
        Active a = active;
        if (a != null) {
            return sendOn(a, build, responseType, timeoutMillis);
        }
        return sendLater(build, responseType, timeoutMillis);
    }

    @Override
    public <T extends UaResponseMessage> CompletableFuture<T> sendCompletingOnIoThread(
            Function<RequestHeader, ? extends UaRequestMessage> build, Class<T> responseType, long timeoutMillis) {
        Active a = active;
        if (a == null) {
            return sendLater(build, responseType, timeoutMillis);
        }
        UaRequestMessage request;
        try {
            request = build.apply(header(a, timeoutMillis));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        RequestObserver.Call call = started(request);
        return observed(call, a.session().requestCompletingOnIoThread(request, responseType));
    }

    @Override
    public <T extends UaResponseMessage, R> CompletableFuture<R> send(
            Function<RequestHeader, ? extends UaRequestMessage> build, Class<T> responseType,
            Function<? super T, ? extends R> then) {
        long timeoutMillis = config.requestTimeout().toMillis();
        Active a = active;
        if (a == null) {
            return sendLater(build, responseType, timeoutMillis).thenApply(then);
        }
        return sendOn(a, build, responseType, timeoutMillis, then);
    }

    @Override
    public <T extends UaResponseMessage, R> CompletableFuture<R> sendCall(ServiceInvoker.Call<T, R> call,
            Class<T> responseType) {
        long timeoutMillis = config.requestTimeout().toMillis();
        Active a = active;
        if (a == null) {
            return sendLater(call::request, responseType, timeoutMillis).thenApply(call);
        }
        UaRequestMessage request;
        try {
            request = call.request(header(a, timeoutMillis));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return sendOn(a, request, responseType, call);
    }

    private <T extends UaResponseMessage> CompletableFuture<T> sendOn(Active a,
            Function<RequestHeader, ? extends UaRequestMessage> build, Class<T> responseType, long timeoutMillis) {
        return sendOn(a, build, responseType, timeoutMillis, null);
    }

    /** Builds the request around a header of {@code a}'s session and sends it. */
    private <T extends UaResponseMessage, R> CompletableFuture<R> sendOn(Active a,
            Function<RequestHeader, ? extends UaRequestMessage> build, Class<T> responseType, long timeoutMillis,
            Function<? super T, ? extends R> then) {
        UaRequestMessage request;
        try {
            request = build.apply(header(a, timeoutMillis));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return sendOn(a, request, responseType, then);
    }

    /** A header of {@code a}'s session (Part 4, 7.32) with the timeout as timeoutHint. */
    private static RequestHeader header(Active a, long timeoutMillis) {
        return RequestHeaders.create(a.session().authenticationToken(), timeoutMillis);
    }

    /**
     * Sends a request built for {@code a}'s session; with {@code then} the future completes with it
     * applied to the response (null: with the response). The request observer, when there is one,
     * sees it from here to its end.
     */
    @SuppressWarnings("unchecked")
    private <T extends UaResponseMessage, R> CompletableFuture<R> sendOn(Active a, UaRequestMessage request,
            Class<T> responseType, Function<? super T, ? extends R> then) {
        RequestObserver.Call call = started(request);
        return observed(call, then == null ? (CompletableFuture<R>) a.session().request(request, responseType)
                : a.session().request(request, responseType, then));
    }

    /** The request observer's call for {@code request}, started before it is sent; null without an observer. */
    private RequestObserver.Call started(UaRequestMessage request) {
        return observer == RequestObserver.NONE ? null : observer.started(SERVICE_NAMES.get(request.getClass()));
    }

    /** Ends the observer's {@code call} (when there is one) when {@code result} completes. */
    private static <R> CompletableFuture<R> observed(RequestObserver.Call call, CompletableFuture<R> result) {
        if (call != null) {
            result.whenComplete((r, failure) -> finish(call, failure));
        }
        return result;
    }

    private static void finish(RequestObserver.Call call, Throwable failure) {
        try {
            call.finished(failure == null ? 0 : Failures.status(failure) & 0xFFFFFFFFL, Failures.unwrap(failure));
        } catch (RuntimeException e) {
            log.warn("The request observer failed: {}", e.toString());
        }
    }

    private <T extends UaResponseMessage> CompletableFuture<T> sendLater(
            Function<RequestHeader, ? extends UaRequestMessage> build, Class<T> responseType, long timeoutMillis) {
        Waiting<T> w;
        synchronized (lock) {
            Active a = active;
            if (a == null) {
                UaException refused = refusal();
                if (refused != null) {
                    return CompletableFuture.failedFuture(refused);
                }
                w = new Waiting<>(build, responseType, timeoutMillis);
                waiters.add(w);
                try {
                    w.timeout = timer.newTimeout(t -> expire(w), timeoutMillis, TimeUnit.MILLISECONDS);
                } catch (IllegalStateException e) {
                    waiters.remove(w);
                    return CompletableFuture.failedFuture(new UaException(StatusCodes.BadShutdown,
                            "the client's resources are closed"));
                }
                return w.result;
            }
            return sendOn(a, build, responseType, timeoutMillis);
        }
    }

    /** Why a request cannot wait now, or null when it may. Called under the lock. */
    private UaException refusal() {
        if (state == ClientState.DISCONNECTED) {
            return new UaException(StatusCodes.BadNotConnected, "the client is not connected to "
                    + config.endpointUrl() + (lastError == null ? "" : "; last error: " + lastError.getMessage()));
        }
        if (config.whileReconnecting() == OpcUaClientConfig.WhileReconnecting.FAIL_FAST) {
            return new UaException(StatusCodes.BadNotConnected, "the client is " + state + " to "
                    + config.endpointUrl() + (lastError == null ? "" : "; last error: " + lastError.getMessage()));
        }
        if (waiters.size() >= config.maxWaitingRequests()) {
            return new UaException(StatusCodes.BadNotConnected, "the client is " + state + " to "
                    + config.endpointUrl() + " and " + waiters.size() + " requests already wait (maxWaitingRequests)");
        }
        return null;
    }

    private void expire(Waiting<?> w) {
        boolean removed;
        synchronized (lock) {
            removed = waiters.remove(w);
        }
        if (removed) {
            Throwable last = lastError;
            w.fail(new UaException(StatusCodes.BadTimeout, "no connection to " + config.endpointUrl() + " within "
                    + w.timeoutMillis + " ms (" + state + (last == null ? "" : "; last error: " + last.getMessage())
                    + ")"));
        }
    }

    private List<Waiting<?>> drainWaiters() {
        List<Waiting<?>> drained = new ArrayList<>(waiters);
        waiters.clear();
        for (Waiting<?> w : drained) {
            cancel(w.timeout);
        }
        return drained;
    }

    /** A request waiting for the connection. */
    private final class Waiting<T extends UaResponseMessage> {
        final Function<RequestHeader, ? extends UaRequestMessage> build;
        final Class<T> responseType;
        final long timeoutMillis;
        final CompletableFuture<T> result = new CompletableFuture<>();
        Timeout timeout;

        Waiting(Function<RequestHeader, ? extends UaRequestMessage> build, Class<T> responseType, long timeoutMillis) {
            this.build = build;
            this.responseType = responseType;
            this.timeoutMillis = timeoutMillis;
        }

        void sendOn(Active a) {
            ConnectionManager.this.sendOn(a, build, responseType, timeoutMillis).whenComplete((response, failure) -> {
                if (failure != null) {
                    result.completeExceptionally(Failures.unwrap(failure));
                } else {
                    result.complete(response);
                }
            });
        }

        void fail(Throwable cause) {
            completeLater(() -> result.completeExceptionally(cause));
        }
    }

    // ---- establishing -----------------------------------------------------------------------------

    /** One attempt at a channel and an active session, then the hooks; on failure the next attempt. */
    private void attempt(long gen, boolean first) {
        ClientSession previous;
        synchronized (lock) {
            if (gen != generation) {
                return;
            }
            previous = session;
        }
        CompletableFuture<UaTcpClientChannel> opening = connector.openChannel();
        opening.thenCompose(channel -> activate(channel, previous)).thenCompose(established -> {
            Active a = established.active;
            boolean current;
            synchronized (lock) {
                current = gen == generation;
                if (current) {
                    session = a.session();
                    active = a; // the hooks' requests go out from here
                }
            }
            if (!current) { // disconnected while this attempt was under way: nobody else will close what it opened
                close(a);
                throw new CompletionException(new UaException(StatusCodes.BadNotConnected, "disconnected"));
            }
            a.channel().closeFuture().whenComplete((ok, failure) -> connectionLost(a, new UaException(
                    StatusCodes.BadConnectionClosed, "the connection to " + config.endpointUrl() + " was closed")));
            Hooks h = hooks;
            CompletableFuture<Void> restored = h == null ? CompletableFuture.completedFuture(null)
                    : h.onSessionReady(established.newSession, first);
            return restored.handle((ok, failure) -> {
                if (failure != null) {
                    log.warn("restoring the state of the session with {} failed: {}", config.endpointUrl(),
                            Failures.unwrap(failure).toString());
                }
                return a;
            });
        }).whenComplete((a, failure) -> {
            if (failure == null) {
                onEstablished(gen, a, first);
            } else {
                onAttemptFailed(gen, first, Failures.unwrap(failure), opening);
            }
        });
    }

    private record Established(Active active, boolean newSession) {
    }

    /** Moves the previous session onto the channel, or creates a new one when the server lost it. */
    private CompletableFuture<Established> activate(UaTcpClientChannel channel, ClientSession previous) {
        CompletableFuture<Established> result;
        if (previous != null && !previous.isClosed()) {
            result = previous.activateOn(channel).thenApply(ok -> new Established(new Active(channel, previous), false))
                    .exceptionallyCompose(failure -> {
                        log.info("the session {} could not be re-activated on the new channel ({}); creating a new "
                                + "one", previous.sessionId(), Failures.unwrap(failure).getMessage());
                        return connector.createSession(channel)
                                .thenApply(s -> new Established(new Active(channel, s), true));
                    });
        } else {
            result = connector.createSession(channel).thenApply(s -> new Established(new Active(channel, s), true));
        }
        return result.whenComplete((ok, failure) -> {
            if (failure != null) {
                channel.close();
            }
        });
    }

    private void onEstablished(long gen, Active a, boolean first) {
        List<Waiting<?>> ready;
        CompletableFuture<Void> future;
        synchronized (lock) {
            if (gen != generation || active != a) {
                return; // disconnected or lost again meanwhile: that path owns the channel now
            }
            // A channel that closed while the hooks ran was ignored by its close listener (the state was
            // not CONNECTED yet): this attempt failed. One that closes after this check finds CONNECTED.
            if (!a.channel().isOpen() || a.channel().closeFuture().isDone()) {
                ready = null;
                future = null;
            } else {
                backoff.reset();
                keepAliveFailures = 0;
                ready = new ArrayList<>(waiters);
                waiters.clear();
                future = connected;
                connected = null;
                if (!first) {
                    reconnects.incrementAndGet();
                }
                setState(ClientState.CONNECTED, null);
                scheduleKeepAlive(gen);
            }
        }
        if (ready == null) {
            onAttemptFailed(gen, first, new UaException(StatusCodes.BadConnectionClosed, "the connection to "
                    + config.endpointUrl() + " was closed while the session was being restored"), null);
            return;
        }
        log.info("{} {} (session {}, channel {})", first ? "connected to" : "reconnected to", config.endpointUrl(),
                a.session().sessionId(), a.channel().secureChannelId());
        for (Waiting<?> w : ready) {
            cancel(w.timeout);
            w.sendOn(a);
        }
        if (future != null) {
            completeLater(() -> future.complete(null));
        }
    }

    private void onAttemptFailed(long gen, boolean first, Throwable cause, CompletableFuture<UaTcpClientChannel> opening) {
        if (isSecurityFailure(cause)) {
            connector.forgetEndpoint(); // a restarted server may present a new certificate
        }
        List<Waiting<?>> dropped = List.of();
        CompletableFuture<Void> future = null;
        synchronized (lock) {
            if (gen != generation) {
                return;
            }
            lastError = cause;
            Active a = active;
            if (a != null) { // the hooks ran on a channel that failed since: start over
                active = null;
                a.channel().close();
            }
            if (first && !config.keepTryingToConnect()) {
                generation++;
                dropped = drainWaiters();
                future = connected;
                connected = null;
                setState(ClientState.DISCONNECTED, cause);
            } else {
                scheduleReconnect(gen, first);
            }
        }
        if (first && future != null) {
            log.warn("could not connect to {}: {}", config.endpointUrl(), cause.getMessage());
            dropped.forEach(w -> w.fail(cause));
            CompletableFuture<Void> f = future;
            completeLater(() -> f.completeExceptionally(cause));
        } else if (loggedInFull(backoff.failures())) {
            if (first) {
                log.warn("could not connect to {} (attempt {}), trying again{}: {}", config.endpointUrl(),
                        backoff.failures(), quietNote(backoff.failures()), cause.getMessage());
            } else {
                log.info("reconnect to {} failed (attempt {}){}: {}", config.endpointUrl(), backoff.failures(),
                        quietNote(backoff.failures()), cause.getMessage());
            }
        } else {
            log.debug("attempt {} to connect to {} failed: {}", backoff.failures(), config.endpointUrl(),
                    cause.getMessage());
        }
    }

    /**
     * Whether a failed attempt is logged at WARN/INFO: the first five and then every hundredth, so that
     * a server down for a day does not fill the log (the others go to DEBUG).
     */
    private static boolean loggedInFull(long attempt) {
        return attempt <= QUIET_AFTER_ATTEMPTS || attempt % 100 == 0;
    }

    private static String quietNote(long attempt) {
        return attempt == QUIET_AFTER_ATTEMPTS ? " (further attempts are logged every 100th)" : "";
    }

    /** The next attempt after a backoff delay; {@code first} while the user's connect has not succeeded yet. */
    private void scheduleReconnect(long gen, boolean first) {
        long delay = backoff.nextDelayMillis();
        try {
            reconnectTimeout = timer.newTimeout(t -> attempt(gen, first), delay, TimeUnit.MILLISECONDS);
        } catch (IllegalStateException e) {
            log.warn("the client's timer is stopped: no reconnect to {}", config.endpointUrl());
        }
    }

    // ---- losing the connection --------------------------------------------------------------------

    /**
     * The connection {@code which} is gone or unusable: unless it was already replaced or the client
     * disconnected, the state becomes RECONNECTING and the reconnect loop starts.
     */
    public void connectionLost(Throwable cause) {
        Active a = active;
        if (a != null) {
            connectionLost(a, cause);
        }
    }

    private void connectionLost(Active which, Throwable cause) {
        long gen;
        synchronized (lock) {
            if (active != which || state != ClientState.CONNECTED) {
                return;
            }
            active = null;
            gen = generation;
            lastError = cause;
            cancel(keepAliveTimeout);
            connected = new CompletableFuture<>();
            setState(ClientState.RECONNECTING, cause);
            scheduleReconnect(gen, false);
        }
        log.warn("lost the connection to {}: {}; reconnecting", config.endpointUrl(), cause.getMessage());
        which.channel().close();
        Hooks h = hooks;
        if (h != null) {
            try {
                h.onConnectionLost();
            } catch (RuntimeException e) {
                log.warn("a connection-lost hook failed", e);
            }
        }
    }

    // ---- keep-alive -------------------------------------------------------------------------------

    private void scheduleKeepAlive(long gen) {
        try {
            keepAliveTimeout = timer.newTimeout(t -> keepAlive(gen), config.keepAliveInterval().toMillis(),
                    TimeUnit.MILLISECONDS);
        } catch (IllegalStateException e) {
            keepAliveTimeout = null; // resources closed
        }
    }

    /** Reads ServerStatus/State (Part 5, 6.3.1); too many failures in a row, or a lost session, lose the connection. */
    private void keepAlive(long gen) {
        Active a = active;
        if (a == null) {
            return;
        }
        long timeout = Math.min(config.requestTimeout().toMillis(), Math.max(1000, config.keepAliveInterval().toMillis()));
        sendOn(a, h -> new ReadRequest(h, 0, TimestampsToReturn.Neither, SERVER_STATE), ReadResponse.class, timeout)
                .whenComplete((response, failure) -> {
                    Throwable cause = failure == null ? null : Failures.unwrap(failure);
                    boolean lost = false;
                    synchronized (lock) {
                        if (gen != generation || active != a) {
                            return;
                        }
                        if (cause == null) {
                            keepAliveFailures = 0;
                        } else if (isSessionLost(cause) || ++keepAliveFailures > config.keepAliveFailuresAllowed()) {
                            lost = true;
                        }
                        if (!lost) {
                            scheduleKeepAlive(gen);
                        }
                    }
                    if (lost) {
                        connectionLost(a, new UaException(Failures.statusCode(cause), "the keep-alive Read failed: "
                                + cause.getMessage()));
                    }
                });
    }

    // ---- helpers ----------------------------------------------------------------------------------

    private void setState(ClientState next, Throwable cause) {
        ClientState previous = state;
        if (previous == next) {
            return;
        }
        state = next;
        notifications.execute(() -> {
            for (ClientStateListener l : listeners) {
                try {
                    l.onStateChanged(previous, next, cause);
                } catch (RuntimeException e) {
                    log.warn("client state listener {} failed", l, e);
                }
            }
        });
    }

    /** Whether a failure says the server no longer knows the session (Part 4, 7.38 Table 182). */
    public static boolean isSessionLost(Throwable cause) {
        StatusCode status = Failures.statusCode(cause);
        return status.isSameCode(StatusCodes.BadSessionIdInvalid) || status.isSameCode(StatusCodes.BadSessionClosed)
                || status.isSameCode(StatusCodes.BadSessionNotActivated);
    }

    private static boolean isSecurityFailure(Throwable cause) {
        String name = Failures.statusCode(cause).name();
        return name != null && (name.startsWith("BadCertificate") || name.equals("BadSecurityChecksFailed"));
    }

    private void completeLater(Runnable completion) {
        try {
            executor.execute(completion);
        } catch (RejectedExecutionException e) {
            completion.run();
        }
    }

    private static void cancel(Timeout t) {
        if (t != null) {
            t.cancel();
        }
    }
}
