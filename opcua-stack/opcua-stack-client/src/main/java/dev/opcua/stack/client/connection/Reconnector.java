package dev.opcua.stack.client.connection;

import dev.opcua.stack.client.ClientState;
import dev.opcua.stack.client.ClientStateListener;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.client.session.ClientSession;
import dev.opcua.stack.core.Failures;
import dev.opcua.stack.client.transport.UaTcpClientChannel;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lifecycle of a client's connection: connect, lose, re-establish, disconnect (Part 4, 6.7
 * "Re-establishing connections"), and the {@link ClientState} it goes through, told to the listeners.
 *
 * <p>When the channel closes, the keep-alive fails more often than allowed, or the subscriptions report
 * a silent server or a lost session ({@link #connectionLost(Throwable)}), the state becomes
 * RECONNECTING and, after a {@link Backoff} delay, an attempt opens a new channel and first tries to
 * move the existing session onto it (ActivateSession, Part 4, 5.6.3); when the server no longer knows
 * the session it creates a new one. {@link ConnectionManager.Hooks#onSessionReady} then restores what
 * depends on the session (namespace table, subscriptions: Republish, TransferSubscriptions or
 * re-creation) before the state becomes CONNECTED, the {@link RequestGate} releases the requests that
 * waited and the {@link KeepAlive} starts. A failed attempt schedules the next one, the delay doubling
 * up to the configured maximum, until {@link #disconnect()}.
 *
 * <p>Every attempt belongs to a generation, which {@link #connect()} and {@link #disconnect()} begin: an
 * attempt that finds a newer one gives up, and closes what it opened. Thread-safe; changes happen under
 * the connection's lock ({@link ConnectionStatus}). State changes and the connect/disconnect futures
 * complete on the callback executor; listeners are told of changes one at a time, in order.
 */
final class Reconnector {

    private static final Logger log = LoggerFactory.getLogger(Reconnector.class);

    /** Failed attempts logged at WARN/INFO before only every hundredth is. */
    private static final int QUIET_AFTER_ATTEMPTS = 5;

    private final OpcUaClientConfig config;
    private final Connector connector;
    private final ConnectionStatus status;
    private final RequestGate gate;
    private final KeepAlive keepAlive;
    private final Timer timer;
    private final SerialExecutor notifications;
    private final List<ClientStateListener> listeners = new CopyOnWriteArrayList<>();
    private final AtomicLong reconnects = new AtomicLong();
    private volatile ConnectionManager.Hooks hooks;

    // guarded by `status`, the connection's lock
    private final Backoff backoff;
    private ClientSession session;
    private long generation;
    private CompletableFuture<Void> connected;
    private Timeout reconnectTimeout;
    private boolean reconnectFirst;
    /** A switch to another server was asked for: the next attempt goes at once. */
    private boolean switchPending;
    /** The server of the connection established last; the connector's target until then. */
    private volatile String connectedUrl;
    private final java.util.concurrent.atomic.AtomicBoolean serverSwitched = new java.util.concurrent.atomic.AtomicBoolean();

    Reconnector(OpcUaClientConfig config, Connector connector, ConnectionStatus status, RequestGate gate,
            KeepAlive keepAlive, Timer timer, Executor executor) {
        this.config = config;
        this.connector = connector;
        this.status = status;
        this.gate = gate;
        this.keepAlive = keepAlive;
        this.timer = timer;
        this.notifications = new SerialExecutor(executor);
        this.backoff = new Backoff(config.reconnectInitialDelay(), config.reconnectMaxDelay());
    }

    void hooks(ConnectionManager.Hooks hooks) {
        this.hooks = hooks;
    }

    void addStateListener(ClientStateListener listener) {
        listeners.add(listener);
    }

    void removeStateListener(ClientStateListener listener) {
        listeners.remove(listener);
    }

    long reconnects() {
        return reconnects.get();
    }

    // ---- connect and disconnect -------------------------------------------------------------------

    /** See {@link ConnectionManager#connect()}. */
    CompletableFuture<Void> connect() {
        long gen;
        CompletableFuture<Void> future;
        synchronized (status) {
            if (status.state() == ClientState.CONNECTED) {
                return CompletableFuture.completedFuture(null);
            }
            if (status.state() != ClientState.DISCONNECTED) {
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

    /** See {@link ConnectionManager#disconnect()}. */
    CompletableFuture<Void> disconnect() {
        ActiveSession a;
        List<RequestGate.Waiting<?>> dropped;
        CompletableFuture<Void> pendingConnect;
        synchronized (status) {
            if (status.state() == ClientState.DISCONNECTED) {
                return CompletableFuture.completedFuture(null);
            }
            generation++;
            a = gate.close();
            session = null;
            if (reconnectTimeout != null) {
                reconnectTimeout.cancel();
            }
            keepAlive.stop();
            dropped = gate.takeWaiting();
            pendingConnect = connected;
            setState(ClientState.DISCONNECTED, null);
        }
        UaException notConnected = new UaException(StatusCodes.BadNotConnected, "the client was disconnected from "
                + config.endpointUrl());
        dropped.forEach(w -> w.fail(notConnected));
        if (pendingConnect != null) {
            gate.completeLater(() -> pendingConnect.completeExceptionally(notConnected));
        }
        if (a == null) {
            return CompletableFuture.completedFuture(null);
        }
        return close(a);
    }

    /** CloseSession, then the channel; completes when the channel is closed. */
    private CompletableFuture<Void> close(ActiveSession a) {
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

    // ---- establishing -----------------------------------------------------------------------------

    /** One attempt at a channel and an active session, then the hooks; on failure the next attempt. */
    private void attempt(long gen, boolean first) {
        ClientSession previous;
        synchronized (status) {
            if (gen != generation) {
                return;
            }
            previous = session;
        }
        CompletableFuture<UaTcpClientChannel> opening = connector.openChannel();
        opening.thenCompose(channel -> activate(channel, previous)).thenCompose(established -> {
            ActiveSession a = established.active;
            boolean current;
            synchronized (status) {
                current = gen == generation;
                if (current) {
                    session = a.session();
                    gate.open(a); // the hooks' requests go out from here
                }
            }
            if (!current) { // disconnected while this attempt was under way: nobody else will close what it opened
                close(a);
                throw new CompletionException(new UaException(StatusCodes.BadNotConnected, "disconnected"));
            }
            a.channel().closeFuture().whenComplete((ok, failure) -> connectionLost(a, new UaException(
                    StatusCodes.BadConnectionClosed, "the connection to " + config.endpointUrl() + " was closed")));
            ConnectionManager.Hooks h = hooks;
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
                onAttemptFailed(gen, first, Failures.unwrap(failure));
            }
        });
    }

    private record Established(ActiveSession active, boolean newSession) {
    }

    /** Moves the previous session onto the channel, or creates a new one when the server lost it. */
    private CompletableFuture<Established> activate(UaTcpClientChannel channel, ClientSession previous) {
        CompletableFuture<Established> result;
        if (previous != null && !previous.isClosed()) {
            result = previous.activateOn(channel)
                    .thenApply(ok -> new Established(new ActiveSession(channel, previous), false))
                    .exceptionallyCompose(failure -> {
                        log.info("the session {} could not be re-activated on the new channel ({}); creating a new "
                                + "one", previous.sessionId(), Failures.unwrap(failure).getMessage());
                        return connector.createSession(channel)
                                .thenApply(s -> new Established(new ActiveSession(channel, s), true));
                    });
        } else {
            result = connector.createSession(channel)
                    .thenApply(s -> new Established(new ActiveSession(channel, s), true));
        }
        return result.whenComplete((ok, failure) -> {
            if (failure != null) {
                channel.close();
            }
        });
    }

    private void onEstablished(long gen, ActiveSession a, boolean first) {
        List<RequestGate.Waiting<?>> ready;
        CompletableFuture<Void> future;
        synchronized (status) {
            if (gen != generation || gate.active() != a) {
                return; // disconnected or lost again meanwhile: that path owns the channel now
            }
            // A channel that closed while the hooks ran was ignored by its close listener (the state was
            // not CONNECTED yet): this attempt failed. One that closes after this check finds CONNECTED.
            if (!a.channel().isOpen() || a.channel().closeFuture().isDone()) {
                ready = null;
                future = null;
            } else {
                backoff.reset();
                ready = gate.takeWaiting();
                future = connected;
                connected = null;
                if (!first) {
                    reconnects.incrementAndGet();
                }
                // the server this channel reached: an attempt under way when switchServer retargeted the
                // connector finishes on the server it started for
                connectedUrl = a.channel().endpointUrl() != null ? a.channel().endpointUrl() : connector.endpointUrl();
                setState(ClientState.CONNECTED, null);
                keepAlive.start(a, this::connectionLost);
            }
        }
        if (ready == null) {
            onAttemptFailed(gen, first, new UaException(StatusCodes.BadConnectionClosed, "the connection to "
                    + config.endpointUrl() + " was closed while the session was being restored"));
            return;
        }
        log.info("{} {} (session {}, channel {})", first ? "connected to" : "reconnected to", connectedUrl,
                a.session().sessionId(), a.channel().secureChannelId());
        for (RequestGate.Waiting<?> w : ready) {
            w.sendOn(a);
        }
        if (future != null) {
            gate.completeLater(() -> future.complete(null));
        }
    }

    private void onAttemptFailed(long gen, boolean first, Throwable cause) {
        if (isSecurityFailure(cause)) {
            connector.forgetEndpoint(); // a restarted server may present a new certificate
        }
        List<RequestGate.Waiting<?>> dropped = List.of();
        CompletableFuture<Void> future = null;
        synchronized (status) {
            if (gen != generation) {
                return;
            }
            status.lastError(cause);
            ActiveSession a = gate.close();
            if (a != null) { // the hooks ran on a channel that failed since: start over
                a.channel().close();
            }
            if (first && !config.keepTryingToConnect()) {
                generation++;
                dropped = gate.takeWaiting();
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
            gate.completeLater(() -> f.completeExceptionally(cause));
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
        long delay = switchPending ? 0 : backoff.nextDelayMillis();
        switchPending = false;
        reconnectFirst = first;
        try {
            reconnectTimeout = timer.newTimeout(t -> attempt(gen, first), delay, TimeUnit.MILLISECONDS);
        } catch (IllegalStateException e) {
            log.warn("the client's timer is stopped: no reconnect to {}", config.endpointUrl());
        }
    }

    // ---- switching servers (non-transparent redundancy) ------------------------------------------

    /**
     * A failover (Part 4, 6.6.2.4.5, Table 111 "At Failover": OpenSecureChannel, CreateSession and
     * ActivateSession on the backup Server): from now on the connection goes to {@code url}. The old
     * server's session cannot move there, so the next attempt creates a new session, and
     * {@link #takeServerSwitched()} tells the hooks to re-create the subscriptions rather than try to
     * transfer ids the new server never issued. While connected, the session on the old server (still
     * alive, e.g. its ServiceLevel dropped) is closed, best effort and briefly, deleting its
     * subscriptions; then the connection counts as lost and the reconnect loop, at once, goes to
     * {@code url}. While reconnecting, a waiting attempt is brought forward; one under way finishes first.
     */
    void switchServer(String url, Throwable cause) {
        Switch retargeted = retarget(url, false);
        if (retargeted == null) {
            return;
        }
        ActiveSession old = retargeted.old();
        log.warn("failing over from {} to {}: {}", connectedUrl, url, cause.getMessage());
        if (old != null) {
            old.session().close().orTimeout(Math.min(1000, config.requestTimeout().toMillis()), TimeUnit.MILLISECONDS)
                    .whenComplete((ok, failure) -> connectionLost(old, cause));
        }
    }

    /**
     * A HotAndMirrored failover (Part 4, 6.6.2.4.5.5): from now on the connection goes to {@code url}, and the next
     * attempt activates the existing session there on a new channel, as after a lost connection; the servers of
     * the set share the session's state, so the partner takes it over. The old server's session is not closed (it
     * is the same session); while connected, its channel is dropped and the connection counts as lost. Should the
     * partner not know the session, the attempt creates a new one and {@link #takeServerSwitched()} tells the hooks
     * to re-create the subscriptions, as after {@link #switchServer}.
     *
     * @return the SessionId of the session taken along; null when there is none (disconnected)
     */
    dev.opcua.stack.core.types.builtin.NodeId switchServerKeepingSession(String url, Throwable cause) {
        Switch retargeted = retarget(url, true);
        if (retargeted == null) {
            return null;
        }
        log.warn("failing over from {} to {}, taking the session along: {}", connectedUrl, url, cause.getMessage());
        if (retargeted.old() != null) {
            connectionLost(retargeted.old(), cause);
        }
        return retargeted.kept() == null ? null : retargeted.kept().sessionId();
    }

    /**
     * Undoes a switch that lost the race to the attempt under way (a slow first connect that came through after the
     * failover was decided): while connected to {@code url}, the next attempt goes to {@code url} again, not at once,
     * and is no server switch; otherwise the first loss of this connection would go to the other server with a new
     * session, by-passing the failover the redundancy mode asks for.
     */
    void stayOn(String url) {
        synchronized (status) {
            if (status.state() != ClientState.CONNECTED || !url.equals(connectedUrl)) {
                return;
            }
            connector.retarget(url);
            switchPending = false;
            serverSwitched.set(false);
        }
    }

    /** What a switch found: the connection to leave (null while not connected) and the session taken along. */
    private record Switch(ActiveSession old, ClientSession kept) {
    }

    /**
     * Under the lock: points the connection at {@code url}, forgetting the session unless {@code keepSession}, and
     * brings a waiting reconnect attempt forward; null when the client is disconnected.
     */
    private Switch retarget(String url, boolean keepSession) {
        synchronized (status) {
            connector.retarget(url);
            if (status.state() == ClientState.DISCONNECTED) {
                session = null;
                connectedUrl = null;
                return null;
            }
            ClientSession kept = keepSession ? session : null;
            if (!keepSession) {
                session = null;
            }
            serverSwitched.set(true);
            switchPending = true;
            ActiveSession old = status.state() == ClientState.CONNECTED ? gate.active() : null;
            if (old == null && reconnectTimeout != null && !reconnectTimeout.isExpired()
                    && reconnectTimeout.cancel()) {
                scheduleReconnect(generation, reconnectFirst);
            }
            return new Switch(old, kept);
        }
    }

    /** Whether the session now ready is on another server than the one before; clears it. */
    boolean takeServerSwitched() {
        return serverSwitched.getAndSet(false);
    }

    /** The server of the connection established last (the configured one before the first). */
    String connectedUrl() {
        String u = connectedUrl;
        return u != null ? u : connector.endpointUrl();
    }

    // ---- losing the connection --------------------------------------------------------------------

    /** See {@link ConnectionManager#connectionLost(Throwable)}. */
    void connectionLost(Throwable cause) {
        ActiveSession a = gate.active();
        if (a != null) {
            connectionLost(a, cause);
        }
    }

    /**
     * The connection {@code which} is gone or unusable: unless it was already replaced or the client
     * disconnected, the state becomes RECONNECTING and the reconnect loop starts.
     */
    private void connectionLost(ActiveSession which, Throwable cause) {
        long gen;
        synchronized (status) {
            if (gate.active() != which || status.state() != ClientState.CONNECTED) {
                return;
            }
            gate.close();
            gen = generation;
            status.lastError(cause);
            keepAlive.stop();
            connected = new CompletableFuture<>();
            setState(ClientState.RECONNECTING, cause);
            scheduleReconnect(gen, false);
        }
        log.warn("lost the connection to {}: {}; reconnecting", config.endpointUrl(), cause.getMessage());
        which.channel().close();
        ConnectionManager.Hooks h = hooks;
        if (h != null) {
            try {
                h.onConnectionLost();
            } catch (RuntimeException e) {
                log.warn("a connection-lost hook failed", e);
            }
        }
    }

    // ---- helpers ----------------------------------------------------------------------------------

    /** Under the lock: the listeners are told in the order the changes happened. */
    private void setState(ClientState next, Throwable cause) {
        if (status.state() == next) {
            return;
        }
        ClientState previous = status.state(next);
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

    private static boolean isSecurityFailure(Throwable cause) {
        String name = Failures.statusCode(cause).name();
        return name != null && (name.startsWith("BadCertificate") || name.equals("BadSecurityChecksFailed"));
    }
}
