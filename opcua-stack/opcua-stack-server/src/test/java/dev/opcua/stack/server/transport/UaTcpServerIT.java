package dev.opcua.stack.server.transport;

import static dev.opcua.stack.server.testing.GoldenFrames.HEL;
import static dev.opcua.stack.server.testing.GoldenFrames.OPN_ISSUE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.core.types.structured.ChannelSecurityToken;
import dev.opcua.stack.core.types.structured.OpenSecureChannelResponse;
import dev.opcua.stack.server.testing.DiscoveryServerFixture;
import dev.opcua.stack.server.testing.LeakWatch;
import dev.opcua.stack.server.testing.RawUaClient;
import dev.opcua.stack.server.testing.ServerFrames;
import dev.opcua.stack.server.testing.TestChunks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The server on real sockets (127.0.0.1, ephemeral port) under a thousand connections from four threads. */
class UaTcpServerIT {

    @Test
    void a_thousand_connections_opened_and_closed_leave_no_connection_or_channel_behind() throws Exception {
        LeakWatch.install();
        try (DiscoveryServerFixture fixture = DiscoveryServerFixture.start()) {
            openAndClose(fixture, 4, 250);

            // the server sees the last dropped sockets close a moment after the clients are done
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10)).untilAsserted(() -> {
                assertThat(fixture.server().openConnections()).as("open connections").isZero();
                assertThat(fixture.server().secureChannels()).as("secure channels").isZero();
            });
            assertThat(fixture.server().channelSettings().channelIds().liveCount()).isZero();
        }
        LeakWatch.assertNoLeaks();
    }

    /**
     * Opens {@code perThread} connections one after the other on each of {@code threads} threads: HEL, OPN, then
     * CLO for every second one, while the others just drop the socket.
     */
    private static void openAndClose(DiscoveryServerFixture fixture, int threads, int perThread) throws Exception {
        ExecutorService clients = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> runs = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                runs.add(clients.submit(() -> {
                    for (int i = 0; i < perThread; i++) {
                        try (RawUaClient client = new RawUaClient(fixture.port())) {
                            client.send(HEL).readFrame();
                            ChannelSecurityToken token = ServerFrames.chunk(client.send(OPN_ISSUE).readFrame())
                                    .body(OpenSecureChannelResponse.class).securityToken();
                            if ((i + thread) % 2 == 0) {
                                client.send(TestChunks.close(token.channelId(), token.tokenId(), 2, 2));
                                assertThat(client.isClosedByServer()).isTrue();
                            } // else: the client just drops the socket
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> run : runs) {
                run.get(30, TimeUnit.SECONDS);
            }
        } finally {
            clients.shutdownNow();
        }
    }
}
