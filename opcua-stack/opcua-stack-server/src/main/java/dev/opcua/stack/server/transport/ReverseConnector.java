package dev.opcua.stack.server.transport;

import dev.opcua.stack.core.channel.messages.ReverseHelloMessage;
import dev.opcua.stack.core.transport.EndpointUrl;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's end of reverse connect (Part 6, 7.1.3): dials each configured client, sends a ReverseHello as the
 * connection's first message (Part 6, 7.1.2.6), then serves the connection like an accepted one, the client's
 * Hello first. Keeps {@link ReverseConnectSettings#readyConnections()} connections waiting per client: a connection
 * the client takes is replaced at once; one that fails, or closes before its Hello (the client refused it, or the
 * handshake timeout closed it), is dialled again after the retry interval. Runs on the server's event loops; the
 * connections are the server's like accepted ones and close with it.
 */
final class ReverseConnector {

    private static final Logger log = LoggerFactory.getLogger(ReverseConnector.class);

    private final ReverseConnectSettings settings;
    private final EventLoopGroup loops;
    private final Bootstrap bootstrap;
    private final UaTcpServerInitializer connections;
    private final AtomicLong attempts = new AtomicLong();
    private final AtomicLong failedAttempts = new AtomicLong();
    private final AtomicLong taken = new AtomicLong();
    private final AtomicLong closedUnused = new AtomicLong();
    private volatile boolean closed;

    /**
     * @param connections the pipeline of a server connection ({@link UaTcpServerInitializer}), after which the
     *        ReverseHello handler is added
     */
    ReverseConnector(ReverseConnectSettings settings, EventLoopGroup loops, IoTransport transport,
            UaTcpServerInitializer connections, int connectTimeoutMillis) {
        this.settings = settings;
        this.loops = loops;
        this.connections = connections;
        this.bootstrap = new Bootstrap()
                .group(loops)
                .channel(transport.socketChannelClass())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMillis);
    }

    /** Dials every client as many times as connections are to be kept ready. */
    void start() {
        for (ReverseConnectTarget target : settings.targets()) {
            Target state = new Target(target);
            log.info("reverse connect to {} for endpoint {}: {} connection(s) kept ready, retry every {} ms",
                    target.clientUrl(), target.endpointUrl(), settings.readyConnections(),
                    settings.retryInterval().toMillis());
            for (int i = 0; i < settings.readyConnections(); i++) {
                dial(state);
            }
        }
    }

    /** Stops dialling; the open connections close with the server. */
    void close() {
        closed = true;
    }

    /** What reverse connect did so far. */
    ReverseConnectStatistics statistics() {
        return new ReverseConnectStatistics(attempts.get(), failedAttempts.get(), taken.get(), closedUnused.get());
    }

    private void dial(Target target) {
        if (closed) {
            return;
        }
        attempts.incrementAndGet();
        EndpointUrl address = target.address;
        ChannelFuture connecting = bootstrap.clone().handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                connections.initChannel(ch);
                ch.pipeline().addAfter("traffic", "reverse-hello", new ReverseHelloSender(target));
            }
        }).connect(address.socketHost(), address.portOrDefault());
        connecting.addListener((ChannelFuture f) -> {
            if (f.isSuccess()) {
                if (target.failures.getAndSet(0) > 0) {
                    log.info("reverse connect to {} works again", target.config.clientUrl());
                }
                return;
            }
            failedAttempts.incrementAndGet();
            if (target.failures.getAndIncrement() == 0) {
                log.warn("reverse connect to {} failed, retrying every {} ms: {}", target.config.clientUrl(),
                        settings.retryInterval().toMillis(), f.cause().toString());
            }
            retry(target);
        });
    }

    private void retry(Target target) {
        if (closed) {
            return;
        }
        try {
            loops.next().schedule(() -> dial(target), settings.retryInterval().toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // the server is shutting its event loops down
        }
    }

    /** A client and its dialling state. */
    private static final class Target {
        final ReverseConnectTarget config;
        final EndpointUrl address;
        final AtomicInteger failures = new AtomicInteger();

        Target(ReverseConnectTarget config) {
            this.config = config;
            this.address = config.address();
        }
    }

    /**
     * After the byte counter: sends the ReverseHello once connected; the first bytes the client sends (its Hello)
     * mean the connection is taken, and the handler leaves the pipeline.
     */
    private final class ReverseHelloSender extends ChannelInboundHandlerAdapter {

        private final Target target;

        ReverseHelloSender(Target target) {
            this.target = target;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            ByteBuf hello = ctx.alloc().buffer();
            new ReverseHelloMessage(settings.serverUri(), target.config.endpointUrl()).encode(hello);
            ctx.writeAndFlush(hello);
            ctx.fireChannelActive();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof ByteBuf bytes && bytes.readableBytes() >= 3) {
                if (startsWithHello(bytes)) {
                    ctx.pipeline().remove(this);
                    taken.incrementAndGet();
                    dial(target);
                } else {
                    // the client's Error (it refused this server or endpoint) or garbage: the secure-channel
                    // handler answers it and closes, this handler retries after the interval
                    log.debug("reverse connection to {} answered with something other than a Hello",
                            target.config.clientUrl());
                }
            }
            ctx.fireChannelRead(msg);
        }

        private static boolean startsWithHello(ByteBuf bytes) {
            int at = bytes.readerIndex();
            return bytes.getByte(at) == 'H' && bytes.getByte(at + 1) == 'E' && bytes.getByte(at + 2) == 'L';
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            closedUnused.incrementAndGet();
            log.debug("reverse connection to {} closed before the client's Hello", target.config.clientUrl());
            retry(target);
            ctx.fireChannelInactive();
        }
    }
}
