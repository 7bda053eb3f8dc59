package dev.opcua.stack.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy on 127.0.0.1 and an ephemeral port that forwards every connection to one target, and
 * makes the faults a reconnecting client must survive real: {@link #dropAll()} closes every
 * connection, {@link #reset()} resets it, {@link #stall()} stops the bytes, {@link #refuseNew}
 * makes the target look down.
 *
 * <p>Each proxied connection has two daemon threads, {@code fault-proxy-<port>-<n>-up} (client to
 * target) and {@code -down}; the acceptor is {@code fault-proxy-<port>-accept}. A connection that
 * the target refuses is closed at once. End of stream on one side is passed on as a half close.
 * {@link #close()} ends every thread and socket.
 */
public final class FaultProxy implements AutoCloseable {

    private static final int CONNECT_TIMEOUT_MILLIS = 5_000;
    private static final long JOIN_MILLIS = 5_000;

    private final InetSocketAddress target;
    private final ServerSocket serverSocket;
    private final Thread acceptor;
    private final String threadPrefix;
    private final Set<Connection> connections = ConcurrentHashMap.newKeySet();
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicInteger connectionIds = new AtomicInteger();
    private final Object stallLock = new Object();
    private boolean stalled;
    private volatile boolean refuseNew;
    private volatile boolean closed;

    private FaultProxy(InetSocketAddress target) throws IOException {
        this.target = target;
        this.serverSocket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.threadPrefix = "fault-proxy-" + serverSocket.getLocalPort();
        this.acceptor = new Thread(this::acceptLoop, threadPrefix + "-accept");
        acceptor.setDaemon(true);
    }

    /** Listens on 127.0.0.1 and an ephemeral port and forwards to {@code targetHost:targetPort}. */
    public static FaultProxy start(String targetHost, int targetPort) throws IOException {
        FaultProxy proxy = new FaultProxy(new InetSocketAddress(Objects.requireNonNull(targetHost, "targetHost"),
                targetPort));
        proxy.acceptor.start();
        return proxy;
    }

    /** The proxy's port on 127.0.0.1. */
    public int port() {
        return serverSocket.getLocalPort();
    }

    /** {@code opc.tcp://127.0.0.1:<port><path>}, e.g. {@code endpointUrl("/milo")}. */
    public String endpointUrl(String path) {
        return "opc.tcp://127.0.0.1:" + port() + path;
    }

    /**
     * Closes every proxied connection on both sides at once, as a broken link or a killed process
     * would: an orderly close (FIN), or RST where the kernel still holds unread bytes. New
     * connections are proxied as before.
     */
    public void dropAll() {
        closeAll(false);
    }

    /** Closes every proxied connection on both sides with RST (SO_LINGER 0). */
    public void reset() {
        closeAll(true);
    }

    /**
     * Stops forwarding in both directions while connections stay open, as a hung peer or a
     * black-holed route would. Bytes that arrive meanwhile are held, the proxy's buffer first and
     * then the sockets' (TCP flow control), and delivered in order on {@link #resume()}. Applies to
     * connections accepted while stalled too.
     */
    public void stall() {
        synchronized (stallLock) {
            stalled = true;
        }
    }

    /** Forwards again, the held bytes first. */
    public void resume() {
        synchronized (stallLock) {
            stalled = false;
            stallLock.notifyAll();
        }
    }

    /**
     * While on, accepts each new connection and closes it at once without contacting the target,
     * as a host whose server process is down (the client sees its connection closed). Existing
     * connections are unaffected.
     */
    public void refuseNew(boolean refuse) {
        this.refuseNew = refuse;
    }

    /** Live proxied connections (accepted, connected to the target, not yet closed). */
    public int connections() {
        return connections.size();
    }

    /** Connections accepted since start, those refused by {@link #refuseNew} or the target included. */
    public long acceptedTotal() {
        return accepted.get();
    }

    /** Stops listening, closes every connection and waits for every thread of this proxy to end. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        closeQuietly(serverSocket);
        closeAll(false);
        resume();
        List<Thread> toJoin;
        synchronized (threads) {
            toJoin = new ArrayList<>(threads);
        }
        toJoin.add(acceptor);
        for (Thread thread : toJoin) {
            try {
                thread.join(JOIN_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    public String toString() {
        return "FaultProxy[127.0.0.1:" + port() + " -> " + target + "]";
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = serverSocket.accept();
            } catch (IOException e) {
                if (closed) {
                    return;
                }
                continue;
            }
            accepted.incrementAndGet();
            if (refuseNew || closed) {
                closeQuietly(client);
                continue;
            }
            Socket server = new Socket();
            try {
                server.connect(target, CONNECT_TIMEOUT_MILLIS);
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
            } catch (IOException e) {
                closeQuietly(server);
                closeQuietly(client);
                continue;
            }
            Connection connection = new Connection(client, server, connectionIds.incrementAndGet());
            connections.add(connection);
            if (closed) {
                connection.close(false);
            } else {
                connection.start();
            }
        }
    }

    private void closeAll(boolean reset) {
        for (Connection connection : connections) {
            connection.close(reset);
        }
    }

    /** Waits while stalled; false once the connection is closed. */
    private boolean awaitForwarding(Connection connection) throws InterruptedException {
        synchronized (stallLock) {
            while (stalled && !connection.closed) {
                stallLock.wait();
            }
            return !connection.closed;
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception ignored) {
            // closing anyway
        }
    }

    private final class Connection {

        private final Socket client;
        private final Socket server;
        private final Thread up;
        private final Thread down;
        private final AtomicInteger pumpsRunning = new AtomicInteger(2);
        private volatile boolean closed;

        Connection(Socket client, Socket server, int id) {
            this.client = client;
            this.server = server;
            String name = threadPrefix + "-" + id;
            this.up = new Thread(() -> pump(client, server), name + "-up");
            this.down = new Thread(() -> pump(server, client), name + "-down");
            up.setDaemon(true);
            down.setDaemon(true);
        }

        void start() {
            synchronized (threads) {
                threads.removeIf(thread -> !thread.isAlive());
                threads.add(up);
                threads.add(down);
            }
            up.start();
            down.start();
        }

        private void pump(Socket from, Socket to) {
            byte[] buffer = new byte[16 * 1024];
            try {
                InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream();
                while (true) {
                    int n = in.read(buffer);
                    if (n < 0) {
                        if (awaitForwarding(this)) {
                            to.shutdownOutput();
                        }
                        break;
                    }
                    if (!awaitForwarding(this)) {
                        break;
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                close(false);
            } finally {
                if (pumpsRunning.decrementAndGet() == 0) {
                    close(false);
                }
            }
        }

        void close(boolean reset) {
            synchronized (this) {
                if (closed) {
                    return;
                }
                closed = true;
            }
            connections.remove(this);
            for (Socket socket : List.of(client, server)) {
                if (reset) {
                    try {
                        socket.setSoLinger(true, 0);
                    } catch (SocketException e) {
                        // already closed
                    }
                }
                closeQuietly(socket);
            }
            synchronized (stallLock) {
                stallLock.notifyAll();
            }
        }
    }
}
