package dev.opcua.stack.server.transport;

import io.netty.channel.Channel;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;

/**
 * The Netty transport of a server: native epoll when its library loads on this platform, else NIO.
 * The epoll classes are optional dependencies; they are touched only after the availability check,
 * from a nested class, so that a classpath without them still runs on NIO.
 *
 * @param name "epoll" or "nio", for logs
 * @param ioHandlerFactory the event loops' I/O handler
 * @param serverChannelClass the listening socket's channel type
 * @param socketChannelClass the channel type of a connection the server opens (reverse connect)
 */
record IoTransport(String name, IoHandlerFactory ioHandlerFactory, Class<? extends ServerChannel> serverChannelClass,
        Class<? extends Channel> socketChannelClass) {

    /** Epoll when {@code preferNative} and available, else NIO. */
    static IoTransport select(boolean preferNative) {
        if (preferNative && epollAvailable()) {
            return Native.EPOLL;
        }
        return new IoTransport("nio", NioIoHandler.newFactory(), NioServerSocketChannel.class,
                NioSocketChannel.class);
    }

    private static boolean epollAvailable() {
        try {
            return Epoll.isAvailable();
        } catch (LinkageError e) {
            return false; // netty-transport-classes-epoll is not on the classpath
        }
    }

    private static final class Native {
        static final IoTransport EPOLL = new IoTransport("epoll", EpollIoHandler.newFactory(),
                EpollServerSocketChannel.class, EpollSocketChannel.class);
    }
}
