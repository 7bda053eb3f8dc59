package dev.opcua.spring.boot.actuate.endpoint;

import dev.opcua.spring.boot.client.OpcUaClientSnapshot;
import dev.opcua.spring.boot.client.OpcUaClients;
import dev.opcua.spring.boot.client.listener.OpcUaListenerInfo;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The clients' part of the {@link OpcUaEndpoint opcua endpoint}: each client connection of the application
 * ({@code opcua.client.connections.<name>}) as an {@link OpcUaClientSnapshot}, and the annotated listeners
 * ({@code @OpcUaSubscription} methods). It is the only class of the endpoint that names the client registry,
 * so that an application without {@code opcua-stack-client} (a server only) loads no client type: the
 * auto-configuration creates it only when that module is on the class path and the application has client
 * connections.
 */
public final class OpcUaClientsEndpointSection {

    private final OpcUaClients clients;
    private final Supplier<List<OpcUaListenerInfo>> listeners;

    /** The section of an application without annotated listeners. */
    public OpcUaClientsEndpointSection(OpcUaClients clients) {
        this(clients, List::of);
    }

    /**
     * @param clients the application's client connections
     * @param listeners where the annotated client listeners are listed from, read on every call
     */
    public OpcUaClientsEndpointSection(OpcUaClients clients, Supplier<List<OpcUaListenerInfo>> listeners) {
        this.clients = Objects.requireNonNull(clients, "clients");
        this.listeners = Objects.requireNonNull(listeners, "listeners");
    }

    /** The client connections by name, in the registry's order, read now; null without any. */
    Map<String, OpcUaClientSnapshot> connections() {
        if (clients.names().isEmpty()) {
            return null;
        }
        Map<String, OpcUaClientSnapshot> result = new LinkedHashMap<>();
        clients.asMap().forEach((name, client) -> result.put(name, OpcUaClientSnapshot.of(client)));
        return result;
    }

    /** The annotated listeners, read now; null without any. */
    List<OpcUaListenerInfo> listeners() {
        List<OpcUaListenerInfo> listed = listeners.get();
        return listed == null || listed.isEmpty() ? null : listed;
    }
}
