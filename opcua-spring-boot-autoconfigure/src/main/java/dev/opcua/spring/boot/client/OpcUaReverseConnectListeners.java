package dev.opcua.spring.boot.client;

import dev.opcua.stack.client.transport.ReverseConnectListener;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The reverse-connect listeners (Part 6, 7.1.3) of the application's client connections: one
 * {@link ReverseConnectListener} per listen port, shared by the connections that wait on that port for their
 * server's connection. Owns them: {@link #close()} closes every listener. A client must be closed before the
 * listener it waits on, so whoever builds clients over these listeners depends on this object, and the context
 * destroys the clients first.
 */
public final class OpcUaReverseConnectListeners implements AutoCloseable {

    private static final Log log = LogFactory.getLog(OpcUaReverseConnectListeners.class);

    /** No connection uses reverse connect. */
    public static final OpcUaReverseConnectListeners NONE = new OpcUaReverseConnectListeners(Map.of());

    private final Map<String, ReverseConnectListener> byConnection;

    /** @param byConnection the listener each connection waits on, by connection name; several may share one */
    public OpcUaReverseConnectListeners(Map<String, ReverseConnectListener> byConnection) {
        this.byConnection = Collections.unmodifiableMap(new LinkedHashMap<>(byConnection));
    }

    /** The listener the connection waits on; empty for a connection that dials its server. */
    public Optional<ReverseConnectListener> forConnection(String connection) {
        return Optional.ofNullable(byConnection.get(connection));
    }

    /** Each listener once, with the connections that wait on it, in the order the connections are listed. */
    public Map<ReverseConnectListener, List<String>> listeners() {
        Map<ReverseConnectListener, List<String>> result = new LinkedHashMap<>() /* listeners compare by identity */;
        byConnection.forEach((connection, listener) ->
                result.computeIfAbsent(listener, l -> new ArrayList<>()).add(connection));
        return Collections.unmodifiableMap(result);
    }

    /** Whether no connection uses reverse connect. */
    public boolean isEmpty() {
        return byConnection.isEmpty();
    }

    /** Closes every listener: the connections it holds, and the accepts still waiting (BadServerHalted). */
    @Override
    public void close() {
        for (Map.Entry<ReverseConnectListener, List<String>> entry : listeners().entrySet()) {
            try {
                entry.getKey().close();
            } catch (RuntimeException e) {
                // one listener failing to close must not leave the others open
                log.warn("Reverse-connect listener on port " + entry.getKey().port() + " of " + entry.getValue()
                        + " did not close cleanly: " + e);
            }
        }
    }

    @Override
    public String toString() {
        return "OpcUaReverseConnectListeners" + byConnection.keySet();
    }
}
