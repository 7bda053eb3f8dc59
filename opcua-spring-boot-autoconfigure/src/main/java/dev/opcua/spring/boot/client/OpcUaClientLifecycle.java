package dev.opcua.spring.boot.client;

import dev.opcua.spring.boot.server.OpcUaServerLifecycle;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.core.Failures;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Connects the application's OPC UA clients when the context starts and disconnects them when it
 * stops. A connection that may not hold up start-up (the default) is connected in the background:
 * the client keeps trying with its reconnect delays while the server is down, and requests wait for
 * it (or fail fast, as configured). A {@linkplain StartOptions#failFast() fail-fast} connection is
 * waited for, and start-up fails with its error when it cannot connect.
 *
 * <p>Starts after an OPC UA server of the same application (so that a client of its own server finds
 * it up) and stops before it.
 */
public class OpcUaClientLifecycle implements SmartLifecycle {

    /** After {@link OpcUaServerLifecycle#DEFAULT_PHASE}: started after the server, stopped before it. */
    public static final int DEFAULT_PHASE = OpcUaServerLifecycle.DEFAULT_PHASE + 256;

    private static final Log log = LogFactory.getLog(OpcUaClientLifecycle.class);

    /**
     * How one connection starts.
     *
     * @param connectOnStart whether to connect when the context starts (else the application calls connect())
     * @param failFast whether start-up waits for the connection and fails when it cannot be made
     */
    public record StartOptions(boolean connectOnStart, boolean failFast) {

        /** Connect in the background, never holding up start-up. */
        public static final StartOptions BACKGROUND = new StartOptions(true, false);
    }

    private final Map<String, OpcUaClient> clients;
    private final Map<String, StartOptions> options;
    private volatile boolean running;

    /**
     * @param clients the clients by connection name
     * @param options how each starts; a client without options is {@link StartOptions#BACKGROUND}
     */
    public OpcUaClientLifecycle(Map<String, OpcUaClient> clients, Map<String, StartOptions> options) {
        this.clients = new LinkedHashMap<>(Objects.requireNonNull(clients, "clients"));
        this.options = Map.copyOf(Objects.requireNonNull(options, "options"));
    }

    @Override
    public void start() {
        List<Map.Entry<String, CompletableFuture<OpcUaClient>>> mustConnect = new ArrayList<>();
        clients.forEach((name, client) -> {
            StartOptions start = options.getOrDefault(name, StartOptions.BACKGROUND);
            if (!start.connectOnStart()) {
                log.info("OPC UA client '" + name + "' (" + client.config().endpointUrl()
                        + ") does not connect on start (connect-on-start: false)");
                return;
            }
            log.info("Connecting OPC UA client '" + name + "' to " + client.config().endpointUrl());
            CompletableFuture<OpcUaClient> connected = client.connect();
            if (start.failFast()) {
                mustConnect.add(Map.entry(name, connected));
            } else {
                connected.whenComplete((c, failure) -> logOutcome(name, client, failure));
            }
        });
        running = true;
        for (Map.Entry<String, CompletableFuture<OpcUaClient>> entry : mustConnect) {
            awaitConnected(entry.getKey(), clients.get(entry.getKey()), entry.getValue());
        }
    }

    private static void logOutcome(String name, OpcUaClient client, Throwable failure) {
        if (failure == null) {
            log.info("OPC UA client '" + name + "' connected to " + client.config().endpointUrl() + " ("
                    + client.endpoint().securityPolicyUri().substring(
                            client.endpoint().securityPolicyUri().indexOf('#') + 1)
                    + ", " + client.endpoint().securityMode() + ")");
        } else {
            log.warn("OPC UA client '" + name + "' could not connect to " + client.config().endpointUrl() + ": "
                    + Failures.unwrap(failure).getMessage());
        }
    }

    private void awaitConnected(String name, OpcUaClient client, CompletableFuture<OpcUaClient> connected) {
        // connect() without keepTryingToConnect fails on its own; this bound only guards against a hang
        Duration bound = client.config().requestTimeout().multipliedBy(3);
        try {
            connected.get(bound.toMillis(), TimeUnit.MILLISECONDS);
            logOutcome(name, client, null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OpcUaClientConnectException(name, client.config().endpointUrl(), e);
        } catch (Exception e) {
            Throwable cause = Failures.unwrap(e);
            client.close();
            throw new OpcUaClientConnectException(name, client.config().endpointUrl(), cause);
        }
    }

    @Override
    public void stop() {
        running = false;
        List<CompletableFuture<Void>> disconnected = new ArrayList<>();
        long boundMillis = 0;
        for (Map.Entry<String, OpcUaClient> entry : clients.entrySet()) {
            OpcUaClient client = entry.getValue();
            log.info("Disconnecting OPC UA client '" + entry.getKey() + "' (" + client.state() + ")");
            disconnected.add(client.disconnect());
            boundMillis = Math.max(boundMillis, client.config().requestTimeout().toMillis() * 2);
        }
        try {
            CompletableFuture.allOf(disconnected.toArray(CompletableFuture[]::new))
                    .get(boundMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            log.debug("OPC UA clients did not all disconnect cleanly: " + Failures.unwrap(e));
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return DEFAULT_PHASE;
    }
}
