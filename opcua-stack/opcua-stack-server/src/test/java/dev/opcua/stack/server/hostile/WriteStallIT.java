package dev.opcua.stack.server.hostile;

import dev.opcua.stack.client.transport.UaTcpClientChannel;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.server.transport.uasc.TransportRejection;
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
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A client that never reads its socket while it asks for large responses: the server does not buffer
 * without bound. Past the outbound high-water mark it stops reading that connection and closes it
 * when the write stall timeout passes ({@link TransportRejection#WRITE_STALL}); the responses to the
 * requests it had already read are capped by the write buffer limit, past which it closes at once
 * ({@link TransportRejection#WRITE_BUFFER_LIMIT}). Both are logged and counted; the well-behaved client
 * is served during and after.
 */
class WriteStallIT {

    private static final int HIGH_WATER_MARK = 256 * 1024;
    private static final int READS = 80; // 32 MB of responses: far more than the socket buffers hold

    @BeforeEach
    void watchLeaks() {
        LeakWatch.install();
    }

    @AfterEach
    void nothingLeaked() throws InterruptedException {
        LeakWatch.assertNoLeaks();
    }

    @Test
    void a_client_that_never_reads_is_closed_once_its_outbound_queue_stays_above_the_high_water_mark() throws Exception {
        // a limit above all 80 responses: only the stall timer can close the connection
        assertDeafClientClosed(64 << 20, TransportRejection.WRITE_STALL);
    }

    @Test
    void responses_queued_past_the_write_buffer_limit_close_the_connection_at_once() throws Exception {
        // the 80 requests arrive in one or a few reads, before reading stops: their responses meet the limit
        assertDeafClientClosed(2 << 20, TransportRejection.WRITE_BUFFER_LIMIT);
    }

    private static void assertDeafClientClosed(int writeBufferLimit, TransportRejection expected) throws Exception {
        InMemoryNodeManager plant = InMemoryNodeManager.builder("urn:test:hostile")
                // 400 kB a Read, encoded in one copy (an array would be 50,000 writes under paranoid leak detection)
                .variable("Big", BuiltinType.ByteString, v -> v.value(Variant.of(ByteString.wrap(new byte[400_000]))))
                .build();
        try (HostileServer server = HostileServer.start(b -> b.nodeManager(plant).transportQuotas(
                HostileServer.SHORT_TIMERS.toBuilder().writeBufferHighWaterMark(HIGH_WATER_MARK)
                        .writeBufferLimit(writeBufferLimit).build()))
                .withGoodClient()) {
            UaTcpClientChannel deaf = server.connect(TransportQuotas.builder().maxMessageSize(1 << 20).build());
            NodeId session = TestSessions.open(deaf, server.endpointUrl());
            // A fixed receive buffer: Linux would otherwise grow it (tcp_rmem, up to 32 MB here) and absorb it all.
            deaf.nettyChannel().config().setOption(ChannelOption.SO_RCVBUF, 64 * 1024);
            // From now on it never reads its socket (its frame decoder asks for no further read either).
            deaf.nettyChannel().config().setAutoRead(false);
            ReadValueId[] big = {new ReadValueId(plant.nodeId("Big"), AttributeIds.Value, null, QualifiedName.NULL)};
            // All requests leave in one write, so that the server reads many at once: flushed one by one, they
            // could arrive a few at a time, and reading stop at the high-water mark with two responses queued,
            // below the write buffer limit (seen once in CI: closed by the stall timer instead)
            ChannelOutboundHandlerAdapter holdFlushes = new ChannelOutboundHandlerAdapter() {
                @Override
                public void flush(ChannelHandlerContext ctx) {
                    // held: the requests stay in the outbound buffer until the handler is removed
                }
            };
            deaf.nettyChannel().pipeline().addFirst(holdFlushes);
            for (int i = 0; i < READS; i++) {
                deaf.request(new ReadRequest(TestSessions.header(session), 0, TimestampsToReturn.Neither, big),
                        ReadResponse.class);
            }
            deaf.nettyChannel().eventLoop().submit(() -> { // after the writes queued on the event loop before it
                deaf.nettyChannel().pipeline().remove(holdFlushes);
                deaf.nettyChannel().flush();
            }).get(10, TimeUnit.SECONDS);
            server.assertGoodClientServed();

            HostileServer.await("the deaf client's connection was closed (" + expected + ")",
                    () -> server.rejected(expected) == 1);
            HostileServer.await("only the good client's connection is left",
                    () -> server.transport().openConnections() == 1);
            server.assertGoodClientServed();
            deaf.nettyChannel().close().awaitUninterruptibly(10, TimeUnit.SECONDS);
        }
    }
}
