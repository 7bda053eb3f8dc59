package dev.opcua.stack.server.transport;

import dev.opcua.stack.core.transport.uasc.ServerChannelCounters;
import dev.opcua.stack.core.transport.uasc.TransportRejection;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelPromise;
import io.netty.util.ReferenceCountUtil;
import java.nio.channels.ClosedChannelException;
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
 *       connection;</li>
 *   <li>a write while the queue holds more than twice the high mark (responses to requests admitted
 *       before reading stopped) is dropped and closes the connection at once, so the queue never holds
 *       much more than twice the mark plus one response.</li>
 * </ul>
 * Either way the close is logged with its reason and counted once as {@link TransportRejection#WRITE_STALL}.
 *
 * <p>One instance per connection, on its event loop.
 */
final class WriteStallGuard extends ChannelDuplexHandler {

    private static final Logger log = LoggerFactory.getLogger(WriteStallGuard.class);

    private final Duration stallTimeout;
    private final ServerChannelCounters counters;
    private Future<?> stallTimer;
    private boolean closing;

    WriteStallGuard(Duration stallTimeout, ServerChannelCounters counters) {
        this.stallTimeout = stallTimeout;
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
        long pending = pendingBytes(ctx.channel());
        if (closing || pending > 2L * ctx.channel().config().getWriteBufferHighWaterMark()) {
            ReferenceCountUtil.release(msg);
            promise.tryFailure(new ClosedChannelException());
            close(ctx, "its outbound queue holds " + pending + " bytes, more than twice the high-water mark");
            return;
        }
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
            close(ctx, "it has not read its responses for " + stallTimeout.toMillis() + " ms ("
                    + pendingBytes(channel) + " bytes queued)");
        }
    }

    private void close(ChannelHandlerContext ctx, String reason) {
        if (closing) {
            return;
        }
        closing = true;
        stopTimer();
        counters.reject(TransportRejection.WRITE_STALL);
        log.warn("{}: closing the connection: the peer does not read, {}; high-water mark {} bytes",
                ctx.channel().remoteAddress(), reason, ctx.channel().config().getWriteBufferHighWaterMark());
        ctx.close();
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
