package dev.opcua.spring.boot.server;

import dev.opcua.stack.core.types.structured.EndpointDescription;
import dev.opcua.stack.server.OpcUaServer;
import java.util.List;
import org.springframework.context.ApplicationEvent;

/**
 * Published by {@link OpcUaServerLifecycle} once the OPC UA server listens, with the port it bound:
 * the way to learn the port when {@code opcua.server.port} is 0. {@link OpcUaServerPortInfoListener} puts the port
 * into the environment as {@code local.opcua.server.port}.
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

    /**
     * The distinct endpoint URLs the server offers (one per configured host name, all on the bound port), in the
     * order of its endpoints (Part 4, 5.4.4 GetEndpoints).
     */
    public List<String> getEndpointUrls() {
        return getServer().endpoints().stream().map(EndpointDescription::endpointUrl).distinct().toList();
    }
}
