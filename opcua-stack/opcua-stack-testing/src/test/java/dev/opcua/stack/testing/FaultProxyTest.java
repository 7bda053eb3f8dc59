package dev.opcua.stack.testing;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link FaultProxy} between plain sockets and an echo server: forwarding, each fault, and that
 * {@link FaultProxy#close()} leaves no thread behind.
 */
class FaultProxyTest {

    private static final int READ_TIMEOUT_MILLIS = 2_000;

    private EchoServer echo;
    private FaultProxy proxy;
    private final List<Socket> clients = new CopyOnWriteArrayList<>();

    @BeforeEach
    void startEchoAndProxy() throws IOException {
        echo = new EchoServer();
        proxy = FaultProxy.start("127.0.0.1", echo.port());
    }

    @AfterEach
    void closeAll() throws IOException {
        for (Socket client : clients) {
            client.close();
        }
        proxy.close();
        echo.close();
    }

    @Test
    void forwards_bytes_both_ways_and_counts_the_connection() throws Exception {
        Socket client = connect();

        assertThat(roundTrip(client, "hello")).isEqualTo("hello");
        assertThat(proxy.connections()).isEqualTo(1);
        assertThat(proxy.acceptedTotal()).isEqualTo(1);
        assertThat(proxy.endpointUrl("/milo")).isEqualTo("opc.tcp://127.0.0.1:" + proxy.port() + "/milo");
    }

    @Test
    void drop_all_closes_both_sides_and_new_connections_are_proxied_again() throws Exception {
        Socket client = connect();
        roundTrip(client, "x");

        proxy.dropAll();

        assertThat(client.getInputStream().read()).isEqualTo(-1);
        assertThat(echo.endings.poll(2, TimeUnit.SECONDS)).isEqualTo("eof");
        assertThat(proxy.connections()).isZero();
        assertThat(roundTrip(connect(), "again")).isEqualTo("again");
        assertThat(proxy.connections()).isEqualTo(1);
    }

    @Test
    void reset_closes_both_sides_with_rst() throws Exception {
        Socket client = connect();
        roundTrip(client, "x");

        proxy.reset();

        assertThatThrownBy(() -> client.getInputStream().read()).isInstanceOf(SocketException.class)
                .hasMessageContaining("reset");
        assertThat(echo.endings.poll(2, TimeUnit.SECONDS)).startsWith("reset");
        assertThat(proxy.connections()).isZero();
    }

    @Test
    void stall_holds_the_bytes_of_both_directions_and_resume_delivers_them_in_order() throws Exception {
        Socket client = connect();
        roundTrip(client, "x");
        long receivedBefore = echo.received.get();

        proxy.stall();
        echo.pushToLastConnection("down");
        write(client, "up");

        client.setSoTimeout(300);
        assertThatThrownBy(() -> client.getInputStream().read()).isInstanceOf(SocketTimeoutException.class);
        assertThat(echo.received.get()).isEqualTo(receivedBefore);
        assertThat(proxy.connections()).isEqualTo(1);

        proxy.resume();

        client.setSoTimeout(READ_TIMEOUT_MILLIS);
        assertThat(read(client, 6)).isEqualTo("downup");
        assertThat(echo.received.get()).isEqualTo(receivedBefore + 2);
    }

    @Test
    void refuse_new_closes_new_connections_without_reaching_the_target_and_keeps_live_ones() throws Exception {
        Socket live = connect();
        roundTrip(live, "x");

        proxy.refuseNew(true);
        Socket refused = connect();

        assertThat(refused.getInputStream().read()).isEqualTo(-1);
        await("the refused connection counted").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5))
                .until(() -> proxy.acceptedTotal() == 2);
        assertThat(proxy.connections()).isEqualTo(1);
        assertThat(echo.accepted.get()).isEqualTo(1);
        assertThat(roundTrip(live, "still")).isEqualTo("still");

        proxy.refuseNew(false);

        assertThat(roundTrip(connect(), "back")).isEqualTo("back");
        assertThat(echo.accepted.get()).isEqualTo(2);
    }

    @Test
    void a_connection_the_target_refuses_is_closed() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        try (FaultProxy toNowhere = FaultProxy.start("127.0.0.1", closedPort)) {
            Socket client = new Socket("127.0.0.1", toNowhere.port());
            clients.add(client);
            client.setSoTimeout(READ_TIMEOUT_MILLIS);

            assertThat(client.getInputStream().read()).isEqualTo(-1);
            assertThat(toNowhere.acceptedTotal()).isEqualTo(1);
            assertThat(toNowhere.connections()).isZero();
        }
    }

    @Test
    void close_ends_every_fault_proxy_thread_and_closes_every_connection() throws Exception {
        Socket first = connect();
        Socket second = connect();
        roundTrip(first, "1");
        roundTrip(second, "2");
        proxy.stall();
        write(first, "held");
        assertThat(liveThreadNames("fault-proxy-")).hasSize(5);

        proxy.close();

        assertThat(liveThreadNames("fault-proxy-")).isEmpty();
        assertClosedByPeer(first);
        assertClosedByPeer(second);
        assertThat(proxy.connections()).isZero();
        assertThatThrownBy(() -> new Socket("127.0.0.1", proxy.port())).isInstanceOf(IOException.class);
    }

    // --- helpers

    private Socket connect() throws IOException {
        Socket client = new Socket("127.0.0.1", proxy.port());
        clients.add(client);
        client.setSoTimeout(READ_TIMEOUT_MILLIS);
        return client;
    }

    private static String roundTrip(Socket client, String text) throws IOException {
        write(client, text);
        return read(client, text.length());
    }

    private static void write(Socket client, String text) throws IOException {
        OutputStream out = client.getOutputStream();
        out.write(text.getBytes(US_ASCII));
        out.flush();
    }

    private static String read(Socket client, int length) throws IOException {
        byte[] bytes = client.getInputStream().readNBytes(length);
        return new String(bytes, US_ASCII);
    }

    /** End of stream, or a reset where the proxy closed a socket with bytes it had not read yet. */
    private static void assertClosedByPeer(Socket client) {
        try {
            assertThat(client.getInputStream().read()).isEqualTo(-1);
        } catch (IOException e) {
            assertThat(e).isInstanceOf(SocketException.class).hasMessageContaining("reset");
        }
    }

    /**
     * Echoes every byte on each connection, one {@code echo-server-*} thread each; records how each
     * connection ended ("eof" or "reset: message") and lets the test push bytes from the server side.
     */
    private static final class EchoServer implements AutoCloseable {

        final AtomicInteger accepted = new AtomicInteger();
        final AtomicLong received = new AtomicLong();
        final BlockingQueue<String> endings = new LinkedBlockingQueue<>();
        private final ServerSocket serverSocket;
        private final List<Socket> sockets = new CopyOnWriteArrayList<>();
        private final List<Thread> threads = new CopyOnWriteArrayList<>();

        EchoServer() throws IOException {
            serverSocket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            Thread acceptor = new Thread(this::acceptLoop, "echo-server-accept");
            acceptor.setDaemon(true);
            threads.add(acceptor);
            acceptor.start();
        }

        int port() {
            return serverSocket.getLocalPort();
        }

        void pushToLastConnection(String text) throws IOException {
            write(sockets.get(sockets.size() - 1), text);
        }

        private void acceptLoop() {
            try {
                while (true) {
                    Socket socket = serverSocket.accept();
                    sockets.add(socket);
                    Thread thread = new Thread(() -> echo(socket), "echo-server-" + accepted.incrementAndGet());
                    thread.setDaemon(true);
                    threads.add(thread);
                    thread.start();
                }
            } catch (IOException closed) {
                // serverSocket closed
            }
        }

        private void echo(Socket socket) {
            byte[] buffer = new byte[1024];
            try (socket) {
                InputStream in = socket.getInputStream();
                OutputStream out = socket.getOutputStream();
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    received.addAndGet(n);
                    out.write(buffer, 0, n);
                    out.flush();
                }
                endings.add("eof");
            } catch (IOException e) {
                endings.add("reset: " + e.getMessage());
            }
        }

        @Override
        public void close() throws IOException {
            serverSocket.close();
            for (Socket socket : sockets) {
                socket.close();
            }
            for (Thread thread : threads) {
                try {
                    thread.join(Duration.ofSeconds(2).toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** The names of this JVM's live threads whose name starts with {@code prefix}. */
    private static List<String> liveThreadNames(String prefix) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.isAlive() && thread.getName().startsWith(prefix))
                .map(Thread::getName)
                .toList();
    }
}
