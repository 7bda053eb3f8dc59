package dev.opcua.stack.server.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.client.session.ClientIdentity;
import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.client.transport.RequestHeaders;
import dev.opcua.stack.client.transport.ReverseConnectListener;
import dev.opcua.stack.client.transport.UaTcpClientChannel;
import dev.opcua.stack.client.transport.uasc.ClientChannelSecurity;
import dev.opcua.stack.core.channel.MessageType;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.CertificateValidator;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.security.pki.CertificateBuilder;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.core.types.structured.GetEndpointsRequest;
import dev.opcua.stack.core.types.structured.GetEndpointsResponse;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.session.UserNameIdentityValidator;
import dev.opcua.stack.server.testing.DiscoveryServerFixture;
import dev.opcua.stack.server.testing.GoldenFrames;
import dev.opcua.stack.server.testing.RawUaClient;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Reverse connect (Part 6, 7.1.3) between our two ends on 127.0.0.1: the server dials the client's listener and
 * sends ReverseHello, the client opens a secure channel over that socket; what the client does not expect, or what
 * does not speak the protocol, is refused and counted.
 */
class ReverseConnectIT {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String ENDPOINT = "opc.tcp://localhost:4840/";
    private static final TransportQuotas QUOTAS = TransportQuotas.DEFAULT;
    private static final NodeId SERVER_STATE = NodeId.ns0(NodeIds.Server_ServerStatus_State);

    private static ClientResources resources;

    @BeforeAll
    static void resources() {
        resources = ClientResources.builder().threadNamePrefix("reverse-it").build();
    }

    @AfterAll
    static void closeResources() {
        resources.close();
    }

    private static ReverseConnectSettings dial(int clientPort, int ready) {
        return new ReverseConnectSettings(DiscoveryServerFixture.APPLICATION_URI,
                List.of(new ReverseConnectTarget("opc.tcp://127.0.0.1:" + clientPort, ENDPOINT)),
                Duration.ofMillis(100), ready);
    }

    /** A listener that holds the connections of {@code serverUri} from the start, whenever a caller asks. */
    private static ReverseConnectListener expecting(String serverUri) {
        ReverseConnectListener listener = ReverseConnectListener.listen("127.0.0.1", 0, resources);
        listener.expect(serverUri, null);
        return listener;
    }

    private static GetEndpointsRequest getEndpoints() {
        return new GetEndpointsRequest(RequestHeaders.create(5000), ENDPOINT, new String[0], new String[0]);
    }

    @Test
    void the_client_opens_a_secure_channel_over_the_connection_the_server_dialled_and_the_server_dials_the_next()
            throws Exception {
        try (ReverseConnectListener listener = expecting(DiscoveryServerFixture.APPLICATION_URI);
                DiscoveryServerFixture server = DiscoveryServerFixture.start(QUOTAS, true,
                        dial(listener.port(), 1))) {
            UaTcpClientChannel first = listener.accept(DiscoveryServerFixture.APPLICATION_URI, ENDPOINT, QUOTAS,
                    ClientChannelSecurity.NONE).get(WAIT.toSeconds(), TimeUnit.SECONDS);
            UaTcpClientChannel second = listener.accept(DiscoveryServerFixture.APPLICATION_URI, null, QUOTAS,
                    ClientChannelSecurity.NONE).get(WAIT.toSeconds(), TimeUnit.SECONDS);
            try {
                for (UaTcpClientChannel channel : List.of(first, second)) {
                    assertThat(channel.request(getEndpoints(), GetEndpointsResponse.class)
                            .get(WAIT.toSeconds(), TimeUnit.SECONDS).endpoints()).isNotEmpty();
                }
                assertThat(first.secureChannelId()).isNotEqualTo(second.secureChannelId());
                assertThat(server.server().secureChannels()).isEqualTo(2);
            } finally {
                first.close().get(WAIT.toSeconds(), TimeUnit.SECONDS);
                second.close().get(WAIT.toSeconds(), TimeUnit.SECONDS);
            }
            // the two taken were replaced: one connection waits again
            await().atMost(WAIT).untilAsserted(() -> assertThat(server.server().reverseConnectStatistics().attempts())
                    .isEqualTo(3));
            assertThat(server.server().reverseConnectStatistics().taken()).isEqualTo(2);
            assertThat(listener.statistics().accepted()).isEqualTo(2);
            assertThat(listener.statistics().refused()).isZero();
        }
    }

