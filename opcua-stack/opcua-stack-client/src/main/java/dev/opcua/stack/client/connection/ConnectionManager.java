package dev.opcua.stack.client.connection;

import dev.opcua.stack.client.ClientState;
import dev.opcua.stack.client.ClientStateListener;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.client.services.ServiceInvoker;
import dev.opcua.stack.client.session.ClientSession;
import dev.opcua.stack.client.transport.UaTcpClientChannel;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import io.netty.util.Timer;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.LongSupplier;

/**
 * Owns a client's connection (Part 4, 6.7): the secure channel and the session on it, the
 * {@link ClientState}, and the parts that keep it: the {@link RequestGate} every request goes
 * through ({@link #requests()}: at once while connected, waiting or refused while not), the
 * {@link Reconnector} that connects, re-establishes a lost connection with backoff and disconnects,
 * and the {@link KeepAlive} that notices a connection gone quiet.
 *
 * <p>Thread-safe. State changes and the connect/disconnect futures complete on the callback executor;
 * listeners are told of changes one at a time, in order.
 */
public final class ConnectionManager {

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

    private final ConnectionStatus status = new ConnectionStatus();
    private final Connector connector;
    private final RequestGate gate;
    private final KeepAlive keepAlive;
    private final Reconnector reconnector;

    public ConnectionManager(OpcUaClientConfig config) {
        Timer timer = config.resources().timer();
        // requests that never went out and state notifications complete on the callback threads, never on the
        // timer or an event loop
        Executor executor = config.resources().callbackExecutor();
        this.connector = new Connector(config);
        this.gate = new RequestGate(config, status, timer, executor);
        this.keepAlive = new KeepAlive(config, gate, timer);
        this.reconnector = new Reconnector(config, connector, status, gate, keepAlive, timer, executor);
    }

    /**
     * Set once by the client before the first connect: the System.nanoTime of the last Good Publish response to a
     * request sent over the session in use, {@link Long#MIN_VALUE} when there is none. While such answers arrive
     * the keep-alive sends no Read (see {@link KeepAlive}).
     */
    public void keepAliveEvidence(LongSupplier lastPublishAnswered) {
        keepAlive.evidence(Objects.requireNonNull(lastPublishAnswered, "lastPublishAnswered"));
    }

    /** Where requests of the current session go: the service sets and the subscriptions send through it. */
    public ServiceInvoker requests() {
        return gate;
    }

    /** Set once by the client before the first connect. */
    public void hooks(Hooks hooks) {
        reconnector.hooks(hooks);
    }

    public ClientState state() {
        return status.state();
    }

    public void addStateListener(ClientStateListener listener) {
        reconnector.addStateListener(listener);
    }

    public void removeStateListener(ClientStateListener listener) {
        reconnector.removeStateListener(listener);
    }

    /** The endpoint chosen at the first connect; null before. */
    public EndpointDescription endpoint() {
        return connector.endpoint();
    }

    /** The session requests go to now; null while not connected. */
    public ClientSession session() {
        ActiveSession a = gate.active();
        return a == null ? null : a.session();
    }

    /** The channel requests go over now; null while not connected. */
    public UaTcpClientChannel channel() {
        ActiveSession a = gate.active();
        return a == null ? null : a.channel();
    }

    /** Why the client last left CONNECTED or last failed to connect; null when it never did. */
    public Throwable lastError() {
        return status.lastError();
    }

    /** When {@link #lastError()} happened; null when it never did. */
    public Instant lastErrorAt() {
        return status.lastErrorAt();
    }

    /** How many times a lost connection was re-established. */
    public long reconnects() {
        return reconnector.reconnects();
    }

    /**
     * Connects unless connected: completes once CONNECTED, or fails with why the first attempt failed
     * (the state is then DISCONNECTED again) unless the configuration says to keep trying
     * ({@link OpcUaClientConfig#keepTryingToConnect()}: the state stays CONNECTING and attempts follow
     * with the reconnect delays until one succeeds or {@link #disconnect()}). While reconnecting it
     * completes when the reconnect does.
     */
    public CompletableFuture<Void> connect() {
        return reconnector.connect();
    }

    /**
     * Disconnects: requests waiting fail with BadNotConnected, the reconnect loop stops, the session is
     * closed (CloseSession deletes its subscriptions, Part 4, 5.6.4) and then the channel. Completes when
     * the channel is closed; idempotent.
     */
    public CompletableFuture<Void> disconnect() {
        return reconnector.disconnect();
    }

    /**
     * The connection in use is gone or unusable (a silent server, a lost session): unless the client
     * is not connected, the state becomes RECONNECTING and the reconnect loop starts.
     */
    public void connectionLost(Throwable cause) {
        reconnector.connectionLost(cause);
    }

    /**
     * Fails over to another server of a non-transparent redundant set: see
     * {@code Reconnector#switchServer}. Used by {@code dev.opcua.stack.client.redundancy}.
     */
    public void switchServer(String endpointUrl, Throwable cause) {
        reconnector.switchServer(endpointUrl, cause);
    }

    /**
     * Fails over to {@code endpointUrl} taking the session along (HotAndMirrored): see
     * {@code Reconnector#switchServerKeepingSession}. Used by {@code dev.opcua.stack.client.redundancy}.
     */
    public dev.opcua.stack.core.types.builtin.NodeId switchServerKeepingSession(String endpointUrl, Throwable cause) {
        return reconnector.switchServerKeepingSession(endpointUrl, cause);
    }

    /**
     * A failover decided while an attempt to {@code endpointUrl} was under way came too late: that attempt
     * connected, so the connection stays there: see {@code Reconnector#stayOn}. Used by
     * {@code dev.opcua.stack.client.redundancy}.
     */
    public void stayOn(String endpointUrl) {
        reconnector.stayOn(endpointUrl);
    }

    /** Whether the session now ready is on another server than before (a failover); clears it. */
    public boolean takeServerSwitched() {
        return reconnector.takeServerSwitched();
    }

    /** The endpoint URL of the server the connection was established with last (or goes to first). */
    public String connectedUrl() {
        return reconnector.connectedUrl();
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
}
