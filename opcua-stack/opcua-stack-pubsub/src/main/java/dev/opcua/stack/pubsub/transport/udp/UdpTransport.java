package dev.opcua.stack.pubsub.transport.udp;

import dev.opcua.stack.pubsub.transport.MessageHandler;
import dev.opcua.stack.pubsub.transport.PubSubTransport;
import dev.opcua.stack.pubsub.transport.QualityOfService;
import dev.opcua.stack.pubsub.transport.TransportException;
import dev.opcua.stack.pubsub.transport.TransportStatistics;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.socket.SocketProtocolFamily;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The OPC UA UDP transport of PubSub (Part 14, 7.3.2): UADP network messages, one per datagram, to and from a
 * unicast, broadcast or multicast address, without a broker. It runs on Netty's NIO datagram channels.
 *
 * <p><b>Topics are addresses.</b> UDP has no topics, so the SPI's topic is an {@code opc.udp} URL ({@link
 * UdpAddress}):
 * <ul>
 * <li>{@link #publish publish(topic, ...)} sends the bytes as one datagram to the address in the topic: for
 * multicast the connection's own {@linkplain UdpSettings#address() address} (7.3.2.2), for unicast the
 * subscriber's (the WriterGroup's datagram Address of 7.3.2.3). A topic that is not an {@code opc.udp} URL (the
 * status and metadata topics PubSubService takes from its MQTT topic tree) has no address: the message is not sent,
 * is counted in {@link #unaddressedMessages()} (not as dropped) and each such topic is logged once.</li>
 * <li>{@link #subscribe subscribe(filter, ...)} with the connection's address URL receives <em>every</em> datagram
 * arriving on that address (the group joined, or the port bound): filtering by PublisherId, WriterGroupId and
 * DataSetWriterId is the reader's job. A filter that is another {@code opc.udp} URL is refused (one connection
 * receives on one address, 7.3.2.1); a filter that is not an {@code opc.udp} URL is accepted but never gets a
 * message, and is logged once.</li>
 * </ul>
 * So a PubSubService works unchanged when the UADP writer group's and reader's {@code queueName} is the address
 * URL; its JSON status messages and MQTT metadata topics simply have no counterpart on UDP.
 *
 * <p><b>Metadata.</b> Over UDP a writer's DataSetMetaData is a UADP discovery announcement (7.2.4.6.4) that goes
 * out once when the publisher starts, and only if the writer group's {@code metaDataQueueName} is an {@code opc.udp}
 * URL; a reader that starts later, or loses that datagram, never learns it. Readers of RawData fields therefore
 * need their metadata configured ({@code DataSetReaderConfig.metaData}).
 *
 * <p><b>Best effort.</b> The {@link QualityOfService} and {@code retain} are ignored: a datagram is sent once, may
 * be lost, duplicated or reordered on the way, and a subscriber that joins later does not get earlier messages.
 * A message larger than {@link UdpSettings#maxDatagramSize()} is dropped and counted on either side, since UADP
 * chunking (7.2.4.4.4) is not implemented. There is no send queue: a message published before {@link #start()}
 * completed, after it failed, or while the socket's outbound buffer is above 1 MiB is dropped and counted.
 *
 * <p><b>Sockets.</b> {@link #start()} opens the send socket (an ephemeral port, SO_BROADCAST, the multicast
 * interface, TTL and loopback of the settings). The first subscription of the address opens the receive socket
 * (SO_REUSEADDR for multicast, so that several subscribers on one host share the group's port; SO_RCVBUF;
 * receive buffers of {@code maxDatagramSize + 1} bytes, so that a larger datagram is recognised rather than
 * silently cut) and joins the multicast group; it stays open until {@link #close()}. On Linux a socket bound to a
 * group's port receives every group joined on that port by this host: the readers' PublisherId filtering sorts
 * them out.
 *
 * <p><b>Threads.</b> One thread, {@code opcua-udp-<port>-<n>}, sends, receives and runs the handlers (one datagram
 * at a time, in arrival order); the first datagram to a host name resolves it there, once. It ends in
 * {@link #close()}.
 *
 * <p><b>Logging.</b> Opening, joining and closing at INFO, failures to open at WARN, never per message; repeated
 * per-message problems (drops, send failures, handler exceptions) are logged the first time and every 1000th time.
 */
public final class UdpTransport implements PubSubTransport {

    private static final Logger log = LoggerFactory.getLogger(UdpTransport.class);
    private static final AtomicInteger INSTANCES = new AtomicInteger();
    private static final int LOG_EVERY = 1000;
    private static final long CLOSE_TIMEOUT_MILLIS = 5000;
    private static final int MAX_REMEMBERED = 1024;
    private static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(256 * 1024, 1024 * 1024);

    private final UdpSettings settings;
    private final UdpAddress address;
    private final String url;
    private final String threadName;
    private final Object lock = new Object();
    private final AtomicBoolean startCalled = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final CompletableFuture<Void> started = new CompletableFuture<>();
    /** The address subscriptions: every datagram received goes to each. */
    private final Map<String, MessageHandler> subscriptions = new ConcurrentHashMap<>();
    private final Set<String> topicless = ConcurrentHashMap.newKeySet();
    private final Set<String> loggedTopics = ConcurrentHashMap.newKeySet();
    private final Map<String, InetSocketAddress> destinations = new ConcurrentHashMap<>();

    private final LongAdder sent = new LongAdder();
    private final LongAdder bytesSent = new LongAdder();
    private final LongAdder received = new LongAdder();
    private final LongAdder bytesReceived = new LongAdder();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong oversized = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong handlerErrors = new AtomicLong();
    private final AtomicLong unaddressed = new AtomicLong();
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile String lastError;

    private volatile EventLoopGroup group;
    private volatile DatagramChannel sendChannel;
    private volatile DatagramChannel receiveChannel;
    /** Guarded by {@link #lock}; created by the first address subscription. */
    private CompletableFuture<Void> receiving;
    /** Resolved on the event loop by start. */
    private volatile InetSocketAddress resolved;
    private volatile NetworkInterface networkInterface;

    public UdpTransport(UdpSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.address = settings.address();
        this.url = address.url();
        this.threadName = "opcua-udp-" + address.port() + "-" + INSTANCES.incrementAndGet();
    }

    public UdpSettings settings() {
        return settings;
    }

    /**
     * Opens the send socket. Resolves the address and the network interface on the transport's thread; the future
     * fails with a {@link TransportException} naming the URL when the host is unknown, the interface does not exist
     * or the socket cannot be opened. Calling it again returns the same future.
     */
    @Override
    public CompletableFuture<Void> start() {
        if (closed.get()) {
            return CompletableFuture.failedFuture(new IllegalStateException(closedMessage()));
        }
        if (!startCalled.compareAndSet(false, true)) {
            return started.copy();
        }
        EventLoopGroup g = new MultiThreadIoEventLoopGroup(1, r -> {
            Thread t = new FastThreadLocalThread(r, threadName);
            t.setDaemon(true);
            return t;
        }, NioIoHandler.newFactory());
        group = g;
        g.execute(this::openSendChannel);
        return started.copy();
    }

    /** Runs on the event loop. */
    private void openSendChannel() {
        try {
            InetSocketAddress target = address.resolve();
            resolved = target;
            boolean multicast = target.getAddress().isMulticastAddress();
            NetworkInterface nif = UdpInterfaces.configured(settings, target.getAddress());
            if (nif == null && multicast) {
                nif = UdpInterfaces.defaultMulticast(url, target.getAddress());
            }
            networkInterface = nif;
            Bootstrap b = bootstrap(target.getAddress())
                    .option(ChannelOption.AUTO_READ, false)
                    .option(ChannelOption.SO_BROADCAST, true)
                    .option(ChannelOption.IP_MULTICAST_TTL, settings.multicastTtl())
                    .option(ChannelOption.IP_MULTICAST_LOOP_DISABLED, !settings.multicastLoopback())
                    .option(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARK)
                    .handler(new SendErrors());
            if (nif != null) {
                b.option(ChannelOption.IP_MULTICAST_IF, nif);
            }
            b.bind(UdpInterfaces.wildcard(target.getAddress(), 0)).addListener((ChannelFuture f) -> {
                if (!f.isSuccess()) {
                    failStart("cannot open a UDP socket: " + describe(f.cause()), f.cause());
                    return;
                }
                DatagramChannel ch = (DatagramChannel) f.channel();
                if (closed.get()) {
                    ch.close();
                    return;
                }
                sendChannel = ch;
                log.info("UDP transport {} started: sending from {}{}{} (max datagram {} bytes)", url,
                        ch.localAddress(), multicast ? ", multicast TTL " + settings.multicastTtl() : "",
                        networkInterface != null ? " on " + networkInterface.getName() : "",
                        settings.maxDatagramSize());
                started.complete(null);
            });
        } catch (UnknownHostException e) {
            failStart("unknown host " + address.host(), e);
        } catch (TransportException e) {
            failStart(e.getMessage(), e);
        } catch (SocketException | RuntimeException e) {
            failStart(describe(e), e);
        }
    }

    private void failStart(String reason, Throwable cause) {
        lastError = reason;
        log.warn("UDP transport {} cannot start: {}", url, reason);
        started.completeExceptionally(new TransportException("cannot start OPC UA UDP transport " + url + ": "
                + reason, cause));
    }

    private Bootstrap bootstrap(InetAddress family) {
        SocketProtocolFamily protocolFamily = family instanceof Inet6Address ? SocketProtocolFamily.INET6
                : SocketProtocolFamily.INET;
        return new Bootstrap().group(group).channelFactory(() -> new NioDatagramChannel(protocolFamily));
    }

    /**
     * Sends the bytes as one datagram to the {@code opc.udp} URL in the topic; {@code qos} and {@code retain} are
     * ignored (best effort). Not sent: a topic that is not an {@code opc.udp} URL (counted in {@link
     * #unaddressedMessages()}), a message larger than the max datagram size, or one published while the transport
     * is not started or its outbound buffer is full (counted as dropped).
     *
     * @throws IllegalArgumentException if the topic starts with {@code opc.udp://} but is not a valid URL
     * @throws IllegalStateException if the transport is closed
     */
    @Override
    public void publish(String topic, byte[] payload, QualityOfService qos, boolean retain) {
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(qos, "qos");
        if (closed.get()) {
            throw new IllegalStateException(closedMessage());
        }
        if (!UdpAddress.isUdpUrl(topic)) {
            unaddressed.incrementAndGet();
            if (remember(loggedTopics, topic)) {
                log.info("UDP transport {}: '{}' is not an opc.udp URL, so messages to it are not sent (over UDP only"
                        + " network messages to an address travel; this is logged once per topic)", url, topic);
            }
            return;
        }
        InetSocketAddress destination = destinations.get(topic);
        UdpAddress target = destination == null ? UdpAddress.parse(topic) : null;
        if (payload.length > settings.maxDatagramSize()) {
            oversized.incrementAndGet();
            drop("a message of " + payload.length + " bytes to " + topic + " is larger than the max datagram size of "
                    + settings.maxDatagramSize() + " bytes (UADP chunking is not implemented)");
            return;
        }
        DatagramChannel ch = sendChannel;
        if (ch == null) {
            drop("a message to " + topic + " was published before the transport started");
            return;
        }
        if (!ch.isWritable()) {
            drop("the outbound buffer is full (" + WATER_MARK.high() + " bytes)");
            return;
        }
        byte[] bytes = payload.clone();
        inFlight.incrementAndGet();
        if (destination != null) {
            write(ch, destination, bytes);
        } else {
            try {
                ch.eventLoop().execute(() -> resolveAndWrite(ch, topic, target, bytes));
            } catch (RejectedExecutionException e) { // close() ran meanwhile
                inFlight.decrementAndGet();
                throw new IllegalStateException(closedMessage(), e);
            }
        }
    }

    /** Runs on the event loop: the first message to a URL resolves it (a DNS lookup for a name). */
    private void resolveAndWrite(DatagramChannel ch, String topic, UdpAddress target, byte[] bytes) {
        InetSocketAddress destination = destinations.get(topic);
        if (destination == null) {
            try {
                destination = target.resolve();
            } catch (UnknownHostException e) {
                inFlight.decrementAndGet();
                sendFailed("unknown host " + target.host() + " in " + topic);
                return;
            }
            if (destinations.size() >= MAX_REMEMBERED) {
                destinations.clear();
            }
            destinations.put(topic, destination);
        }
        write(ch, destination, bytes);
    }

    private void write(DatagramChannel ch, InetSocketAddress destination, byte[] bytes) {
        ch.writeAndFlush(new DatagramPacket(Unpooled.wrappedBuffer(bytes), destination)).addListener(f -> {
            inFlight.decrementAndGet();
            if (f.isSuccess()) {
                sent.increment();
                bytesSent.add(bytes.length);
            } else if (!closed.get()) {
                sendFailed("sending to " + destination + " failed: " + describe(f.cause()));
            }
        });
    }

    private void sendFailed(String reason) {
        lastError = reason;
        long n = failures.incrementAndGet();
        if (n == 1 || n % LOG_EVERY == 0) {
            log.warn("UDP transport {}: {} ({} send failures so far)", url, reason, n);
        }
    }

    private void drop(String reason) {
        long n = dropped.incrementAndGet();
        if (n == 1 || n % LOG_EVERY == 0) {
            log.warn("UDP transport {}: {}; dropped ({} dropped so far)", url, reason, n);
        }
    }

    /**
     * Receives every datagram arriving on the connection's address when {@code topicFilter} is its URL ({@link
     * UdpSettings#addressUrl()}, compared as a {@link UdpAddress}); the handlers get the address URL as the topic.
     * The first such subscription opens the receive socket and joins the multicast group. A filter that is not an
     * {@code opc.udp} URL gets no messages (logged once). {@code qos} is ignored.
     *
     * @return completes when the receive socket is open (and the group joined) after {@link #start()}; fails naming
     *         the URL if it cannot be opened (e.g. the port is taken)
     * @throws IllegalArgumentException if the filter is an {@code opc.udp} URL other than the connection's address
     */
    @Override
    public CompletableFuture<Void> subscribe(String topicFilter, QualityOfService qos, MessageHandler handler) {
        Objects.requireNonNull(topicFilter, "topicFilter");
        Objects.requireNonNull(qos, "qos");
        Objects.requireNonNull(handler, "handler");
        if (closed.get()) {
            throw new IllegalStateException(closedMessage());
        }
        if (!UdpAddress.isUdpUrl(topicFilter)) {
            if (remember(topicless, topicFilter)) {
                log.info("UDP transport {}: '{}' is not an opc.udp URL, so its subscription gets no messages (subscribe"
                        + " {} to receive the datagrams of this connection)", url, topicFilter, url);
            }
            return CompletableFuture.completedFuture(null);
        }
        if (!UdpAddress.parse(topicFilter).equals(address)) {
            throw new IllegalArgumentException("the UDP transport for " + url + " receives only on its own address;"
                    + " '" + topicFilter + "' needs a transport (a PubSubConnection) of its own");
        }
        subscriptions.put(topicFilter, handler);
        CompletableFuture<Void> r;
        synchronized (lock) {
            if (receiving == null) {
                receiving = new CompletableFuture<>();
                CompletableFuture<Void> opened = receiving;
                started.whenComplete((v, e) -> {
                    if (e != null) {
                        opened.completeExceptionally(e);
                    } else {
                        try {
                            group.execute(() -> openReceiveChannel(opened));
                        } catch (RejectedExecutionException closing) {
                            opened.completeExceptionally(new IllegalStateException(closedMessage()));
                        }
                    }
                });
            }
            r = receiving;
        }
        return r.copy();
    }

    /** Runs on the event loop. */
    private void openReceiveChannel(CompletableFuture<Void> opened) {
        try {
            InetAddress target = resolved.getAddress();
            boolean multicast = target.isMulticastAddress();
            InetSocketAddress bind = receiveBindAddress(target, multicast);
            Bootstrap b = bootstrap(target)
                    .option(ChannelOption.RCVBUF_ALLOCATOR,
                            new FixedRecvByteBufAllocator(settings.maxDatagramSize() + 1))
                    .option(ChannelOption.SO_REUSEADDR, multicast)
                    .handler(new Inbound());
            if (settings.receiveBufferSize() > 0) {
                b.option(ChannelOption.SO_RCVBUF, settings.receiveBufferSize());
            }
            b.bind(bind).addListener((ChannelFuture f) -> {
                if (!f.isSuccess()) {
                    failReceive(opened, "cannot receive on " + bind + ": " + describe(f.cause()), f.cause());
                    return;
                }
                DatagramChannel ch = (DatagramChannel) f.channel();
                if (closed.get()) {
                    ch.close();
                    return;
                }
                if (!multicast) {
                    receiveChannel = ch;
                    log.info("UDP transport {} receiving on {}", url, ch.localAddress());
                    opened.complete(null);
                    return;
                }
                ch.joinGroup(resolved, networkInterface).addListener((ChannelFuture j) -> {
                    if (j.isSuccess()) {
                        receiveChannel = ch; // until joined, group shutdown in close() closes it
                        log.info("UDP transport {} receiving on {}, joined {} on {}", url, ch.localAddress(),
                                target.getHostAddress(), networkInterface.getName());
                        opened.complete(null);
                    } else {
                        ch.close();
                        failReceive(opened, "cannot join the multicast group " + target.getHostAddress() + " on "
                                + networkInterface.getName() + ": " + describe(j.cause()), j.cause());
                    }
                });
            });
        } catch (UnknownHostException | SocketException | RuntimeException e) {
            failReceive(opened, describe(e), e);
        }
    }

    /** Where the receive socket binds; see {@link UdpSettings} for the rules. */
    private InetSocketAddress receiveBindAddress(InetAddress target, boolean multicast)
            throws UnknownHostException, SocketException {
        int port = address.port();
        if (multicast) {
            return UdpInterfaces.wildcard(target, port);
        }
        if (address.isLocalhostName() || target.isAnyLocalAddress()) {
            InetAddress own = networkInterface == null ? null : UdpInterfaces.addressOf(networkInterface, target);
            return own != null ? new InetSocketAddress(own, port) : UdpInterfaces.wildcard(target, port);
        }
        if (target.isLoopbackAddress() || NetworkInterface.getByInetAddress(target) != null) {
            return new InetSocketAddress(target, port);
        }
        return UdpInterfaces.wildcard(target, port);
    }

    private void failReceive(CompletableFuture<Void> opened, String reason, Throwable cause) {
        lastError = reason;
        log.warn("UDP transport {}: {}", url, reason);
        opened.completeExceptionally(new TransportException("OPC UA UDP transport " + url + ": " + reason, cause));
    }

    /** Ends a subscription; its handler gets no more messages. The receive socket stays open until close. */
    @Override
    public CompletableFuture<Void> unsubscribe(String topicFilter) {
        Objects.requireNonNull(topicFilter, "topicFilter");
        subscriptions.remove(topicFilter);
        topicless.remove(topicFilter);
        return CompletableFuture.completedFuture(null);
    }

    /** Whether the send socket is open: UDP has no connection, so this means started and not closed. */
    @Override
    public boolean isConnected() {
        DatagramChannel ch = sendChannel;
        return !closed.get() && ch != null && ch.isActive();
    }

    /**
     * The counters: {@code messagesDropped} counts oversized messages (either way), those published before the
     * start or into a full outbound buffer; {@code sendFailures} what the socket refused (e.g. no route) and
     * unknown hosts; {@code reconnects} is always 0 and {@code queued} the datagrams being written now.
     */
    @Override
    public TransportStatistics statistics() {
        return new TransportStatistics(sent.sum(), received.sum(), dropped.get(), failures.get(), bytesSent.sum(),
                bytesReceived.sum(), 0, isConnected(), lastError, inFlight.get());
    }

    /** Messages larger than the max datagram size, sent or received, dropped so far (part of messagesDropped). */
    public long oversizedMessages() {
        return oversized.get();
    }

    /** Messages published to a topic that is not an {@code opc.udp} URL, so not sent (not counted as dropped). */
    public long unaddressedMessages() {
        return unaddressed.get();
    }

    /** Exceptions thrown by message handlers so far. */
    public long handlerErrors() {
        return handlerErrors.get();
    }

    /**
     * The local address of the receive socket, or null until the first address subscription opened it (and joined
     * the multicast group).
     */
    public InetSocketAddress receiveAddress() {
        DatagramChannel ch = receiveChannel;
        return ch == null ? null : ch.localAddress();
    }

    /**
     * Closes both sockets (leaving the multicast group) and ends the transport's thread, waiting for it unless
     * called on it (from a handler). Datagrams still being written are discarded. Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        int unsent = inFlight.get();
        started.completeExceptionally(new IllegalStateException(closedMessage()));
        synchronized (lock) {
            if (receiving != null) {
                receiving.completeExceptionally(new IllegalStateException(closedMessage()));
            }
        }
        subscriptions.clear();
        EventLoopGroup g = group;
        if (g != null) {
            Channel r = receiveChannel;
            Channel s = sendChannel;
            if (r != null) {
                r.close();
            }
            if (s != null) {
                s.close();
            }
            var terminated = g.shutdownGracefully(0, CLOSE_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
            if (!g.next().inEventLoop()) {
                try {
                    if (!terminated.await(CLOSE_TIMEOUT_MILLIS + 1000)) {
                        log.warn("UDP transport {}: thread {} did not end within {} ms", url, threadName,
                                CLOSE_TIMEOUT_MILLIS);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        log.info("UDP transport {} closed: {} sent, {} received, {} dropped{}", url, sent.sum(), received.sum(),
                dropped.get(), unsent > 0 ? ", " + unsent + " being written discarded" : "");
    }

    private String closedMessage() {
        return "the UDP transport for " + url + " is closed";
    }

    private static boolean remember(Set<String> set, String value) {
        return set.size() < MAX_REMEMBERED && set.add(value);
    }

    private static String describe(Throwable e) {
        if (e == null) {
            return "unknown reason";
        }
        String message = e.getMessage();
        return message == null || message.isBlank() ? e.getClass().getSimpleName()
                : e.getClass().getSimpleName() + ": " + message;
    }

    @Override
    public String toString() {
        return "UdpTransport[" + url + (isConnected() ? ", started" : "") + "]";
    }

    /** The send socket reads nothing; it only reports errors. */
    @ChannelHandler.Sharable
    private final class SendErrors extends ChannelInboundHandlerAdapter {
        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            lastError = describe(cause);
            log.debug("UDP transport {}: send socket error", url, cause);
        }
    }

    /** The receive socket: every datagram to every address subscription, on the event loop. */
    private final class Inbound extends SimpleChannelInboundHandler<DatagramPacket> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
            ByteBuf content = packet.content();
            int size = content.readableBytes();
            if (size > settings.maxDatagramSize()) {
                oversized.incrementAndGet();
                drop("a datagram from " + packet.sender() + " is larger than the max datagram size of "
                        + settings.maxDatagramSize() + " bytes");
                return;
            }
            byte[] bytes = ByteBufUtil.getBytes(content);
            received.increment();
            bytesReceived.add(size);
            for (Map.Entry<String, MessageHandler> s : subscriptions.entrySet()) {
                try {
                    s.getValue().onMessage(url, bytes);
                } catch (RuntimeException e) {
                    long n = handlerErrors.incrementAndGet();
                    if (n == 1 || n % LOG_EVERY == 0) {
                        log.warn("UDP transport {}: the message handler of {} threw ({} times so far)", url,
                                s.getKey(), n, e);
                    }
                }
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            lastError = "receiving: " + describe(cause);
            log.debug("UDP transport {}: receive socket error", url, cause);
        }
    }
}