    @Test
    void an_opc_ua_server_configured_for_reverse_connect_offers_its_endpoints_over_the_client_s_listener()
            throws Exception {
        try (ReverseConnectListener listener = expecting("urn:test:reverse:server")) {
            OpcUaServer server = OpcUaServer.builder().applicationUri("urn:test:reverse:server").bindAddress("127.0.0.1")
                    .port(0).hostnames(List.of("127.0.0.1"))
                    .reverseConnect(List.of("opc.tcp://127.0.0.1:" + listener.port()), Duration.ofMillis(100), 2)
                    .build().start();
            try {
                UaTcpClientChannel channel = listener.accept("urn:test:reverse:server", null, QUOTAS,
                        ClientChannelSecurity.NONE).get(WAIT.toSeconds(), TimeUnit.SECONDS);
                try {
                    GetEndpointsResponse response = channel.request(new GetEndpointsRequest(RequestHeaders.create(5000),
                            channel.endpointUrl(), new String[0], new String[0]), GetEndpointsResponse.class)
                            .get(WAIT.toSeconds(), TimeUnit.SECONDS);
                    assertThat(response.endpoints()).isNotEmpty().allSatisfy(endpoint -> assertThat(
                            endpoint.server().applicationUri()).isEqualTo("urn:test:reverse:server"));
                    assertThat(channel.endpointUrl()).isEqualTo(server.endpointUrl());
                } finally {
                    channel.close().get(WAIT.toSeconds(), TimeUnit.SECONDS);
                }
                // two kept ready, one taken and replaced
                await().atMost(WAIT).untilAsserted(() -> {
                    assertThat(server.statistics().reverseConnect().taken()).isEqualTo(1);
                    assertThat(server.statistics().reverseConnect().attempts()).isEqualTo(3);
                });
            } finally {
                server.close();
            }
        }
    }

    @Test
    void an_opc_ua_client_on_reverse_connect_reads_over_its_session_and_reconnects_when_the_server_restarts()
            throws Exception {
        int port = freePort();
        try (ReverseConnectListener listener = expecting("urn:test:reverse:plant")) {
            OpcUaServer.Builder plant = OpcUaServer.builder().applicationUri("urn:test:reverse:plant")
                    .bindAddress("127.0.0.1").port(port).hostnames(List.of("127.0.0.1"))
                    .reverseConnect(List.of("opc.tcp://127.0.0.1:" + listener.port()), Duration.ofMillis(100), 1);
            OpcUaServer server = plant.build().start();
            OpcUaClient client = OpcUaClient.create(OpcUaClientConfig.builder(server.endpointUrl())
                    .reverseConnect(listener, "urn:test:reverse:plant").resources(resources)
                    .reconnectDelays(Duration.ofMillis(100), Duration.ofMillis(500)).build());
            try {
                client.connect().get(WAIT.toSeconds(), TimeUnit.SECONDS);
                assertThat(client.readValue(SERVER_STATE).get(WAIT.toSeconds(), TimeUnit.SECONDS).value().value())
                        .isEqualTo(0); // Running

                // the server restarts: the client gets its session back over the new server's connection
                server.close();
                server = plant.build().start();
                OpcUaServer restarted = server;
                await().atMost(WAIT).untilAsserted(() -> assertThat(client.readValue(SERVER_STATE)
                        .get(WAIT.toSeconds(), TimeUnit.SECONDS).value().value()).isEqualTo(0));
                // counted once the session is restored, which may be a moment after the first answer
                await().atMost(WAIT).untilAsserted(() -> assertThat(client.reconnects()).isGreaterThanOrEqualTo(1));
                assertThat(restarted.statistics().reverseConnect().taken()).isGreaterThanOrEqualTo(1);
            } finally {
                client.disconnect().get(WAIT.toSeconds(), TimeUnit.SECONDS);
                server.close();
            }
        }
    }

