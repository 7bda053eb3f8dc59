package dev.opcua.stack.server.transport;

import dev.opcua.stack.server.transport.uasc.ServerChannelCounters;
import dev.opcua.stack.server.transport.uasc.TransportRejection;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufHolder;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelPromise;
import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bounds what one connection can make the server buffer for a peer that does not read its responses
 * (DESIGN.md section 9). Netty's WriteBufferWaterMark (high mark {@code writeBufferHighWaterMark}, low
 * mark half of it) turns the channel unwritable when its outbound queue passes the high mark. Then:
 * <ul>
 *   <li>the server stops reading the connection, so no further requests add responses (TCP pushes back
 *       on the peer), and starts the stall timer; below the low mark again, reading resumes and the timer
 *       stops;</li>
 *   <li>a queue still above the high mark when the timer ({@code writeStallTimeout}) fires closes the
 *       connection, logged with its reason and counted as {@link TransportRejection#WRITE_STALL}.</li>
 * </ul>
 * The requests read before reading stopped are still answered, and a peer that pipelines many of
 * them (a single socket read can hold hundreds) could queue their responses far past the high mark.
 * A hard bound caps that: a chunk that would take the queue past {@code writeBufferLimit} closes the
 * connection at once, counted as {@link TransportRejection#WRITE_BUFFER_LIMIT}. Closing is the only
 * policy that keeps the protocol whole here: the chunk already carries its sequence number, so
 * dropping it (or the rest of its message) would show the peer a gap, and answering needs the very
 * queue that is full. The check is one read of the queue's byte count per chunk.
 *
 * <p>One instance per connection, on its event loop.
 */
final class WriteStallGuard extends ChannelDuplexHandler {

    private static final Logger log = LoggerFactory.getLogger(WriteStallGuard.class);

    private final Duration stallTimeout;
    private final long writeBufferLimit;
    private final ServerChannelCounters counters;
    private Future<?> stallTimer;
    private boolean closing;

    WriteStallGuard(Duration stallTimeout, int writeBufferLimit, ServerChannelCounters counters) {
        this.stallTimeout = stallTimeout;
        this.writeBufferLimit = writeBufferLimit;
        this.counters = counters;
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        Channel channel = ctx.channel();
        if (!channel.isWritable()) {
            channel.config().setAutoRead(false);
            if (stallTimer == null) {
                stallTimer = ctx.executor().schedule(() -> onStall(ctx), stallTimeout.toNanos(), TimeUnit.NANOSECONDS);
            }
        } else {
            stopTimer();
            channel.config().setAutoRead(true);
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!closing) {
            long queued = pendingBytes(ctx.channel());
            long size = sizeOf(msg);
            if (queued + size > writeBufferLimit) {
                close(ctx, TransportRejection.WRITE_BUFFER_LIMIT, "a " + size + "-byte chunk would take its queue of "
                        + queued + " bytes past the write buffer limit of " + writeBufferLimit + " bytes");
            }
        }
        // After the close the head fails the write and releases the chunk, as for any write to a closed channel.
        ctx.write(msg, promise);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        stopTimer();
        ctx.fireChannelInactive();
    }

    private void onStall(ChannelHandlerContext ctx) {
        stallTimer = null;
        Channel channel = ctx.channel();
        if (channel.isActive() && !channel.isWritable()) {
            close(ctx, TransportRejection.WRITE_STALL, "it has not read its responses for "
                    + stallTimeout.toMillis() + " ms (" + pendingBytes(channel) + " bytes queued)");
        }
    }

    private void close(ChannelHandlerContext ctx, TransportRejection reason, String detail) {
        if (closing) {
            return;
        }
        closing = true;
        stopTimer();
        counters.reject(reason);
        log.warn("{}: closing the connection: the peer does not read, {}; high-water mark {} bytes",
                ctx.channel().remoteAddress(), detail, ctx.channel().config().getWriteBufferHighWaterMark());
        ctx.close();
    }

    private static long sizeOf(Object msg) {
        if (msg instanceof ByteBuf buf) {
            return buf.readableBytes();
        }
        return msg instanceof ByteBufHolder holder ? holder.content().readableBytes() : 0;
    }

    private static long pendingBytes(Channel channel) {
        ChannelOutboundBuffer buffer = channel.unsafe().outboundBuffer();
        return buffer == null ? 0 : buffer.totalPendingWriteBytes();
    }

    private void stopTimer() {
        if (stallTimer != null) {
            stallTimer.cancel(false);
            stallTimer = null;
        }
    }
}
