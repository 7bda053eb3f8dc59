package dev.opcua.stack.client.transport;

import dev.opcua.stack.client.transport.uasc.ClientChannelSecurity;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.channel.messages.ErrorMessage;
import dev.opcua.stack.core.channel.messages.ReverseHelloMessage;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.transport.tcp.UaTcpFrameDecoder;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client's end of reverse connect (Part 6, 7.1.3): listens for connections that servers open, reads each one's
 * ReverseHello (Part 6, 7.1.2.6) and opens a secure channel over it for the {@link #accept caller} that expects
 * that server. A connection is kept only for a server some caller expects, by ServerUri and, when the caller names
 * one, EndpointUrl; with no caller waiting it is held (at most {@code maxPending}) until one asks, or until the
 * server gives up on it. Everything else is refused with an Error message and counted: a ReverseHello from a server
 * nobody expects or for another endpoint (BadTcpEndpointUrlInvalid), a malformed one, none within the hello
 * timeout, connections beyond the pending limit.
 *
 * <p>Thread-safe. Runs on the {@link ClientResources}' event loops; the channels it hands out are ordinary
 * {@link UaTcpClientChannel}s. {@link #close()} stops listening and closes the connections not handed out.
 */
public final class ReverseConnectListener implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ReverseConnectListener.class);

    /** The largest ReverseHello: the header and two strings of 4095 bytes with their lengths. */
    static final int MAX_REVERSE_HELLO_SIZE = 8 + 2 * (4 + 4095);

    /** How long a server's connection may take to send its ReverseHello when none is configured. */
    public static final Duration DEFAULT_HELLO_TIMEOUT = Duration.ofSeconds(10);

    /** Connections held, validated or not yet, when none is configured. */
    public static final int DEFAULT_MAX_PENDING = 16;

    private final ClientResources resources;
    private final Duration helloTimeout;
    private final int maxPending;
    private final Channel serverChannel;
    private final InetSocketAddress localAddress;

    /** Guarded by {@code this}: callers waiting, servers expected, validated connections not yet taken. */
    private final List<Waiter> waiters = new ArrayList<>();
    private final List<Expected> expected = new ArrayList<>();
    private final List<Pending> pending = new ArrayList<>();

    /** Connections open and not handed out, and their count, reserved before one is added: the flood bound. */
    private final Set<Channel> held = ConcurrentHashMap.newKeySet();
    private final AtomicInteger heldCount = new AtomicInteger();
    private final AtomicLong connections = new AtomicLong();
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong timedOut = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private volatile boolean closed;

    private ReverseConnectListener(ClientResources resources, String bindAddress, int port, Duration helloTimeout,
            int maxPending) {
        this.resources = resources;
        this.helloTimeout = helloTimeout;
        this.maxPending = maxPending;
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(resources.eventLoopGroup())
                .channel(resources.serverSocketChannelType())
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new UaTcpFrameDecoder(MAX_REVERSE_HELLO_SIZE),
                                new ReverseHelloReader());
                    }
                });
        try {
            this.serverChannel = bootstrap.bind(bindAddress, port).sync().channel();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while binding " + bindAddress + ":" + port, e);
        } catch (Exception e) {
            throw new IllegalStateException("cannot listen for reverse connections on " + bindAddress + ":" + port
                    + ": " + e, e);
        }
        this.localAddress = (InetSocketAddress) serverChannel.localAddress();
        log.info("listening for reverse connections on {}", localAddress);
    }

    /**
     * Listens on {@code bindAddress:port} (port 0: an ephemeral one) with the default hello timeout and pending
     * limit.
     *
     * @throws IllegalStateException when the port cannot be bound (the message names it)
     */
    public static ReverseConnectListener listen(String bindAddress, int port, ClientResources resources) {
        return listen(bindAddress, port, resources, DEFAULT_HELLO_TIMEOUT, DEFAULT_MAX_PENDING);
    }

    /**
     * @param helloTimeout how long a connection may take to send its ReverseHello before it is closed
     * @param maxPending connections held at once that no caller took yet, their ReverseHello read or not; more are
     *        closed at once (a flood of connections costs no more than this)
     */
    public static ReverseConnectListener listen(String bindAddress, int port, ClientResources resources,
            Duration helloTimeout, int maxPending) {
        Objects.requireNonNull(bindAddress, "bindAddress");
        Objects.requireNonNull(resources, "resources");
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port must be 0 to 65535, was " + port);
        }
        if (helloTimeout.toMillis() < 1) {
            throw new IllegalArgumentException("helloTimeout must be 1 ms or more, was " + helloTimeout);
        }
        if (maxPending < 1) {
            throw new IllegalArgumentException("maxPending must be 1 or more, was " + maxPending);
        }
        return new ReverseConnectListener(resources, bindAddress, port, helloTimeout, maxPending);
    }

    /** The port listened on. */
    public int port() {
        return localAddress.getPort();
    }

    /**
     * Expects a server from now on: its connections are held until a caller takes them, not refused.
     *
     * @param endpointUrl the EndpointUrl its ReverseHello must name, or null for any
     */
    public synchronized void expect(String serverUri, String endpointUrl) {
        Expected server = new Expected(Objects.requireNonNull(serverUri, "serverUri"), endpointUrl);
        if (!expected.contains(server)) {
            expected.add(server);
        }
    }

    /**
     * Opens a secure channel over the next connection of the server {@code serverUri}: one held already, or the
     * next that arrives. Expects the server from now on ({@link #expect}).
     *
     * @param endpointUrl the EndpointUrl the ReverseHello must name, or null for any; the Hello names the
     *        ReverseHello's
     * @return completes with the open channel, or fails as {@link UaTcpClientChannel#connect} does once a
     *         connection was taken; waits until a server connects (cancel it, or add a timeout, to stop waiting);
     *         fails with BadServerHalted when the listener closes
     */
    public CompletableFuture<UaTcpClientChannel> accept(String serverUri, String endpointUrl, TransportQuotas quotas,
            ClientChannelSecurity security) {
        Objects.requireNonNull(quotas, "quotas");
        Objects.requireNonNull(security, "security");
        Waiter waiter = new Waiter(new Expected(Objects.requireNonNull(serverUri, "serverUri"), endpointUrl), quotas,
                security, new CompletableFuture<>());
        Pending ready = null;
        synchronized (this) {
            if (closed) {
                return CompletableFuture.failedFuture(closedError());
            }
            expect(serverUri, endpointUrl);
            for (Iterator<Pending> it = pending.iterator(); it.hasNext(); ) {
                Pending candidate = it.next();
                if (waiter.server.matches(candidate.hello)) {
                    it.remove();
                    ready = candidate;
                    break;
                }
            }
            if (ready == null) {
                waiters.add(waiter);
            }
        }
        if (ready != null) {
            Pending taken = ready;
            taken.channel.eventLoop().execute(() -> handOver(taken.channel, taken.hello, waiter));
        }
        waiter.result.whenComplete((channel, failure) -> {
            if (waiter.result.isCancelled()) {
                synchronized (this) {
                    waiters.remove(waiter);
                }
            }
        });
        return waiter.result;
    }

    /** What the listener did so far. */
    public ReverseConnectListenerStatistics statistics() {
        return new ReverseConnectListenerStatistics(connections.get(), accepted.get(), refused.get(), timedOut.get(),
                dropped.get(), heldCount.get());
    }

    /** Stops listening, closes the connections not handed out and fails the callers still waiting. Idempotent. */
    @Override
    public void close() {
        List<Waiter> waiting;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            waiting = new ArrayList<>(waiters);
            waiters.clear();
            pending.clear();
        }
        serverChannel.close().awaitUninterruptibly(5_000);
        for (Channel connection : List.copyOf(held)) { // waiting for their ReverseHello or for a caller
            connection.close();
        }
        for (Waiter waiter : waiting) {
            waiter.result.completeExceptionally(closedError());
        }
        log.info("reverse connect listener on {} closed", localAddress);
    }

    private UaException closedError() {
        return new UaException(StatusCodes.BadServerHalted, "the reverse connect listener on " + localAddress
                + " is closed: no server connection can be waited for");
    }

    /** A validated ReverseHello: hand the connection to a waiting caller, hold it, or refuse it. Event loop. */
    private void offer(Channel channel, ReverseHelloMessage hello) {
        Waiter waiter = null;
        boolean known = false;
        synchronized (this) {
            if (!closed) {
                for (Iterator<Waiter> it = waiters.iterator(); it.hasNext(); ) {
                    Waiter candidate = it.next();
                    if (candidate.server.matches(hello)) {
                        it.remove();
                        waiter = candidate;
                        break;
                    }
                }
                if (waiter == null) {
                    known = expected.stream().anyMatch(server -> server.matches(hello));
                    if (known) {
                        pending.add(new Pending(channel, hello));
                        channel.closeFuture().addListener(f -> forget(channel));
                    }
                }
            }
        }
        if (waiter != null) {
            handOver(channel, hello, waiter);
        } else if (!known) {
            refused.incrementAndGet();
            refuse(channel, StatusCodes.BadTcpEndpointUrlInvalid, "the server " + hello.serverUri()
                    + " with endpoint " + hello.endpointUrl() + " is not expected by this client");
        }
    }

    private synchronized void forget(Channel channel) {
        pending.removeIf(p -> p.channel == channel);
    }

    private void handOver(Channel channel, ReverseHelloMessage hello, Waiter waiter) {
        if (!channel.isActive()) { // the server closed it meanwhile: wait for its next one
            boolean waiting;
            synchronized (this) {
                waiting = !closed;
                if (waiting && !waiter.result.isDone()) {
                    waiters.add(0, waiter);
                }
            }
            if (!waiting) {
                waiter.result.completeExceptionally(closedError());
            }
            return;
        }
        release(channel);
        accepted.incrementAndGet();
        log.debug("reverse connection from {} ({}) accepted for {}", hello.serverUri(), channel.remoteAddress(),
                hello.endpointUrl());
        UaTcpClientChannel.overReverseConnection(channel, hello.endpointUrl(), waiter.quotas, waiter.security,
                resources, waiter.result);
    }

    private void release(Channel channel) {
        if (held.remove(channel)) {
            heldCount.decrementAndGet();
        }
    }

    /** Sends an Error message and closes; logs the first refusal and every thousandth after it. */
    private void refuse(Channel channel, int status, String reason) {
        long count = refused.get() + timedOut.get();
        if (count % 1_000 == 1) {
            log.warn("reverse connection from {} refused: {} ({} refused or timed out so far)",
                    channel.remoteAddress(), reason, count);
        }
        ByteBuf error = channel.alloc().buffer();
        ErrorMessage.of(status, reason).encode(error);
        channel.writeAndFlush(error).addListener(ChannelFutureListener.CLOSE);
    }

    /** A server this client expects: its ServerUri, and the EndpointUrl if one is named. */
    private record Expected(String serverUri, String endpointUrl) {
        boolean matches(ReverseHelloMessage hello) {
            return serverUri.equals(hello.serverUri()) && (endpointUrl == null || endpointUrl.equals(
                    hello.endpointUrl()));
        }
    }

    private record Waiter(Expected server, TransportQuotas quotas, ClientChannelSecurity security,
            CompletableFuture<UaTcpClientChannel> result) {
    }

    private record Pending(Channel channel, ReverseHelloMessage hello) {
    }

    /** Reads the first frame, which must be a ReverseHello, within the hello timeout; then leaves the pipeline. */
    private final class ReverseHelloReader extends ChannelInboundHandlerAdapter {

        private ScheduledFuture<?> timeout;

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            connections.incrementAndGet();
            Channel channel = ctx.channel();
            if (closed || heldCount.incrementAndGet() > maxPending) {
                heldCount.decrementAndGet();
                dropped.incrementAndGet();
                if (dropped.get() % 1_000 == 1) {
                    log.warn("reverse connection from {} dropped: {} connections held already ({} dropped so far)",
                            ctx.channel().remoteAddress(), maxPending, dropped.get());
                }
                ctx.close();
                return;
            }
            held.add(channel);
            channel.closeFuture().addListener(f -> release(channel));
            timeout = ctx.executor().schedule(() -> {
                timedOut.incrementAndGet();
                refuse(channel, StatusCodes.BadTimeout, "no ReverseHello within " + helloTimeout.toMillis() + " ms");
            }, helloTimeout.toMillis(), TimeUnit.MILLISECONDS);
            ctx.fireChannelActive();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf frame = (ByteBuf) msg;
            if (timeout != null) {
                timeout.cancel(false);
            }
            ReverseHelloMessage hello;
            try {
                hello = ReverseHelloMessage.decode(frame);
            } catch (UaException e) {
                ctx.pipeline().remove(this);
                refused.incrementAndGet();
                refuse(ctx.channel(), e.statusCode().value(), e.getMessage());
                return;
            } finally {
                ReferenceCountUtil.release(frame);
            }
            ctx.pipeline().remove(this);
            offer(ctx.channel(), hello);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (timeout != null) {
                timeout.cancel(false);
            }
            ctx.fireChannelInactive();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (cause instanceof UaException ua) { // the frame decoder's: oversized or of another type
                if (timeout != null) {
                    timeout.cancel(false);
                }
                refused.incrementAndGet();
                refuse(ctx.channel(), ua.statusCode().value(), ua.getMessage());
            } else {
                log.debug("reverse connection from {} failed", ctx.channel().remoteAddress(), cause);
                ctx.close();
            }
        }
    }
}