    @Test
    void a_session_over_reverse_connect_with_sign_and_encrypt_and_a_user_name() throws Exception {
        ApplicationCertificate serverCertificate = CertificateBuilder.forApplication("reverse plant")
                .applicationUri("urn:test:reverse:secure").hostNames("localhost").build();
        ApplicationCertificate clientCertificate = CertificateBuilder.forApplication("reverse client")
                .applicationUri("urn:test:reverse:client").build();
        try (ReverseConnectListener listener = expecting("urn:test:reverse:secure")) {
            OpcUaServer server = OpcUaServer.builder().applicationUri("urn:test:reverse:secure")
                    .bindAddress("127.0.0.1").port(0).hostnames(List.of("localhost"))
                    .security(List.of(new EndpointSecurity(SecurityPolicy.Basic256Sha256,
                            MessageSecurityMode.SignAndEncrypt)))
                    .certificate(serverCertificate)
                    .clientCertificateValidator(CertificateValidator.acceptAll())
                    .identityTypes(UserNameIdentityValidator.of(Map.of("operator", "secret"), true),
                            EnumSet.of(UserTokenType.UserName))
                    .reverseConnect(List.of("opc.tcp://127.0.0.1:" + listener.port()), Duration.ofMillis(100), 1)
                    .build().start();
            OpcUaClient client = OpcUaClient.create(OpcUaClientConfig.builder(server.endpointUrl())
                    .reverseConnect(listener, "urn:test:reverse:secure")
                    .applicationUri("urn:test:reverse:client").certificate(clientCertificate)
                    .acceptAnyServerCertificate(true).identity(ClientIdentity.userName("operator", "secret"))
                    .resources(resources).build());
            try {
                client.connect().get(WAIT.toSeconds(), TimeUnit.SECONDS);
                assertThat(client.endpoint().securityMode()).isEqualTo(MessageSecurityMode.SignAndEncrypt);
                assertThat(client.readValue(SERVER_STATE).get(WAIT.toSeconds(), TimeUnit.SECONDS).value().value())
                        .isEqualTo(0);
            } finally {
                client.disconnect().get(WAIT.toSeconds(), TimeUnit.SECONDS);
                server.close();
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        }
    }

    @Test
    void the_server_retries_until_the_client_listens() throws Exception {
        int port = freePort();
        try (DiscoveryServerFixture server = DiscoveryServerFixture.start(QUOTAS, true, dial(port, 1))) {
            await().atMost(WAIT).untilAsserted(() -> assertThat(
                    server.server().reverseConnectStatistics().failedAttempts()).isGreaterThanOrEqualTo(2));
            try (ReverseConnectListener listener = ReverseConnectListener.listen("127.0.0.1", port, resources)) {
                UaTcpClientChannel channel = listener.accept(DiscoveryServerFixture.APPLICATION_URI, ENDPOINT, QUOTAS,
                        ClientChannelSecurity.NONE).get(WAIT.toSeconds(), TimeUnit.SECONDS);
                try {
                    assertThat(channel.request(getEndpoints(), GetEndpointsResponse.class)
                            .get(WAIT.toSeconds(), TimeUnit.SECONDS).endpoints()).isNotEmpty();
                } finally {
                    channel.close().get(WAIT.toSeconds(), TimeUnit.SECONDS);
                }
            }
        }
    }

    @Test
    void a_server_the_client_does_not_expect_is_refused_and_counted_on_both_ends() throws Exception {
        try (ReverseConnectListener listener = ReverseConnectListener.listen("127.0.0.1", 0, resources);
                DiscoveryServerFixture server = DiscoveryServerFixture.start(QUOTAS, true,
                        dial(listener.port(), 1))) {
            CompletableFuture<UaTcpClientChannel> other = listener.accept("urn:another:server", null, QUOTAS,
                    ClientChannelSecurity.NONE);
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(listener.statistics().refused()).isGreaterThanOrEqualTo(2);
                assertThat(server.server().reverseConnectStatistics().closedUnused()).isGreaterThanOrEqualTo(2);
            });
            assertThat(other).isNotDone();
            assertThat(server.server().secureChannels()).isZero();
            other.cancel(true);
        }
    }

    @Test
    void an_endpoint_other_than_the_one_expected_is_refused() throws Exception {
        try (ReverseConnectListener listener = ReverseConnectListener.listen("127.0.0.1", 0, resources);
                DiscoveryServerFixture server = DiscoveryServerFixture.start(QUOTAS, true,
                        dial(listener.port(), 1))) {
            CompletableFuture<UaTcpClientChannel> elsewhere = listener.accept(DiscoveryServerFixture.APPLICATION_URI,
                    "opc.tcp://localhost:4840/another", QUOTAS, ClientChannelSecurity.NONE);
            await().atMost(WAIT).untilAsserted(() -> assertThat(listener.statistics().refused())
                    .isGreaterThanOrEqualTo(1));
            assertThat(elsewhere).isNotDone();
            elsewhere.cancel(true);
        }
    }

    @Test
    void silent_connections_time_out_a_hello_in_place_of_a_reverse_hello_is_refused_and_a_flood_is_dropped()
            throws Exception {
        try (ReverseConnectListener listener = ReverseConnectListener.listen("127.0.0.1", 0, resources,
                Duration.ofMillis(300), 4)) {
            InetSocketAddress address = new InetSocketAddress("127.0.0.1", listener.port());

            // a client's Hello sent to the listener: not a ReverseHello
            try (RawUaClient wrong = new RawUaClient(listener.port()).readTimeout(10_000)) {
                assertThat(messageType(wrong.send(GoldenFrames.HEL).readFrame())).isEqualTo(MessageType.ERR.name());
                assertThat(wrong.isClosedByServer()).isTrue();
            }
            await().atMost(WAIT).untilAsserted(() -> assertThat(listener.statistics().held()).isZero());

            // silent connections beyond the pending limit: four are held until they time out, the rest dropped
            List<Socket> flood = new ArrayList<>();
            try {
                for (int i = 0; i < 10; i++) {
                    Socket silent = new Socket();
                    silent.connect(address, 5_000);
                    flood.add(silent);
                }
                await().atMost(WAIT).untilAsserted(() -> {
                    assertThat(listener.statistics().timedOut()).isEqualTo(4);
                    assertThat(listener.statistics().dropped()).isEqualTo(6);
                    assertThat(listener.statistics().held()).isZero();
                });
                // closed by the listener: at once when dropped, after an Error when timed out
                int errors = 0;
                for (Socket silent : flood) {
                    silent.setSoTimeout(10_000);
                    byte[] received = silent.getInputStream().readAllBytes();
                    if (received.length > 0) {
                        assertThat(messageType(received)).isEqualTo(MessageType.ERR.name());
                        errors++;
                    }
                }
                assertThat(errors).isEqualTo(4);
            } finally {
                for (Socket silent : flood) {
                    silent.close();
                }
            }
            assertThat(listener.statistics().refused()).isEqualTo(1);
            assertThat(listener.statistics().accepted()).isZero();
            assertThat(listener.statistics().connections()).isEqualTo(11);
        }
    }

    @Test
    void closing_the_listener_closes_the_connections_it_holds_and_fails_the_callers_waiting() throws Exception {
        ReverseConnectListener listener = ReverseConnectListener.listen("127.0.0.1", 0, resources);
        CompletableFuture<UaTcpClientChannel> waiting = listener.accept("urn:never:connects", null, QUOTAS,
                ClientChannelSecurity.NONE);
        try (Socket silent = new Socket()) {
            silent.connect(new InetSocketAddress("127.0.0.1", listener.port()), 5_000);
            silent.setSoTimeout(10_000);
            await().atMost(WAIT).untilAsserted(() -> assertThat(listener.statistics().held()).isEqualTo(1));
            listener.close();
            assertThat(silent.getInputStream().read()).as("end of stream").isEqualTo(-1);
        }
        assertThat(waiting).isCompletedExceptionally();
        await().atMost(WAIT).untilAsserted(() -> assertThat(listener.statistics().held()).isZero());
    }

    /** The three-letter MessageType of a UA TCP message's header. */
    private static String messageType(byte[] message) {
        return new String(message, 0, 3, StandardCharsets.US_ASCII);
    }
}
