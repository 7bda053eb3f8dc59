package dev.opcua.stack.server.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.client.transport.UaTcpClientChannel;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.transport.uasc.TransportRejection;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadResponse;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.testing.LeakWatch;
import dev.opcua.stack.server.testing.TestSessions;
import io.netty.channel.ChannelOption;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/**
 * A client that never reads its socket while it asks for large responses: the server does not buffer
 * without bound. Past the outbound high-water mark it stops reading that connection and closes it
 * when the write stall timeout passes, logged and counted as
 * {@link TransportRejection#WRITE_STALL}; the well-behaved client is served during and after.
 */
class WriteStallTest {

    private static final int HIGH_WATER_MARK = 256 * 1024;

    @BeforeEach
    void watchLeaks() {
        LeakWatch.install();
    }

    @AfterEach
    void nothingLeaked() throws InterruptedException {
        LeakWatch.assertNoLeaks();
    }

    @Test
    @Disabled("not reliable yet (issue 20 note, 2026-12-02): on an idle machine the write-stall close did not happen "
            + "within 20 s in 4 of 6 runs, while it happened within 1 s in the other 2 (and always under load); "
            + "WriteStallGuardTest covers the guard's policy, the end-to-end cause is open")
    void aClientThatNeverReadsIsClosedOnceItsOutboundQueuePassesTheHighWaterMark() throws Exception {
        InMemoryNodeManager plant = InMemoryNodeManager.builder("urn:test:hostile")
                // 400 kB a Read, encoded in one copy (an array would be 50,000 writes under paranoid leak detection)
                .variable("Big", BuiltinType.ByteString, v -> v.value(Variant.of(ByteString.wrap(new byte[400_000]))))
                .build();
        try (HostileServer server = HostileServer.start(b -> b.nodeManager(plant).transportQuotas(
                HostileServer.SHORT_TIMERS.toBuilder().writeBufferHighWaterMark(HIGH_WATER_MARK).build()))
                .withGoodClient()) {
            UaTcpClientChannel deaf = server.connect(TransportQuotas.builder().maxMessageSize(1 << 20).build());
            NodeId session = TestSessions.open(deaf, server.endpointUrl());
            // A fixed receive buffer: Linux would otherwise grow it (tcp_rmem, up to 32 MB here) and absorb it all.
            deaf.nettyChannel().config().setOption(ChannelOption.SO_RCVBUF, 64 * 1024);
            deaf.nettyChannel().config().setAutoRead(false); // from now on it never reads its socket
            ReadValueId[] big = {new ReadValueId(plant.nodeId("Big"), AttributeIds.Value, null, QualifiedName.NULL)};
            for (int i = 0; i < 80; i++) { // 32 MB of responses: far more than the socket buffers hold
                deaf.request(new ReadRequest(TestSessions.header(session), 0, TimestampsToReturn.Neither, big),
                        ReadResponse.class);
            }
            server.assertGoodClientServed();

            HostileServer.await("the deaf client's connection was closed",
                    () -> server.rejected(TransportRejection.WRITE_STALL) == 1);
            HostileServer.await("only the good client's connection is left",
                    () -> server.transport().openConnections() == 1);
            server.assertGoodClientServed();
            deaf.nettyChannel().close().awaitUninterruptibly(10, TimeUnit.SECONDS);
        }
    }
}
