package dev.opcua.stack.server.testing;

import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.types.structured.FindServersRequest;
import dev.opcua.stack.core.types.structured.GetEndpointsRequest;
import dev.opcua.stack.server.discovery.DiscoveryServices;
import dev.opcua.stack.server.services.ServiceDispatcher;
import dev.opcua.stack.server.transport.ReverseConnectSettings;
import dev.opcua.stack.server.transport.UaTcpServer;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A server on 127.0.0.1 and an ephemeral port that answers GetEndpoints and FindServers, for tests:
 * {@code try (DiscoveryServerFixture server = DiscoveryServerFixture.start()) { ... server.endpointUrl() ... }}.
 * The endpoint URL names {@code localhost} and the bound port, known only once the socket is bound,
 * so the discovery configuration is built after the start.
 */
public final class DiscoveryServerFixture implements AutoCloseable {

    public static final String APPLICATION_URI = "urn:dev.opcua:test:server";
    public static final String PRODUCT_URI = "urn:dev.opcua:stack";
    public static final String APPLICATION_NAME = "dev.opcua test server";

    private final UaTcpServer server;
    private final ServiceDispatcher dispatcher;
    private final DiscoveryServices discovery;
    private final String endpointUrl;

    private DiscoveryServerFixture(UaTcpServer server, ServiceDispatcher dispatcher, DiscoveryServices discovery,
            String endpointUrl) {
        this.server = server;
        this.dispatcher = dispatcher;
        this.discovery = discovery;
        this.endpointUrl = endpointUrl;
    }

    public static DiscoveryServerFixture start() {
        return start(TransportQuotas.DEFAULT, true);
    }

    /** A server with these quotas, on native epoll where available when {@code nativeTransport}. */
    public static DiscoveryServerFixture start(TransportQuotas quotas, boolean nativeTransport) {
        return start(quotas, nativeTransport, ReverseConnectSettings.NONE);
    }

    /** A server that also dials the clients of {@code reverseConnect}. */
    public static DiscoveryServerFixture start(TransportQuotas quotas, boolean nativeTransport,
            ReverseConnectSettings reverseConnect) {
        AtomicReference<DiscoveryServices> discovery = new AtomicReference<>();
        ServiceDispatcher dispatcher = ServiceDispatcher.builder()
                .minThreads(2)
                .maxThreads(4)
                .encodingLimits(quotas.encodingLimits())
                .registerSync(GetEndpointsRequest.class, (channel, request) -> discovery.get().getEndpoints(request))
                .registerSync(FindServersRequest.class, (channel, request) -> discovery.get().findServers(request))
                .build();
        UaTcpServer server;
        try {
            server = UaTcpServer.builder()
                    .bindAddress("127.0.0.1")
                    .port(0)
                    .ioThreads(2)
                    .nativeTransport(nativeTransport)
                    .transportQuotas(quotas)
                    .endpointPaths(List.of("/"))
                    .requestListener(dispatcher)
                    .build()
                    .start();
        } catch (RuntimeException e) {
            dispatcher.close();
            throw e;
        }
        String url = "opc.tcp://localhost:" + server.port() + "/";
        discovery.set(DiscoveryServices.builder()
                .application(APPLICATION_URI, PRODUCT_URI, APPLICATION_NAME)
                .endpointUrls(List.of(url))
                .build());
        server.startReverseConnect(reverseConnect); // once GetEndpoints can be answered; nothing when NONE
        return new DiscoveryServerFixture(server, dispatcher, discovery.get(), url);
    }

    /** {@code opc.tcp://localhost:<port>/}. */
    public String endpointUrl() {
        return endpointUrl;
    }

    public int port() {
        return server.port();
    }

    public UaTcpServer server() {
        return server;
    }

    public ServiceDispatcher dispatcher() {
        return dispatcher;
    }

    public DiscoveryServices discovery() {
        return discovery;
    }

    @Override
    public void close() {
        server.close();
        dispatcher.close();
    }
}
