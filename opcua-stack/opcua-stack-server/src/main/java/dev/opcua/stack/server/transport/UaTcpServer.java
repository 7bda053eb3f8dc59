package dev.opcua.stack.server.transport;

import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.server.transport.uasc.ServerChannelSecurity;
import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.server.transport.uasc.SecureChannelIds;
import dev.opcua.stack.server.transport.uasc.ServerChannelCounters;
import dev.opcua.stack.server.transport.uasc.OpenSecureChannelObserver;
import dev.opcua.stack.server.transport.uasc.ServerChannelSettings;
import dev.opcua.stack.server.transport.uasc.ServerRequestListener;
import dev.opcua.stack.server.util.NamedThreadFactory;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's UA TCP listener (Part 6, 7.1): binds a socket, runs each connection through a
 * {@link dev.opcua.stack.server.transport.uasc.UascServerHandler} and passes whole requests to the
 * {@link ServerRequestListener}.
 *
 * <p>The server owns its event loops ({@code opcua-server-io-N}, native epoll where available, else
 * NIO): {@link #start()} creates them and blocks until the socket is bound, {@link #close()} closes
 * every connection and shuts them down, waiting a bounded time. It does not own the listener.
 * Sockets use TCP_NODELAY: a response is one write, so Nagle's algorithm only adds latency. Each
 * connection's outbound queue has the quotas' high-water mark ({@link WriteStallGuard}). Each
 * connection makes {@link Builder#readsPerTurn(int) one socket read} of at most {@value #READ_BUFFER_MAX}
 * bytes per turn of its event loop by default, so that a client flooding its socket cannot keep the loop
 * from the other connections it serves: small requests run on the loop, and with Netty's default of 16
 * reads a turn a flooder's megabyte of Reads ran before a quiet session's one (DESIGN.md section 3:
 * one greedy client cannot starve the rest).
 *
 * <pre>{@code
 * try (UaTcpServer server = UaTcpServer.builder().port(0).requestListener(dispatcher).build().start()) {
 *     int port = server.port();
 * }
 * }</pre>
 */
public final class UaTcpServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(UaTcpServer.class);

    /** How long {@link #close()} lets the event loops finish their work. */
    private static final long SHUTDOWN_TIMEOUT_MILLIS = 5_000;

    /** The largest buffer one socket read fills; Netty's adaptive sizing grows towards it under load. */
    static final int READ_BUFFER_MAX = 65_536;

    private final String bindAddress;
    private final int port;
    private final int ioThreads;
    private final int readsPerTurn;
    private final boolean nativeTransport;
    private final ServerChannelSettings settings;
    private final ServerRequestListener listener;
    private final Set<Channel> openChannels = ConcurrentHashMap.newKeySet();

    private EventLoopGroup eventLoops;
    private Channel serverChannel;
    private volatile InetSocketAddress localAddress;
    private IoTransport transport;
    private UaTcpServerInitializer connections;
    private volatile ReverseConnector reverseConnector;
    private boolean closed;

    private UaTcpServer(Builder builder) {
        this.bindAddress = builder.bindAddress;
        this.port = builder.port;
        this.ioThreads = builder.ioThreads;
        this.readsPerTurn = builder.readsPerTurn;
        this.nativeTransport = builder.nativeTransport;
        this.listener = Objects.requireNonNull(builder.listener, "requestListener");
        this.settings = new ServerChannelSettings(builder.quotas, builder.endpointUrlFilter, builder.registry,
                new SecureChannelIds(), new ServerChannelCounters(), builder.security, builder.openObserver);
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Event loops when none are configured: one per processor, not Netty's two. Small requests run on the
     * event loop, so a loop is busy rather than waiting; a second loop per core only adds wake-ups and costs
     * server CPU per request.
     */
    public static int defaultIoThreads() {
        return Math.max(1, Runtime.getRuntime().availableProcessors());
    }

    /**
     * Creates the event loops and binds; returns once the socket listens.
     *
     * @return this server, for chaining
     * @throws IllegalStateException when it was started before, or binding fails (the cause says why)
     */
    public synchronized UaTcpServer start() {
        if (eventLoops != null || closed) {
            throw new IllegalStateException("the server was already started");
        }
        transport = IoTransport.select(nativeTransport);
        eventLoops = new MultiThreadIoEventLoopGroup(ioThreads == 0 ? defaultIoThreads() : ioThreads,
                new NamedThreadFactory("opcua-server-io-"),
                transport.ioHandlerFactory());
        connections = new UaTcpServerInitializer(settings, listener, openChannels);
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(eventLoops)
                .channel(transport.serverChannelClass())
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.RCVBUF_ALLOCATOR,
                        new AdaptiveRecvByteBufAllocator(64, 2048, READ_BUFFER_MAX).maxMessagesPerRead(readsPerTurn))
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(
                        settings.quotas().writeBufferHighWaterMark() / 2, settings.quotas().writeBufferHighWaterMark()))
                .childHandler(connections);
        try {
            serverChannel = bootstrap.bind(bindAddress, port).sync().channel();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            shutdownEventLoops();
            throw new IllegalStateException("interrupted while binding " + bindAddress + ":" + port, e);
        } catch (Exception e) {
            shutdownEventLoops();
            throw new UaTcpBindException(bindAddress, port, e);
        }
        localAddress = (InetSocketAddress) serverChannel.localAddress();
        log.info("UA TCP server listening on {} ({})", localAddress, transport.name());
        return this;
    }

    /** The bound port; the ephemeral one chosen for port 0. */
    public int port() {
        InetSocketAddress address = localAddress;
        if (address == null) {
            throw new IllegalStateException("the server is not started");
        }
        return address.getPort();
    }

    /** The bound address, or null before {@link #start()}. */
    public InetSocketAddress localAddress() {
        return localAddress;
    }

    /** "epoll" or "nio" once started. */
    public synchronized String transportName() {
        return transport == null ? null : transport.name();
    }

    /** Sockets open now. */
    public int openConnections() {
        return settings.counters().openConnections();
    }

    /** Secure channels open now. */
    public int secureChannels() {
        return settings.counters().secureChannels();
    }

    /**
     * Starts dialling the clients of {@code reverseConnect} (Part 6, 7.1.3) on this server's event loops; their
     * connections are served like accepted ones. Once, after {@link #start()}: the ReverseHello names an endpoint
     * URL, which holds the port only known once bound.
     *
     * @throws IllegalStateException before the start, after the close, or when reverse connect runs already
     */
    public synchronized void startReverseConnect(ReverseConnectSettings reverseConnect) {
        Objects.requireNonNull(reverseConnect, "reverseConnect");
        if (eventLoops == null || closed || reverseConnector != null) {
            throw new IllegalStateException(reverseConnector != null ? "reverse connect runs already"
                    : "the server is not running");
        }
        if (!reverseConnect.enabled()) {
            return;
        }
        int connectTimeout = (int) Math.min(Integer.MAX_VALUE, Math.max(1,
                settings.quotas().operationTimeout().toMillis()));
        reverseConnector = new ReverseConnector(reverseConnect, eventLoops, transport, connections, connectTimeout);
        reverseConnector.start();
    }

    /** What reverse connect did so far; all zero when it is off. */
    public ReverseConnectStatistics reverseConnectStatistics() {
        ReverseConnector connector = reverseConnector;
        return connector == null ? ReverseConnectStatistics.NONE : connector.statistics();
    }

    /** What the connection handlers share: quotas, endpoint filter, codecs, id pool, counters. */
    public ServerChannelSettings channelSettings() {
        return settings;
    }

    /**
     * Stops listening, closes every connection (their listeners hear of each channel's close) and shuts
     * the event loops down, waiting at most a few seconds. Idempotent; it blocks, so call it from an
     * application thread, never from one of the server's event loops.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (eventLoops == null) {
            return;
        }
        if (reverseConnector != null) {
            reverseConnector.close();
        }
        if (serverChannel != null) {
            serverChannel.close().awaitUninterruptibly(SHUTDOWN_TIMEOUT_MILLIS);
        }
        List<Channel> channels = new ArrayList<>(openChannels);
        for (Channel channel : channels) {
            channel.close();
        }
        for (Channel channel : channels) {
            channel.closeFuture().awaitUninterruptibly(SHUTDOWN_TIMEOUT_MILLIS);
        }
        shutdownEventLoops();
        log.info("UA TCP server on {} closed", localAddress);
    }

    private void shutdownEventLoops() {
        if (!eventLoops.shutdownGracefully(0, SHUTDOWN_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)
                .awaitUninterruptibly(SHUTDOWN_TIMEOUT_MILLIS + 1_000)) {
            log.warn("event loops did not terminate within {} ms", SHUTDOWN_TIMEOUT_MILLIS);
        }
    }

    /** Configuration of a {@link UaTcpServer}; only the request listener is required. */
    public static final class Builder {

        private String bindAddress = "0.0.0.0";
        private int port = 4840;
        private int ioThreads;
        private int readsPerTurn = 1;
        private boolean nativeTransport = true;
        private TransportQuotas quotas = TransportQuotas.DEFAULT;
        private Predicate<String> endpointUrlFilter = EndpointPathFilter.ofPaths(List.of("/"));
        private CodecRegistry registry = CodecRegistry.standard();
        private ServerRequestListener listener;
        private ServerChannelSecurity security = ServerChannelSecurity.NONE_ONLY;
        private OpenSecureChannelObserver openObserver;

        private Builder() {
        }

        /** Address to listen on; default {@code 0.0.0.0}, all interfaces. */
        public Builder bindAddress(String value) {
            bindAddress = Objects.requireNonNull(value, "bindAddress");
            return this;
        }

        /** Port to listen on, 0 for an ephemeral one; default 4840, the IANA port of opc.tcp. */
        public Builder port(int value) {
            if (value < 0 || value > 65_535) {
                throw new IllegalArgumentException("port must be 0 to 65535, was " + value);
            }
            port = value;
            return this;
        }

        /** Event loop threads; 0, the default, is one per processor ({@link UaTcpServer#defaultIoThreads()}). */
        public Builder ioThreads(int value) {
            if (value < 0) {
                throw new IllegalArgumentException("ioThreads must be 0 (one per processor) or more, was " + value);
            }
            ioThreads = value;
            return this;
        }

        /**
         * Socket reads a connection makes per turn of its event loop before the loop serves the next ready
         * connection; default 1 (Netty's own default is 16). More lets a single busy connection move more
         * bytes per wake-up, at the cost of the other connections on its loop.
         */
        public Builder readsPerTurn(int value) {
            if (value < 1) {
                throw new IllegalArgumentException("readsPerTurn must be at least 1, was " + value);
            }
            readsPerTurn = value;
            return this;
        }

        /** Whether to use native epoll where it is available; default true. */
        public Builder nativeTransport(boolean value) {
            nativeTransport = value;
            return this;
        }

        /** Security policies and modes accepted, the server certificate and the client validator; default None only. */
        /** Who is told of every OpenSecureChannel answered or refused (the audit trail); none by default. */
        public Builder openSecureChannelObserver(OpenSecureChannelObserver value) {
            openObserver = Objects.requireNonNull(value, "openSecureChannelObserver");
            return this;
        }

        public Builder security(ServerChannelSecurity value) {
            security = Objects.requireNonNull(value, "security");
            return this;
        }

        public Builder transportQuotas(TransportQuotas value) {
            quotas = Objects.requireNonNull(value, "transportQuotas");
            return this;
        }

        /** Accept Hellos for the paths of these endpoint URLs (default: the root path only). */
        public Builder endpointUrls(List<String> urls) {
            endpointUrlFilter = EndpointPathFilter.ofUrls(urls);
            return this;
        }

        /** Accept Hellos for these paths, e.g. {@code "/"} or {@code "/line1"}. */
        public Builder endpointPaths(List<String> paths) {
            endpointUrlFilter = EndpointPathFilter.ofPaths(paths);
            return this;
        }

        /** Accept the Hellos whose EndpointUrl passes {@code filter}. */
        public Builder endpointUrlFilter(Predicate<String> filter) {
            endpointUrlFilter = Objects.requireNonNull(filter, "endpointUrlFilter");
            return this;
        }

        /** Codecs of the messages on secure channels; default {@link CodecRegistry#standard()}. */
        public Builder codecRegistry(CodecRegistry value) {
            registry = Objects.requireNonNull(value, "codecRegistry");
            return this;
        }

        /** Receives the requests; required. */
        public Builder requestListener(ServerRequestListener value) {
            listener = Objects.requireNonNull(value, "requestListener");
            return this;
        }

        public UaTcpServer build() {
            return new UaTcpServer(this);
        }
    }
}
