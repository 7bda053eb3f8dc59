package dev.opcua.benchmarks.transport;

import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.client.transport.RequestHeaders;
import dev.opcua.stack.client.transport.UaTcpClientChannel;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.types.structured.GetEndpointsRequest;
import dev.opcua.stack.core.types.structured.GetEndpointsResponse;
import dev.opcua.stack.server.discovery.DiscoveryServices;
import dev.opcua.stack.server.services.ServiceDispatcher;
import dev.opcua.stack.server.transport.UaTcpServer;
import java.net.ServerSocket;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.milo.opcua.sdk.server.OpcUaServer;
import org.eclipse.milo.opcua.sdk.server.EndpointConfig;
import org.eclipse.milo.opcua.sdk.server.OpcUaServerConfig;
import org.eclipse.milo.opcua.stack.core.security.SecurityPolicy;
import org.eclipse.milo.opcua.stack.core.transport.TransportProfile;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.enumerated.MessageSecurityMode;
import org.eclipse.milo.opcua.stack.transport.server.tcp.OpcTcpServerTransport;
import org.eclipse.milo.opcua.stack.transport.server.tcp.OpcTcpServerTransportConfig;

/**
 * Round trips of GetEndpoints over one open secure channel (SecurityPolicy None) on loopback: our
 * client against our server, then our client against Eclipse Milo 1.1.2's server, in one process.
 * Prints latency percentiles of sequential requests and the heap bytes allocated per request by the
 * client threads (the caller and {@code opcua-client-*}) and by all other threads (the server).
 *
 * <p>Usage: {@code java -cp opcua-benchmarks/target/benchmarks.jar dev.opcua.benchmarks.transport.GetEndpointsRoundTrip
 * [--requests N] [--warmup N] [--server ours|milo|both]}. One line per server starts with {@code RESULT}.
 */
public final class GetEndpointsRoundTrip {

    private GetEndpointsRoundTrip() {
    }

