package dev.opcua.stack.server.transport;

import dev.opcua.stack.core.transport.tcp.UaTcpFrameDecoder;
import dev.opcua.stack.server.transport.uasc.ServerChannelSettings;
import dev.opcua.stack.server.transport.uasc.ServerRequestListener;
import dev.opcua.stack.server.transport.uasc.UascServerHandler;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.handler.flush.FlushConsolidationHandler;
import java.util.Set;

/**
 * The pipeline of each accepted socket: byte counting, the outbound high-water mark's policy and
 * the write buffer limit ({@link WriteStallGuard}), UA TCP framing, flush consolidation, the secure channel.
 * Flushes are coalesced per event-loop turn also when they come from worker threads, so responses
 * that several workers finish together leave in one write (the design's request path).
 */
final class UaTcpServerInitializer extends ChannelInitializer<Channel> {

    private final ServerChannelSettings settings;
    private final ServerRequestListener listener;
    private final Set<Channel> openChannels;
    private final TrafficCounter trafficCounter;

    UaTcpServerInitializer(ServerChannelSettings settings, ServerRequestListener listener, Set<Channel> openChannels) {
        this.settings = settings;
        this.listener = listener;
        this.openChannels = openChannels;
        this.trafficCounter = new TrafficCounter(settings.counters());
    }

    @Override
    protected void initChannel(Channel ch) {
        openChannels.add(ch);
        ch.closeFuture().addListener(f -> openChannels.remove(ch));
        // Before the Hello only connection messages arrive; maxBufferSize (>= 8192) bounds them.
        ch.pipeline().addLast("traffic", trafficCounter);
        ch.pipeline().addLast("write-stall", new WriteStallGuard(settings.quotas().writeStallTimeout(),
                settings.quotas().writeBufferLimit(), settings.counters()));
        ch.pipeline().addLast("uatcp-framing", new UaTcpFrameDecoder(settings.quotas().maxBufferSize()));
        ch.pipeline().addLast("flush-consolidation",
                new FlushConsolidationHandler(FlushConsolidationHandler.DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES, true));
        ch.pipeline().addLast("uasc", new UascServerHandler(settings, listener));
    }
}
