package dev.opcua.stack.server.redundancy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP forwarder for tests whose target can change: connections accepted after {@link #target(int)} go to the
 * new port; when either side of a forwarded connection closes, both do. Lets a client that knows one address (an
 * independent client without failover of its own) reach the partner of a crashed server. Threads
 * {@code retargeting-proxy-*}, stopped by {@link #close()}.
 */
final class RetargetingProxy implements AutoCloseable {

    private final ServerSocket listener;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile int targetPort;

    RetargetingProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        listener = new ServerSocket();
        listener.bind(new InetSocketAddress("127.0.0.1", 0));
        Thread accept = new Thread(this::accept, "retargeting-proxy-accept");
        accept.setDaemon(true);
        accept.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    /** Connections from now on go to {@code port} on localhost. */
    void target(int port) {
        targetPort = port;
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server;
                try {
                    server = new Socket("127.0.0.1", targetPort);
                } catch (IOException e) {
                    client.close();
                    continue;
                }
                sockets.add(client);
                sockets.add(server);
                pump(client, server);
                pump(server, client);
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[64 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int read;
                while ((read = in.read(buffer)) >= 0) {
                    out.write(buffer, 0, read);
                }
            } catch (IOException e) {
                // one side went away: both are closed below
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "retargeting-proxy-pump");
        thread.setDaemon(true);
        thread.start();
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        sockets.forEach(RetargetingProxy::closeQuietly);
    }
}