    public static void main(String[] args) throws Exception {
        int requests = 20_000;
        int warmup = 20_000;
        String which = "both";
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--requests" -> requests = Integer.parseInt(args[i + 1]);
                case "--warmup" -> warmup = Integer.parseInt(args[i + 1]);
                case "--server" -> which = args[i + 1];
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + " (use --requests N, --warmup N, --server ours|milo|both)");
            }
        }
        try (ClientResources resources = ClientResources.create()) {
            if (!which.equals("milo")) {
                try (OurServer server = OurServer.start()) {
                    measure("ours", server.url, requests, warmup, resources);
                }
            }
            if (!which.equals("ours")) {
                try (MiloServer server = MiloServer.start()) {
                    measure("milo", server.url, requests, warmup, resources);
                }
            }
        }
        System.exit(0); // Milo leaves non-daemon threads behind
    }

    private static void measure(String name, String url, int requests, int warmup, ClientResources resources)
            throws Exception {
        System.err.println("measuring GetEndpoints against " + name + " at " + url);
        UaTcpClientChannel channel = UaTcpClientChannel.connect(url, TransportQuotas.DEFAULT, resources)
                .get(10, TimeUnit.SECONDS);
        try {
            for (int i = 0; i < warmup; i++) {
                call(channel, url);
            }
            ThreadAllocations allocations = new ThreadAllocations();
            String caller = Thread.currentThread().getName();
            long[] nanos = new long[requests];
            Map<Long, ThreadAllocations.Sample> before = allocations.snapshot();
            for (int i = 0; i < requests; i++) {
                long start = System.nanoTime();
                call(channel, url);
                nanos[i] = System.nanoTime() - start;
            }
            Map<Long, ThreadAllocations.Sample> after = allocations.snapshot();
            long client = ThreadAllocations.between(before, after,
                    n -> n.equals(caller) || n.startsWith("opcua-client-"));
            long server = ThreadAllocations.between(before, after,
                    n -> !n.equals(caller) && !n.startsWith("opcua-client-"));
            Arrays.sort(nanos);
            System.out.printf("RESULT server=%s requests=%d p50_us=%.1f p90_us=%.1f p99_us=%.1f max_us=%.1f "
                            + "server_bytes_per_request=%d client_bytes_per_request=%d%n",
                    name, requests, nanos[requests / 2] / 1e3, nanos[requests * 9 / 10] / 1e3,
                    nanos[requests * 99 / 100] / 1e3, nanos[requests - 1] / 1e3, server / requests, client / requests);
        } finally {
            channel.close().get(10, TimeUnit.SECONDS);
        }
    }

    private static void call(UaTcpClientChannel channel, String url) throws Exception {
        GetEndpointsRequest request = new GetEndpointsRequest(RequestHeaders.create(0), url, null, null);
        GetEndpointsResponse response = channel.request(request, GetEndpointsResponse.class).get(10, TimeUnit.SECONDS);
        if (response.endpoints() == null || response.endpoints().length == 0) {
            throw new IllegalStateException("no endpoints from " + url);
        }
    }

    /** Our server with the discovery services, on 127.0.0.1 and a free port. */
    private static final class OurServer implements AutoCloseable {
        final UaTcpServer server;
        final ServiceDispatcher dispatcher;
        final String url;

        private OurServer(UaTcpServer server, ServiceDispatcher dispatcher, String url) {
            this.server = server;
            this.dispatcher = dispatcher;
            this.url = url;
        }

        static OurServer start() {
            AtomicReference<DiscoveryServices> discovery = new AtomicReference<>();
            ServiceDispatcher dispatcher = ServiceDispatcher.builder()
                    .registerSync(GetEndpointsRequest.class, (channel, request) -> discovery.get().getEndpoints(request))
                    .build();
            UaTcpServer server = UaTcpServer.builder()
                    .bindAddress("127.0.0.1")
                    .port(0)
                    .endpointPaths(List.of("/"))
                    .requestListener(dispatcher)
                    .build()
                    .start();
            String url = "opc.tcp://127.0.0.1:" + server.port() + "/";
            discovery.set(DiscoveryServices.builder()
                    .application("urn:dev.opcua:bench", "urn:dev.opcua:stack", "bench server")
                    .endpointUrls(List.of(url))
                    .build());
            return new OurServer(server, dispatcher, url);
        }

        @Override
        public void close() {
            server.close();
            dispatcher.close();
        }
    }

    /** Eclipse Milo's server with one None endpoint, on 127.0.0.1 and a free port. */
    private static final class MiloServer implements AutoCloseable {
        final OpcUaServer server;
        final String url;

        private MiloServer(OpcUaServer server, String url) {
            this.server = server;
            this.url = url;
        }

        static MiloServer start() throws Exception {
            int port;
            try (ServerSocket socket = new ServerSocket(0)) {
                port = socket.getLocalPort();
            }
            EndpointConfig endpoint = EndpointConfig.newBuilder()
                    .setTransportProfile(TransportProfile.TCP_UASC_UABINARY)
                    .setBindAddress("127.0.0.1")
                    .setBindPort(port)
                    .setHostname("127.0.0.1")
                    .setPath("/")
                    .setSecurityPolicy(SecurityPolicy.None)
                    .setSecurityMode(MessageSecurityMode.None)
                    .addTokenPolicies(OpcUaServerConfig.USER_TOKEN_POLICY_ANONYMOUS)
                    .build();
            OpcUaServerConfig config = OpcUaServerConfig.builder()
                    .setApplicationUri("urn:dev.opcua:bench:milo")
                    .setProductUri("urn:dev.opcua:bench")
                    .setApplicationName(LocalizedText.english("bench server (Milo)"))
                    .setEndpoints(Set.of(endpoint))
                    .build();
            OpcUaServer server = new OpcUaServer(config,
                    profile -> new OpcTcpServerTransport(OpcTcpServerTransportConfig.newBuilder().build()));
            server.startup().get(30, TimeUnit.SECONDS);
            return new MiloServer(server, endpoint.getEndpointUrl());
        }

        @Override
        public void close() throws Exception {
            server.shutdown().get(30, TimeUnit.SECONDS);
        }
    }

}
