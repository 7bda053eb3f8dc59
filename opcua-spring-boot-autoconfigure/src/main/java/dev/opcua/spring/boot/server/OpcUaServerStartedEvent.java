package dev.opcua.spring.boot.server;

import dev.opcua.stack.server.OpcUaServer;
import org.springframework.context.ApplicationEvent;

/**
 * Published by {@link OpcUaServerLifecycle} once the OPC UA server listens, with the port it bound:
 * the way to learn the port when {@code opcua.server.port} is 0.
 */
public class OpcUaServerStartedEvent extends ApplicationEvent {

    private final int port;

    public OpcUaServerStartedEvent(OpcUaServer server, int port) {
        super(server);
        this.port = port;
    }

    /** The server that started. */
    public OpcUaServer getServer() {
        return (OpcUaServer) getSource();
    }

    /** The TCP port the server listens on. */
    public int getPort() {
        return port;
    }

    /** The endpoint URL with the server's first host name and the bound port. */
    public String getEndpointUrl() {
        return getServer().endpointUrl();
    }
}
