package dev.opcua.stack.core.transport.uasc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.core.channel.ChunkEncoder;
import dev.opcua.stack.core.channel.MessageType;
import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.ChunkCrypto;
import dev.opcua.stack.core.transport.tcp.UaTcpFrameDecoder;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.structured.CloseSecureChannelRequest;
import dev.opcua.stack.core.types.structured.RequestHeader;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Chunks written from several threads and the event loop at once leave through the channel's queue in
 * sequence-number order, none lost (over loopback TCP, read back by a {@link UaTcpFrameDecoder}).
 */
class SecureChannelWriterTest {

    private static final CloseSecureChannelRequest MESSAGE = new CloseSecureChannelRequest(
            new RequestHeader(NodeId.NULL, DateTime.MIN_VALUE, 1, 0, null, 0, ExtensionObject.NULL));

    private final MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
    /** SequenceNumber and RequestId of each chunk received, in order; guarded by itself. */
    private final List<long[]> received = new ArrayList<>();
    private Channel server;
    private Channel client;
    private SecureChannelWriter writer;

    @BeforeEach
    void connect() throws Exception {
        server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new UaTcpFrameDecoder(8192), new ChannelInboundHandlerAdapter() {
                            @Override
                            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                ByteBuf chunk = (ByteBuf) msg;
                                try {
                                    synchronized (received) {
                                        received.add(new long[] {chunk.getUnsignedIntLE(16),
                                            chunk.getUnsignedIntLE(20)});
                                    }
                                } finally {
                                    chunk.release();
                                }
                            }
                        });
                    }
                })
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
        client = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .handler(new ChannelInboundHandlerAdapter()).connect(server.localAddress()).sync().channel();
        writer = new SecureChannelWriter(client, CodecRegistry.standard());
        writer.setChunkEncoder(new ChunkEncoder(8192, 0, 0, StatusCodes.BadRequestTooLarge));
        writer.setToken(1, 1, ChunkCrypto.NONE);
    }

    @AfterEach
    void close() {
        client.close().syncUninterruptibly();
        server.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @Test
    void chunks_of_many_threads_leave_in_sequence_number_order() throws Exception {
        int threads = 4;
        int each = 500;
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> writers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int first = t * each + 1;
            Thread w = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < each; i++) {
                    writer.writeSymmetricVoid(MessageType.MSG, first + i, MESSAGE);
                }
            });
            w.start();
            writers.add(w);
        }
        // and the event loop writes too, between the others
        client.eventLoop().execute(() -> writer.writeSymmetricVoid(MessageType.MSG, threads * each + 1, MESSAGE));
        start.countDown();
        for (Thread w : writers) {
            w.join(10_000);
        }
        List<long[]> chunks = awaitChunks(threads * each + 1);
        for (int i = 1; i < chunks.size(); i++) {
            assertThat(chunks.get(i)[0]).as("sequence number of chunk " + i).isEqualTo(chunks.get(i - 1)[0] + 1);
        }
        assertThat(chunks.stream().mapToLong(c -> c[1]).distinct().count()).isEqualTo(threads * each + 1);
    }

    /** The chunks received once there are {@code count}; fails if fewer come within 10 s, or more. */
    private List<long[]> awaitChunks(int count) {
        await("chunks received").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10))
                .until(() -> receivedSoFar().size() >= count);
        List<long[]> chunks = receivedSoFar();
        assertThat(chunks).as("chunks received").hasSize(count);
        return chunks;
    }

    private List<long[]> receivedSoFar() {
        synchronized (received) {
            return new ArrayList<>(received);
        }
    }
}
