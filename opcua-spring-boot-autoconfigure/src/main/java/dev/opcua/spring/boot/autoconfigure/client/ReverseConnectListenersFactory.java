package dev.opcua.spring.boot.autoconfigure.client;

import dev.opcua.spring.boot.autoconfigure.diagnostics.PropertyChecks;
import dev.opcua.spring.boot.client.OpcUaReverseConnectListeners;
import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.client.transport.ReverseConnectListener;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Opens the reverse-connect listeners (Part 6, 7.1.3) that {@code opcua.client.connections.<name>.reverse-connect.*}
 * ask for: one per listen port, the servers each connection expects registered with it
 * ({@link ReverseConnectListener#expect}) so that their connections are held from the start, before the clients
 * connect. Connections that share a port share the listener, so they must agree on its address and hello timeout.
 * Every property that cannot be used stops the start naming its key; the listeners opened by then are closed.
 */
final class ReverseConnectListenersFactory {

    private static final String SERVER_URI_ALLOWED =
            "the ApplicationUri of the server that dials in (its application-uri), such as urn:acme:plc1";

    private ReverseConnectListenersFactory() {
    }

    /**
     * The listeners of every connection with a listen-port; {@link OpcUaReverseConnectListeners#NONE} without.
     *
     * @param resources the event loops the listeners run on, asked for only when one is opened: an application
     *     without reverse connect (a server alone) starts no client threads
     */
    static OpcUaReverseConnectListeners open(OpcUaClientProperties properties, Supplier<ClientResources> resources) {
        Map<String, ReverseConnectListener> byConnection = new LinkedHashMap<>();
        Map<Integer, Opened> byPort = new LinkedHashMap<>();
        try {
            properties.getConnections().forEach((name, connection) -> {
                OpcUaClientProperties.ReverseConnect reverse = connection.getReverseConnect();
                PropertyChecks checks = checks(name);
                if (!reverse.isListening()) {
                    if (reverse.getServerUri() != null) {
                        throw checks.invalid("reverse-connect.listen-port", null,
                                "reverse-connect.server-uri is set, but no port to listen on for its connections",
                                "the port the server dials (its reverse-connect.clients entry), such as 4843; "
                                        + "or no reverse-connect.server-uri, to dial the server");
                    }
                    return;
                }
                String serverUri = reverse.getServerUri();
                if (serverUri == null || serverUri.isBlank()) {
                    throw checks.invalid("reverse-connect.server-uri", serverUri, (serverUri == null ? "it is not set"
                            : "it is empty") + ", and reverse-connect.listen-port is " + reverse.getListenPort()
                            + ": the client takes only the connections of the server it names", SERVER_URI_ALLOWED);
                }
                Opened opened = byPort.get(reverse.getListenPort());
                if (opened == null) {
                    opened = new Opened(name, reverse, listen(checks, reverse, resources));
                    byPort.put(reverse.getListenPort(), opened);
                } else {
                    opened.checkShared(checks, reverse);
                }
                // held from now on, also those that arrive before the client asks for one
                opened.listener.expect(serverUri, connection.getEndpointUrl());
                byConnection.put(name, opened.listener);
            });
        } catch (RuntimeException e) {
            byPort.values().forEach(opened -> opened.listener.close());
            throw e;
        }
        return byConnection.isEmpty() ? OpcUaReverseConnectListeners.NONE
                : new OpcUaReverseConnectListeners(byConnection);
    }

    private static ReverseConnectListener listen(PropertyChecks checks, OpcUaClientProperties.ReverseConnect reverse,
            Supplier<ClientResources> resources) {
        String address = reverse.getListenAddress().trim();
        int port = reverse.getListenPort();
        try {
            return ReverseConnectListener.listen(address, port, resources.get(), reverse.getHelloTimeout(),
                    ReverseConnectListener.DEFAULT_MAX_PENDING);
        } catch (IllegalArgumentException e) { // the stack's checks of values the constraints let through
            throw checks.invalid("reverse-connect.hello-timeout", reverse.getHelloTimeout(), e.getMessage(),
                    "1ms or more, such as 10s", e);
        } catch (IllegalStateException e) { // the port is taken, or the address is not one of this host
            throw checks.invalid("reverse-connect.listen-port", port, "cannot listen on " + address + ":" + port
                    + " (" + (e.getCause() != null ? e.getCause() : e) + ")",
                    "a port free on reverse-connect.listen-address " + address + ", or another address", e);
        }
    }

    private static PropertyChecks checks(String connection) {
        return new PropertyChecks(OpcUaClientPropertiesMapper.CONNECTIONS + "." + connection,
                (key, value, reason, allowed, cause) ->
                        new InvalidOpcUaClientPropertyException(connection, key, value, reason, allowed, cause));
    }

    /** A listener and the connection whose properties opened it, which later connections on its port must match. */
    private record Opened(String connection, OpcUaClientProperties.ReverseConnect settings,
            ReverseConnectListener listener) {

        void checkShared(PropertyChecks checks, OpcUaClientProperties.ReverseConnect other) {
            String shared = "connection '" + connection + "' listens on port " + settings.getListenPort()
                    + " already, and connections on one port share its listener";
            if (!settings.getListenAddress().trim().equals(other.getListenAddress().trim())) {
                throw checks.invalid("reverse-connect.listen-address", other.getListenAddress(),
                        shared + " (at " + settings.getListenAddress() + ")",
                        settings.getListenAddress() + ", as connection '" + connection + "'; or another listen-port");
            }
            if (!settings.getHelloTimeout().equals(other.getHelloTimeout())) {
                throw checks.invalid("reverse-connect.hello-timeout", other.getHelloTimeout(),
                        shared + " (hello-timeout " + settings.getHelloTimeout() + ")",
                        settings.getHelloTimeout() + ", as connection '" + connection + "'; or another listen-port");
            }
        }
    }
}
