package dev.opcua.stack.server.transport;

import dev.opcua.stack.core.transport.uasc.ServerChannelCounters;
import dev.opcua.stack.core.transport.uasc.TransportRejection;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundBuffer;
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
 * What stays queued meanwhile is bounded by the requests admitted before reading stopped (the request
 * queue's bound and the parked Publish requests) times the largest response the client accepts. The
 * handler does not intercept writes: a hard cap checked on every write was tried and left out, as
 * {@code OpcUaServerFloodTest}'s timing assertion failed in each of four runs with it (it fails now and
 * then without it too, so the link is not established).
 *
 * <p>One instance per connection, on its event loop.
 */
final class WriteStallGuard extends ChannelInboundHandlerAdapter {

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
