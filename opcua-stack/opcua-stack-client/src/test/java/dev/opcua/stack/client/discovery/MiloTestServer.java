package dev.opcua.stack.client.discovery;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.milo.opcua.sdk.server.EndpointConfig;
import org.eclipse.milo.opcua.sdk.server.OpcUaServer;
import org.eclipse.milo.opcua.sdk.server.OpcUaServerConfig;
import org.eclipse.milo.opcua.stack.core.security.SecurityPolicy;
import org.eclipse.milo.opcua.stack.core.transport.TransportProfile;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned;
import org.eclipse.milo.opcua.stack.core.types.enumerated.MessageSecurityMode;
import org.eclipse.milo.opcua.stack.transport.server.tcp.OpcTcpServerTransport;
import org.eclipse.milo.opcua.stack.transport.server.tcp.OpcTcpServerTransportConfig;

/**
 * An Eclipse Milo 1.1.2 server on 127.0.0.1 and a free port with one endpoint, SecurityPolicy None
 * and anonymous users: the interoperability peer of the client tests. Milo's types stay in this
 * class, away from ours of the same names.
 */
final class MiloTestServer implements AutoCloseable {

    static final String APPLICATION_URI = "urn:opcua-java:test:milo";
    static final String PRODUCT_URI = "urn:opcua-java:test";
    static final String PATH = "/milo";
    static final int MIN_TOKEN_LIFETIME_MILLIS = 400;

    private final OpcUaServer server;
    private final String endpointUrl;

    private MiloTestServer(OpcUaServer server, String endpointUrl) {
        this.server = server;
        this.endpointUrl = endpointUrl;
    }

    static MiloTestServer start() throws Exception {
        int port = freePort();
        EndpointConfig endpoint = EndpointConfig.newBuilder()
                .setTransportProfile(TransportProfile.TCP_UASC_UABINARY)
                .setBindAddress("127.0.0.1")
                .setBindPort(port)
                .setHostname("127.0.0.1")
                .setPath(PATH)
                .setSecurityPolicy(SecurityPolicy.None)
                .setSecurityMode(MessageSecurityMode.None)
                .addTokenPolicies(OpcUaServerConfig.USER_TOKEN_POLICY_ANONYMOUS)
                .build();
        OpcUaServerConfig config = OpcUaServerConfig.builder()
                .setApplicationUri(APPLICATION_URI)
                .setProductUri(PRODUCT_URI)
                .setApplicationName(LocalizedText.english("opcua-java interop peer"))
                .setEndpoints(Set.of(endpoint))
                .build();
        OpcUaServer server = new OpcUaServer(config,
                profile -> new OpcTcpServerTransport(OpcTcpServerTransportConfig.newBuilder()
                        // Milo's default minimum token lifetime is a minute; the renewal test asks for less.
                        .setMinimumSecureChannelLifetime(Unsigned.uint(MIN_TOKEN_LIFETIME_MILLIS))
                        .build()));
        server.startup().get(20, TimeUnit.SECONDS);
        return new MiloTestServer(server, endpoint.getEndpointUrl());
    }

    /** The endpoint URL as Milo reports it: opc.tcp://127.0.0.1:port/milo. */
    String endpointUrl() {
        return endpointUrl;
    }

    @Override
    public void close() throws ExecutionException, TimeoutException {
        try {
            server.shutdown().get(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
