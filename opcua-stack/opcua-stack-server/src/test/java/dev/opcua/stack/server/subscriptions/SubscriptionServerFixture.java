package dev.opcua.stack.server.subscriptions;

import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.core.types.structured.FindServersRequest;
import dev.opcua.stack.core.types.structured.GetEndpointsRequest;
import dev.opcua.stack.server.discovery.DiscoveryServices;
import dev.opcua.stack.server.services.ServiceDispatcher;
import dev.opcua.stack.server.session.IdentityValidator;
import dev.opcua.stack.server.session.SessionManager;
import dev.opcua.stack.server.transport.UaTcpServer;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A server on 127.0.0.1 and an ephemeral port with sessions and the subscription services, assembled
 * by hand the way {@code OpcUaServer.start()} is to assemble them: the {@link SubscriptionManager} is
 * the {@link SessionManager}'s listener, its services are registered with the dispatcher and its
 * parking takes Publish. Monitored items are {@link FakeItems}. Anonymous users only, SecurityPolicy None.
 */
final class SubscriptionServerFixture implements AutoCloseable {

    final SubscriptionStatistics statistics = new SubscriptionStatistics();
    final FakeItems items = new FakeItems(statistics);
    final SubscriptionManager subscriptions;
    final SessionManager sessions;
    final ServiceDispatcher dispatcher;
    final UaTcpServer transport;
    final String endpointUrl;

    SubscriptionServerFixture(SubscriptionSettings settings) {
        TransportQuotas quotas = TransportQuotas.DEFAULT;
        AtomicReference<DiscoveryServices> discovery = new AtomicReference<>();
        subscriptions = SubscriptionManager.builder()
                .settings(settings)
                .statistics(statistics)
                .itemContainerFactory(items)
                .build();
        sessions = SessionManager.builder()
                .identityValidator(IdentityValidator.anonymousOnly())
                .discoveryEndpoints(discovery::get)
                .listener(subscriptions)
                .build();
        SubscriptionServices services = new SubscriptionServices(subscriptions, sessions::resolve,
                quotas.encodingLimits());
        ServiceDispatcher.Builder builder = ServiceDispatcher.builder()
                .minThreads(2)
                .maxThreads(4)
                .encodingLimits(quotas.encodingLimits())
                .registerSync(GetEndpointsRequest.class, (channel, request) -> discovery.get().getEndpoints(request))
                .registerSync(FindServersRequest.class, (channel, request) -> discovery.get().findServers(request))
                .publishParking(services.publishParking());
        sessions.registerWith(builder);
        services.registerWith(builder);
        dispatcher = builder.build();
        transport = UaTcpServer.builder()
                .bindAddress("127.0.0.1")
                .port(0)
                .ioThreads(2)
                .transportQuotas(quotas)
                .endpointPaths(List.of("/"))
                .requestListener(dispatcher)
                .build()
                .start();
        endpointUrl = "opc.tcp://localhost:" + transport.port() + "/";
        discovery.set(DiscoveryServices.builder()
                .application("urn:dev.opcua:test:subscriptions", "urn:dev.opcua:stack", "subscription test server")
                .endpointUrls(List.of(endpointUrl))
                .userTokenTypes(List.of(UserTokenType.Anonymous))
                .build());
    }

    /** In the order a server closes: sockets, pipeline, sessions (their subscriptions), then the rest. */
    @Override
    public void close() {
        transport.close();
        dispatcher.close();
        sessions.close();
        subscriptions.close();
    }
}
