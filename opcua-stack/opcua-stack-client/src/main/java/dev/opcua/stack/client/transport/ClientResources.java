package dev.opcua.stack.client.transport;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.Timer;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Infrastructure shared by the client's connections (the transport of Part 6, 7.1): the Netty event
 * loops ({@code opcua-client-io-N}; epoll when netty-transport-native-epoll is on the class path and
 * usable, NIO otherwise), one timer ({@code opcua-client-timer}, asleep until its earliest deadline, see {@link DeadlineTimer})
 * for request timeouts, token renewal, keep-alives and reconnect delays, and the callback threads
 * ({@code opcua-client-callback-N}, a {@link CallbackExecutor}) on which subscription and state listeners run and
 * failed requests complete. {@link Builder#threadNamePrefix} replaces {@code opcua-client} in these names.
 *
 * <p>Where a response completes its future ({@link #executor()}): by default on the I/O thread that read it, the
 * rule of Netty clients such as Reactor Netty and Lettuce, since the two thread hand-offs of completing it
 * elsewhere are most of a small request's client CPU. Continuations of the client's futures therefore must not
 * block: a blocking call of the client made on one of its I/O threads or its timer thread fails at once with an
 * {@link IllegalStateException} ({@link #checkMayBlock}) instead of waiting for its timeout.
 * {@link Builder#completeOnCallbackThreads()} restores completion on the callback threads for applications whose
 * continuations block.
 *
 * <p>Whoever creates an instance owns it and closes it after the channels that use it.
 * {@link #shared()} is the lazily created default, owned by the JVM: its threads are daemons and its
 * {@link #close()} does nothing.
 */
public final class ClientResources implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ClientResources.class);

    private final EventLoopGroup eventLoopGroup;
    private final Class<? extends SocketChannel> socketChannelType;
    private final Class<? extends ServerSocketChannel> serverSocketChannelType;
    private final DeadlineTimer timer;
    private final Executor executor;
    private final Executor callbackExecutor;
    private final CallbackExecutor ownedExecutor;
    private final boolean closeable;
    private final AtomicInteger closed = new AtomicInteger();

    private ClientResources(Builder builder, boolean closeable) {
        Transport transport = Transport.select();
        this.eventLoopGroup = new MultiThreadIoEventLoopGroup(builder.ioThreads,
                new NamedThreadFactory(builder.threadNamePrefix + "-io-", true), transport.ioHandlerFactory);
        this.socketChannelType = transport.socketChannelType;
        this.serverSocketChannelType = transport.serverSocketChannelType;
        // No tick: the thread wakes for a deadline only (a 50 ms wheel woke it 20 times a second, busy or not);
        // deadlines on a grid of the tick share their wake-ups and fire at most one tick late.
        this.timer = new DeadlineTimer(runnable -> {
            Thread t = new NonBlockingThread(runnable, builder.threadNamePrefix + "-timer");
            t.setDaemon(true);
            return t;
        }, builder.timerTick.toNanos());
        CallbackExecutor pool = new CallbackExecutor(builder.callbackThreads, builder.threadNamePrefix + "-callback-");
        this.ownedExecutor = pool;
        this.callbackExecutor = pool;
        if (builder.executor != null) {
            this.executor = builder.executor;
        } else if (builder.completeOnCallbackThreads) {
            this.executor = pool;
        } else {
            this.executor = IoThreadCompletion.INSTANCE;
        }
        this.closeable = closeable;
    }

    /** New resources with default sizes; the caller owns and closes them. */
    public static ClientResources create() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The default instance, created on first use and never closed (daemon threads). */
    public static ClientResources shared() {
        return SharedHolder.INSTANCE;
    }

    private static final class SharedHolder {
        static final ClientResources INSTANCE = new ClientResources(new Builder(), false);
    }

    public EventLoopGroup eventLoopGroup() {
        return eventLoopGroup;
    }

    /** The socket channel class matching the event loops (epoll or NIO). */
    public Class<? extends SocketChannel> socketChannelType() {
        return socketChannelType;
    }

    /** The listening socket's channel class matching the event loops, for reverse connect. */
    public Class<? extends ServerSocketChannel> serverSocketChannelType() {
        return serverSocketChannelType;
    }

    public Timer timer() {
        return timer;
    }

    /**
     * Where a response completes its future: by default {@link IoThreadCompletion the I/O thread} that read it;
     * the callback threads with {@link Builder#completeOnCallbackThreads()}; or the executor given to the builder.
     */
    public Executor executor() {
        return executor;
    }

    /**
     * The callback threads ({@code opcua-client-callback-N}): where subscription and connection-state listeners run
     * unless the client is given its own listener executor, and where requests that failed (timed out, channel
     * lost) complete their futures.
     */
    public Executor callbackExecutor() {
        return callbackExecutor;
    }

    /** Whether the current thread is an I/O or timer thread of a client, on which nothing may wait. */
    public static boolean onNonBlockingThread() {
        return Thread.currentThread() instanceof NonBlockingThread;
    }

    /**
     * Throws when the current thread is one of a client's I/O or timer threads, where waiting for a response would
     * stall every connection of that thread and, for a response the same thread must read, wait until the
     * timeout.
     *
     * @param what the blocking call, for the message
     * @throws IllegalStateException on such a thread
     */
    public static void checkMayBlock(String what) {
        if (onNonBlockingThread()) {
            throw new IllegalStateException(what + " blocks, and was called on " + Thread.currentThread().getName()
                    + ", a thread of the client that must never wait (it completes the client's futures): use the"
                    + " asynchronous form and compose the futures, or move the work to another executor"
                    + " (thenApplyAsync), or build the ClientResources with completeOnCallbackThreads()");
        }
    }

    /**
     * Stops the event loops, the timer and the executor this instance created (an executor passed to
     * the builder stays with its owner), waiting up to a few seconds. Idempotent; must not be called
     * from one of these event loops.
     */
    @Override
    public void close() {
        if (!closeable) {
            log.debug("close() on the shared ClientResources is ignored: the JVM owns them");
            return;
        }
        if (!closed.compareAndSet(0, 1)) {
            return;
        }
        eventLoopGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        timer.stop();
        if (ownedExecutor != null) {
            ownedExecutor.shutdown();
            try {
                ownedExecutor.awaitTermination(2, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Options of {@link ClientResources}. */
    public static final class Builder {

        private int ioThreads = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));
        private int callbackThreads = Math.max(2, Runtime.getRuntime().availableProcessors());
        private Executor executor;
        private boolean completeOnCallbackThreads;
        private String threadNamePrefix = "opcua-client";
        private Duration timerTick = Duration.ofMillis(50);

        private Builder() {
        }

        /**
         * Names of the threads: {@code prefix-io-N}, {@code prefix-timer}, {@code prefix-callback-N} (default
         * {@code opcua-client}), so that one application's sets of resources can be told apart.
         */
        public Builder threadNamePrefix(String prefix) {
            if (Objects.requireNonNull(prefix, "prefix").isEmpty()) {
                throw new IllegalArgumentException("prefix must not be empty");
            }
            this.threadNamePrefix = prefix;
            return this;
        }

        /**
         * The timer's grid (default 50 ms): request timeouts, reconnect delays and keep-alives are rounded up
         * to it, so they fire up to one tick late and those within one tick share a wake-up of the timer
         * thread. The thread sleeps while nothing is due, whatever the tick.
         */
        public Builder timerTick(Duration tick) {
            if (tick.toMillis() < 1) {
                throw new IllegalArgumentException("timerTick must be at least 1 ms: " + tick);
            }
            this.timerTick = tick;
            return this;
        }

        /** Number of event-loop threads (default: processors, at most 4). */
        public Builder ioThreads(int ioThreads) {
            if (ioThreads < 1) {
                throw new IllegalArgumentException("ioThreads must be >= 1: " + ioThreads);
            }
            this.ioThreads = ioThreads;
            return this;
        }

        /** Callback threads, for listeners and failed requests (default: processors, at least 2). */
        public Builder callbackThreads(int callbackThreads) {
            if (callbackThreads < 1) {
                throw new IllegalArgumentException("callbackThreads must be >= 1: " + callbackThreads);
            }
            this.callbackThreads = callbackThreads;
            return this;
        }

        /**
         * An executor of the caller's on which responses complete their futures (the default: the I/O thread that
         * read the response); its owner shuts it down, not {@link #close()}. Failed requests still complete on
         * the callback threads.
         */
        public Builder executor(Executor executor) {
            this.executor = Objects.requireNonNull(executor, "executor");
            return this;
        }

        /**
         * Responses complete their futures on the callback threads instead of the I/O thread that read them: two
         * thread hand-offs more per request, for applications whose continuations block (the client's own
         * blocking calls included, which otherwise fail at once on an I/O thread).
         */
        public Builder completeOnCallbackThreads() {
            this.completeOnCallbackThreads = true;
            this.executor = null;
            return this;
        }

        public ClientResources build() {
            return new ClientResources(this, true);
        }
    }

    /** The I/O transport: native epoll when present and usable, NIO otherwise. */
    private record Transport(IoHandlerFactory ioHandlerFactory, Class<? extends SocketChannel> socketChannelType,
            Class<? extends ServerSocketChannel> serverSocketChannelType) {

        static Transport select() {
            try {
                if (io.netty.channel.epoll.Epoll.isAvailable()) {
                    return new Transport(io.netty.channel.epoll.EpollIoHandler.newFactory(),
                            io.netty.channel.epoll.EpollSocketChannel.class,
                            io.netty.channel.epoll.EpollServerSocketChannel.class);
                }
            } catch (LinkageError e) {
                // netty-transport-classes-epoll is an optional dependency: absent, NIO it is
            }
            return new Transport(NioIoHandler.newFactory(), NioSocketChannel.class, NioServerSocketChannel.class);
        }
    }

    /** A client's I/O and timer threads: FastThreadLocalThreads for Netty, marked so that blocking calls refuse them. */
    private static final class NonBlockingThread extends FastThreadLocalThread {

        NonBlockingThread(Runnable task, String name) {
            super(task, name);
        }
    }

    /** Daemon threads named {@code prefix + N}, N from 1; FastThreadLocalThreads for Netty's thread locals. */
    private static final class NamedThreadFactory implements ThreadFactory {

        private final String prefix;
        private final boolean daemon;
        private final AtomicInteger count = new AtomicInteger();

        NamedThreadFactory(String prefix, boolean daemon) {
            this.prefix = prefix;
            this.daemon = daemon;
        }

        @Override
        public Thread newThread(Runnable runnable) {
            Thread t = new NonBlockingThread(runnable, prefix + count.incrementAndGet());
            t.setDaemon(daemon);
            return t;
        }
    }
}
