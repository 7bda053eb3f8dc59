package dev.opcua.stack.server.transport;

import static dev.opcua.stack.server.testing.GoldenFrames.ACK;
import static dev.opcua.stack.server.testing.GoldenFrames.HEL;
import static dev.opcua.stack.server.testing.GoldenFrames.OPN_ISSUE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.core.channel.MessageType;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.structured.ChannelSecurityToken;
import dev.opcua.stack.core.types.structured.GetEndpointsResponse;
import dev.opcua.stack.core.types.structured.OpenSecureChannelResponse;
import dev.opcua.stack.server.testing.DiscoveryServerFixture;
import dev.opcua.stack.server.testing.Hex;
import dev.opcua.stack.server.testing.LeakWatch;
import dev.opcua.stack.server.testing.RawUaClient;
import dev.opcua.stack.server.testing.ServerFrames;
import dev.opcua.stack.server.testing.TestChunks;
import io.netty.channel.epoll.Epoll;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The server on real sockets (127.0.0.1, ephemeral port): conversations, isolation, counters, shutdown
 * ({@link UaTcpServerIT}: a thousand connections).
 */
class UaTcpServerTest {

    private DiscoveryServerFixture fixture;

    @BeforeEach
    void watchLeaks() {
        LeakWatch.install();
    }

    @AfterEach
    void closeServer() throws InterruptedException {
        if (fixture != null) {
            fixture.close();
            assertThat(fixture.server().openConnections()).isZero();
            assertThat(fixture.server().secureChannels()).isZero();
        }
        LeakWatch.assertNoLeaks();
    }

    @Test
    void a_client_opens_a_channel_gets_endpoints_and_closes_it() {
        fixture = DiscoveryServerFixture.start();
        try (RawUaClient client = new RawUaClient(fixture.port())) {
            GetEndpointsResponse response = converse(client);

            assertThat(response.endpoints()).singleElement()
                    .satisfies(e -> assertThat(e.endpointUrl()).isEqualTo(fixture.endpointUrl()));
            assertThat(client.isClosedByServer()).as("closed after CLO").isTrue();
        }
    }

    @Test
    void the_server_serves_another_connection_while_one_is_hostile() {
        fixture = DiscoveryServerFixture.start();
        try (RawUaClient stalled = new RawUaClient(fixture.port());
                RawUaClient garbage = new RawUaClient(fixture.port());
                RawUaClient good = new RawUaClient(fixture.port())) {
            // A chunk that announces 60000 bytes and never delivers them, after the handshake.
            stalled.send(HEL).readFrame();
            stalled.send(OPN_ISSUE).readFrame();
            stalled.send(Hex.bytes("4D 53 47 46", "60 EA 00 00", "01 02 03 04"));
            garbage.send(new byte[] {'G', 'E', 'T', ' ', '/'});

            assertThat(converse(good).endpoints()).hasSize(1);
            byte[] error = garbage.readFrame();
            assertThat(ServerFrames.type(error)).isEqualTo(MessageType.ERR);
            assertThat(StatusCode.of(ServerFrames.errorStatus(error)))
                    .isEqualTo(StatusCode.of(StatusCodes.BadTcpMessageTypeInvalid));
            assertThat(garbage.isClosedByServer()).isTrue();
            assertThat(stalled.readTimeout(100).isClosedByServer()).as("still waiting for its chunk").isFalse();
        }
    }

    @Test
    void connections_beyond_max_connections_are_refused_with_not_enough_resources() {
        fixture = DiscoveryServerFixture.start(TransportQuotas.builder().maxConnections(2).build(), true);
        try (RawUaClient first = new RawUaClient(fixture.port());
                RawUaClient second = new RawUaClient(fixture.port())) {
            first.send(HEL).readFrame();
            second.send(HEL).readFrame();
            try (RawUaClient third = new RawUaClient(fixture.port())) {
                byte[] error = third.readFrame();

                assertThat(StatusCode.of(ServerFrames.errorStatus(error)))
                        .isEqualTo(StatusCode.of(StatusCodes.BadTcpNotEnoughResources));
                assertThat(third.isClosedByServer()).isTrue();
            }
            assertThat(converse(first.send(OPN_ISSUE), false).endpoints()).hasSize(1);
        }
    }

    @Test
    void a_silent_socket_is_answered_with_bad_timeout_and_closed_after_the_hello_timeout() {
        fixture = DiscoveryServerFixture.start(
                TransportQuotas.builder().helloTimeout(Duration.ofMillis(200)).build(), true);
        try (RawUaClient silent = new RawUaClient(fixture.port())) {
            long start = System.nanoTime();

            assertThat(StatusCode.of(ServerFrames.errorStatus(silent.readFrame())))
                    .isEqualTo(StatusCode.of(StatusCodes.BadTimeout));
            assertThat(silent.isClosedByServer()).isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(4));
        }
    }

    @Test
    void closing_the_server_closes_its_connections_and_stops_its_threads() {
        fixture = DiscoveryServerFixture.start(TransportQuotas.DEFAULT, false);
        assertThat(fixture.server().transportName()).isEqualTo("nio");
        try (RawUaClient client = new RawUaClient(fixture.port())) {
            client.send(HEL).readFrame();
            client.send(OPN_ISSUE).readFrame();

            fixture.close();

            assertThat(client.isClosedByServer()).isTrue();
            assertThat(fixture.server().openConnections()).isZero();
            // Netty completes the termination future just before an event loop's thread leaves its run method, so
            // a thread may still be alive for a moment after close() returned; it must be gone soon after
            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(10))
                    .untilAsserted(() -> assertThat(Thread.getAllStackTraces().keySet())
                            .noneMatch(t -> t.isAlive() && t.getName().startsWith("opcua-server-io-"))
                            .noneMatch(t -> t.isAlive() && t.getName().startsWith("opcua-worker-")));
        }
    }

    @Test
    void the_server_runs_on_native_epoll_where_available() {
        fixture = DiscoveryServerFixture.start();

        assertThat(fixture.server().transportName()).isIn("epoll", "nio");
        if (Epoll.isAvailable()) {
            assertThat(fixture.server().transportName()).isEqualTo("epoll");
        }
    }

    /** HEL, OPN, GetEndpoints, CLO over {@code client}; returns the GetEndpoints response. */
    private GetEndpointsResponse converse(RawUaClient client) {
        assertThat(client.send(HEL).readFrame()).isEqualTo(ACK);
        client.send(OPN_ISSUE);
        return converse(client, true);
    }

    private GetEndpointsResponse converse(RawUaClient client, boolean close) {
        ChannelSecurityToken token = ServerFrames.chunk(client.readFrame()).body(OpenSecureChannelResponse.class)
                .securityToken();
        client.send(TestChunks.getEndpoints(token.channelId(), token.tokenId(), 2, 2, fixture.endpointUrl()));
        GetEndpointsResponse response = ServerFrames.chunk(client.readFrame()).body(GetEndpointsResponse.class);
        if (close) {
            client.send(TestChunks.close(token.channelId(), token.tokenId(), 3, 3));
        }
        return response;
    }
}
