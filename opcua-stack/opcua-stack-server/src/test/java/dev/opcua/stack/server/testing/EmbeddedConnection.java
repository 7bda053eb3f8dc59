package dev.opcua.stack.server.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.transport.tcp.UaTcpFrameDecoder;
import dev.opcua.stack.server.transport.uasc.SecureChannelIds;
import dev.opcua.stack.server.transport.uasc.ServerChannelCounters;
import dev.opcua.stack.server.transport.uasc.ServerChannelSettings;
import dev.opcua.stack.server.transport.uasc.ServerRequestListener;
import dev.opcua.stack.server.transport.uasc.UascServerHandler;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.netty.util.concurrent.MockTicker;
import io.netty.util.concurrent.Ticker;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One server connection in an {@link EmbeddedChannel}, with the pipeline of the real server: UA TCP
 * framing, flush consolidation, {@link UascServerHandler}. Tracks every input buffer so that
 * {@link #finish()} can check each was released, and allocates every buffer of the connection (inputs
 * and what the handlers allocate through the channel) from an allocator of its own that counts the
 * bytes still held: after the close nothing may be held, an exact leak check for each connection that,
 * unlike Netty's paranoid detector, needs no garbage collection and no stack trace per buffer.
 */
public final class EmbeddedConnection {

    public final EmbeddedChannel channel;
    private final List<ByteBuf> inputs = new ArrayList<>();
    private final MockTicker ticker = Ticker.newMockTicker();
    /** Unpooled and instrumented: its metric counts bytes not yet freed (Netty's detector watches it too). */
    private final UnpooledByteBufAllocator allocator = new UnpooledByteBufAllocator(false, false);

    public EmbeddedConnection(ServerChannelSettings settings, ServerRequestListener listener) {
        channel = EmbeddedChannel.builder()
                .ticker(ticker)
                .handlers(new UaTcpFrameDecoder(settings.quotas().maxBufferSize()),
                        new FlushConsolidationHandler(FlushConsolidationHandler.DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES, true),
                        new UascServerHandler(settings, listener))
                .register(false)
                .build();
        channel.config().setAllocator(allocator); // before the handlers are added, at registration
        try {
            channel.register();
        } catch (Exception e) {
            throw new IllegalStateException("the embedded channel did not register", e);
        }
    }

    /** Moves the channel's clock, which stands still otherwise, and runs what became due. */
    public void advance(long millis) {
        ticker.advance(millis, TimeUnit.MILLISECONDS);
        channel.runPendingTasks();
        channel.runPendingTasks(); // a timer's write schedules its flush as a task
    }

    /** Settings with these quotas, the root endpoint path and ids starting at {@link GoldenFrames#CHANNEL_ID}. */
    public static ServerChannelSettings settings(TransportQuotas quotas) {
        return new ServerChannelSettings(quotas, url -> url != null && url.matches("opc\\.tcp://[^/]+/?"),
                CodecRegistry.standard(), new SecureChannelIds(GoldenFrames.CHANNEL_ID_SEED),
                new ServerChannelCounters());
    }

    /** Feeds bytes as one read. */
    public EmbeddedConnection write(byte[] bytes) {
        return write(bytes, 0, bytes.length);
    }

    public EmbeddedConnection write(byte[] bytes, int offset, int length) {
        ByteBuf input = allocator.heapBuffer(length).writeBytes(bytes, offset, length);
        inputs.add(input);
        channel.writeInbound(input);
        channel.runPendingTasks();
        return this;
    }

    /** The next frame the server wrote, or null. */
    public byte[] read() {
        channel.runPendingTasks(); // the channel writer queues its writes on the event loop
        ByteBuf out = channel.readOutbound();
        if (out == null) {
            return null;
        }
        try {
            return ByteBufUtil.getBytes(out);
        } finally {
            out.release();
        }
    }

    /** Everything the server wrote so far. */
    public List<byte[]> readAll() {
        List<byte[]> frames = new ArrayList<>();
        for (byte[] frame = read(); frame != null; frame = read()) {
            frames.add(frame);
        }
        return frames;
    }

    /** Bytes of this connection's buffers not yet freed (heap and direct). */
    public long heldBytes() {
        return allocator.metric().usedHeapMemory() + allocator.metric().usedDirectMemory();
    }

    /**
     * Closes the channel, releases what is left in its queues and checks that every input buffer was
     * released and that no buffer of the connection is still held.
     */
    public void finish() {
        channel.finishAndReleaseAll();
        for (ByteBuf input : inputs) {
            assertThat(input.refCnt()).as("input buffer released").isZero();
        }
        assertThat(heldBytes()).as("bytes of ByteBufs still held after the close (a leak)").isZero();
    }
}
