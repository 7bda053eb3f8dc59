package dev.opcua.stack.server.transport;

import dev.opcua.stack.core.transport.uasc.ServerChannelCounters;
import dev.opcua.stack.core.transport.uasc.TransportRejection;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bounds what one connection can make the server buffer for a peer that does not read its responses
 * (DESIGN.md section 9). When the connection's outbound queue passes its high-water mark (Netty's
 * WriteBufferWaterMark, set from {@code writeBufferHighWaterMark}) the channel turns unwritable: the
 * server then stops reading that connection, so no further requests add responses (TCP pushes back
 * on the peer), and starts the stall timer. Below the low mark again, reading resumes and the timer
 * stops; a queue still above the mark when the timer fires closes the connection, logged with its
 * reason and counted as {@link TransportRejection#WRITE_STALL}. What stays queued meanwhile is bounded
 * by the requests already admitted (the request queue's bound) times the largest response.
 *
 * <p>One instance per connection, on its event loop.
 */
final class WriteStallGuard extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(WriteStallGuard.class);

    private final Duration stallTimeout;
    private final ServerChannelCounters counters;
    private Future<?> stallTimer;

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
            counters.reject(TransportRejection.WRITE_STALL);
            log.warn("{}: the peer has not read its responses for {} ms ({} bytes queued, high-water mark {}); "
                    + "closing the connection", channel.remoteAddress(), stallTimeout.toMillis(),
                    pendingBytes(channel), channel.config().getWriteBufferHighWaterMark());
            channel.close();
        }
    }

    private static long pendingBytes(Channel channel) {
        var buffer = channel.unsafe().outboundBuffer();
        return buffer == null ? 0 : buffer.totalPendingWriteBytes();
    }

    private void stopTimer() {
        if (stallTimer != null) {
            stallTimer.cancel(false);
            stallTimer = null;
        }
    }
}
