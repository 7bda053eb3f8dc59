package dev.opcua.stack.server.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.client.transport.UaTcpClientChannel;
import dev.opcua.stack.core.channel.MessageType;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.server.transport.uasc.TransportRejection;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.testing.LeakWatch;
import dev.opcua.stack.server.testing.RawUaClient;
import dev.opcua.stack.server.testing.ServerFrames;
import dev.opcua.stack.server.testing.TestSessions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Half-open connections (TCP open, nothing sent) and a connection flood past maxConnections: the
 * sockets beyond the limit get ERR BadTcpNotEnoughResources at once (Part 6, 7.1.2.3), the half-open
 * ones within it ERR BadTimeout when the hello timeout passes, both counted; the well-behaved client,
 * connected before, is served during the flood, and a new client connects once it is over.
 */
class ConnectionFloodIT {

    private static final int MAX_CONNECTIONS = 4;
    private static final int FLOOD = 10;

    @BeforeEach
    void watchLeaks() {
        LeakWatch.install();
    }

    @AfterEach
    void nothingLeaked() throws InterruptedException {
        LeakWatch.assertNoLeaks();
    }

    @Test
    void half_open_sockets_time_out_and_sockets_past_the_limit_are_refused_while_the_good_client_is_served() throws Exception {
        try (HostileServer server = HostileServer.start(b -> b.transportQuotas(
                HostileServer.SHORT_TIMERS.toBuilder().maxConnections(MAX_CONNECTIONS).build())).withGoodClient()) {
            List<RawUaClient> flood = new ArrayList<>();
            try {
                for (int i = 0; i < FLOOD; i++) {
                    flood.add(new RawUaClient(server.port()).readTimeout(20_000));
                }
                server.assertGoodClientServed();

                int refused = 0;
                int timedOut = 0;
                for (RawUaClient socket : flood) {
                    byte[] error = socket.readFrame();
                    assertThat(ServerFrames.type(error)).isEqualTo(MessageType.ERR);
                    int status = ServerFrames.errorStatus(error);
                    assertThat(status).isIn(StatusCodes.BadTcpNotEnoughResources, StatusCodes.BadTimeout);
                    if (status == StatusCodes.BadTcpNotEnoughResources) {
                        refused++;
                    } else {
                        timedOut++;
                    }
                    assertThat(socket.isClosedByServer()).isTrue();
                }
                assertThat(refused).as("sockets past the limit").isGreaterThanOrEqualTo(FLOOD - MAX_CONNECTIONS + 1);
                assertThat(server.rejected(TransportRejection.CONNECTION_LIMIT)).isEqualTo(refused);
                assertThat(server.rejected(TransportRejection.HANDSHAKE_TIMEOUT)).isEqualTo(timedOut);
            } finally {
                flood.forEach(RawUaClient::close);
            }
            HostileServer.await("only the good client's connection is left",
                    () -> server.server().statistics().transport().openConnections() == 1);
            server.assertGoodClientServed();
            UaTcpClientChannel late = server.connect();
            NodeId session = TestSessions.open(late, server.endpointUrl());
            HostileServer.assertReadSucceeds(late, session);
            late.close().get(10, TimeUnit.SECONDS);
        }
    }
}
