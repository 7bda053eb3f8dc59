package dev.opcua.stack.server.transport;

import dev.opcua.stack.server.transport.uasc.ServerChannelCounters;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;

/**
 * First handler of every socket: counts the bytes read and written into the server's
 * {@link ServerChannelCounters} (the {@code opcua.server.transport.received|sent} meters), and passes
 * everything on untouched. One shared instance per server.
 */
@ChannelHandler.Sharable
final class TrafficCounter extends ChannelDuplexHandler {

    private final ServerChannelCounters counters;

    TrafficCounter(ServerChannelCounters counters) {
        this.counters = counters;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof ByteBuf buf) {
            counters.received(buf.readableBytes());
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof ByteBuf buf) {
            counters.sent(buf.readableBytes());
        }
        ctx.write(msg, promise);
    }
}
