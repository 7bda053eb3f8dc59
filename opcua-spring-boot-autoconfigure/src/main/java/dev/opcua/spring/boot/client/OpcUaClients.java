package dev.opcua.spring.boot.client;

import dev.opcua.stack.client.OpcUaClient;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The application's OPC UA clients by connection name: the connections of {@code opcua.client.connections}
 * and any other {@link OpcUaClient} bean (named by its bean name without the {@code OpcUaClient} suffix).
 * Listeners, health and metrics find their client here.
 */
public final class OpcUaClients {

    /** The suffix of the bean name of a connection's client: {@code plant} -> {@code plantOpcUaClient}. */
    public static final String BEAN_NAME_SUFFIX = "OpcUaClient";

    private final Map<String, OpcUaClient> clients;

    /** @param clients by connection name, in the order they are listed */
    public OpcUaClients(Map<String, OpcUaClient> clients) {
        this.clients = Collections.unmodifiableMap(new LinkedHashMap<>(clients));
    }

    /** The bean name of a connection's client. */
    public static String beanName(String connection) {
        return connection + BEAN_NAME_SUFFIX;
    }

    /** The connection name of a client bean: its bean name without the suffix. */
    public static String connectionName(String beanName) {
        return beanName.endsWith(BEAN_NAME_SUFFIX) && beanName.length() > BEAN_NAME_SUFFIX.length()
                ? beanName.substring(0, beanName.length() - BEAN_NAME_SUFFIX.length()) : beanName;
    }

    /** The connections' names. */
    public Set<String> names() {
        return clients.keySet();
    }

    /** Every client by connection name. */
    public Map<String, OpcUaClient> asMap() {
        return clients;
    }

    /** The client of a connection, if there is one of that name. */
    public Optional<OpcUaClient> find(String connection) {
        return Optional.ofNullable(clients.get(connection));
    }

    /**
     * The client of {@code connection}, or with an empty name the only client there is.
     *
     * @throws IllegalArgumentException naming the connections there are, when there is no such connection
     *         or, for an empty name, not exactly one
     */
    public OpcUaClient resolve(String connection) {
        if (connection == null || connection.isEmpty()) {
            if (clients.size() != 1) {
                throw new IllegalArgumentException("no connection is named and there are " + clients.size()
                        + " OPC UA client connections " + clients.keySet()
                        + (clients.isEmpty() ? " (configure one under opcua.client.connections.<name>)"
                                : "; name one of them"));
            }
            return clients.values().iterator().next();
        }
        OpcUaClient client = clients.get(connection);
        if (client == null) {
            throw new IllegalArgumentException("there is no OPC UA client connection named '" + connection
                    + "'; the connections are " + clients.keySet()
                    + " (configured under opcua.client.connections.<name>)");
        }
        return client;
    }

    @Override
    public String toString() {
        return "OpcUaClients" + clients.keySet();
    }
}
