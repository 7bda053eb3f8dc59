package dev.opcua.stack.server.services;

import static dev.opcua.stack.server.testing.GoldenFrames.OPN_ISSUE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.core.channel.ChunkType;
import dev.opcua.stack.core.channel.MessageType;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.server.transport.uasc.ResponseHeaders;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.structured.ApplicationDescription;
import dev.opcua.stack.core.types.structured.ChannelSecurityToken;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import dev.opcua.stack.core.types.structured.FindServersRequest;
import dev.opcua.stack.core.types.structured.FindServersResponse;
import dev.opcua.stack.core.types.structured.GetEndpointsRequest;
import dev.opcua.stack.core.types.structured.GetEndpointsResponse;
import dev.opcua.stack.core.types.structured.OpenSecureChannelResponse;
import dev.opcua.stack.core.types.structured.ServiceFault;
import dev.opcua.stack.server.requests.RejectReason;
import dev.opcua.stack.server.requests.RequestStatistics;
import dev.opcua.stack.server.testing.LeakWatch;
import dev.opcua.stack.server.testing.RawUaClient;
import dev.opcua.stack.server.testing.ServerFrames;
import dev.opcua.stack.server.testing.TestChunks;
import dev.opcua.stack.server.transport.UaTcpServer;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The request queue on real sockets: a channel that floods the server is refused with BadServerTooBusy
 * (Part 4, 7.39.2) while another channel's discovery call still gets through, ahead of the flood.
 */
class ServiceDispatcherFloodIT {

    /** How long the flood may take to reach the server, and how often the test looks. */
    private static final Duration WAIT = Duration.ofSeconds(5);
    private static final Duration POLL = Duration.ofMillis(2);

    private static final int FLOOD = 30;

    private final CountDownLatch gate = new CountDownLatch(1);
    private final List<String> handled = new CopyOnWriteArrayList<>();
    private ServiceDispatcher dispatcher;
    private UaTcpServer server;

    @BeforeEach
    void start() {
        LeakWatch.install();
        dispatcher = ServiceDispatcher.builder()
                .minThreads(1)
                .maxThreads(1)
                .maxQueued(4)
                .registerSync(GetEndpointsRequest.class, (channel, request) -> {
                    waitFor(gate); // the first one holds the only worker until the test has queued everything
                    handled.add("GetEndpoints");
                    return new GetEndpointsResponse(ResponseHeaders.good(request.requestHeader().requestHandle()),
                            new EndpointDescription[0]);
                })
                .registerSync(FindServersRequest.class, (channel, request) -> {
                    handled.add("FindServers");
                    return new FindServersResponse(ResponseHeaders.good(request.requestHeader().requestHandle()),
                            new ApplicationDescription[0]);
                })
                .build();
        server = UaTcpServer.builder()
                .bindAddress("127.0.0.1")
                .port(0)
                .ioThreads(2)
                .endpointPaths(List.of("/"))
                .requestListener(dispatcher)
                .build()
                .start();
    }

    @AfterEach
    void stop() throws InterruptedException {
        gate.countDown();
        server.close();
        dispatcher.close();
        LeakWatch.assertNoLeaks();
    }

    @Test
    void a_flooding_channel_gets_server_too_busy_while_another_channels_find_servers_gets_through_ahead_of_the_flood() {
        String url = "opc.tcp://localhost:" + server.port() + "/";
        RequestStatistics statistics = dispatcher.statistics();
        try (RawUaClient greedy = new RawUaClient(server.port()); RawUaClient modest = new RawUaClient(server.port())) {
            ChannelSecurityToken greedyToken = open(greedy, url);
            ByteArrayOutputStream flood = new ByteArrayOutputStream();
            for (int i = 0; i < FLOOD; i++) {
                flood.writeBytes(TestChunks.getEndpoints(greedyToken.channelId(), greedyToken.tokenId(), 2 + i, 2 + i,
                        url));
            }
            greedy.send(flood.toByteArray());
            await().atMost(WAIT).pollInterval(POLL)
                    .until(() -> statistics.admitted() + statistics.rejected(RejectReason.TOO_BUSY) == FLOOD);

            long refused = statistics.rejected(RejectReason.TOO_BUSY);
            // 4 in the priority lane and 4 in the ordinary queue, plus the one the worker took if it took it
            // before the flood filled the lanes (and one more lane slot it then freed): 8 to 10 admitted
            assertThat(refused).isBetween(20L, 22L);
            for (int i = 0; i < refused; i++) {
                ServerFrames.Chunk answer = ServerFrames.chunk(greedy.readFrame());
                assertThat(answer.body(ServiceFault.class).responseHeader().serviceResult())
                        .isEqualTo(StatusCode.of(StatusCodes.BadServerTooBusy));
            }

            ChannelSecurityToken modestToken = open(modest, url);
            modest.send(TestChunks.symmetric(MessageType.MSG, ChunkType.FINAL, modestToken.channelId(),
                    modestToken.tokenId(), 2, 2, new FindServersRequest(TestChunks.requestHeader(2), url, null, null)));
            await().atMost(WAIT).pollInterval(POLL)
                    .until(() -> statistics.admitted() + statistics.rejected(RejectReason.TOO_BUSY) == FLOOD + 1);
            gate.countDown();

            FindServersResponse found = ServerFrames.chunk(modest.readFrame()).body(FindServersResponse.class);
            assertThat(found.responseHeader().requestHandle()).isEqualTo(2);
            for (int i = 0; i < FLOOD - refused; i++) {
                assertThat(ServerFrames.chunk(greedy.readFrame()).message()).isInstanceOf(GetEndpointsResponse.class);
            }
            int findServers = handled.indexOf("FindServers");
            assertThat(handled).hasSize((int) (FLOOD - refused) + 1);
            assertThat(handled.size() - 1 - findServers).as("GetEndpoints of the flood served after FindServers")
                    .isGreaterThanOrEqualTo(3);
        }
    }

    private static ChannelSecurityToken open(RawUaClient client, String url) {
        client.send(TestChunks.hello(url)).readFrame();
        return ServerFrames.chunk(client.send(OPN_ISSUE).readFrame()).body(OpenSecureChannelResponse.class)
                .securityToken();
    }

    private static void waitFor(CountDownLatch latch) {
        try {
            latch.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
