package dev.opcua.stack.client.transport;

import static org.awaitility.Awaitility.await;

import dev.opcua.stack.client.transport.uasc.GoldenFrames;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A blocking UA TCP server on the loopback address that answers with {@link GoldenFrames}: enough of
 * a peer to drive {@link UaTcpClientChannel} over a real socket, timer wheel and executor included.
 */
public final class ScriptedUaServer implements AutoCloseable {

    public static final long CHANNEL_ID = 42;
    public static final long TOKEN_ID = 1;

    /** What the server does after the handshake. */
    public enum Mode {
        /** Answers every MSG with an empty GetEndpointsResponse. */
        ANSWER,
        /** Answers every MSG after 100 ms, so callbacks are attached before the response arrives. */
        SLOW_ANSWER,
        /** Opens the channel, then never answers. */
        SILENT,
        /** Reads the Hello and never acknowledges. */
        NO_ACK,
        /** Closes the socket on the first MSG. */
        HANG_UP
    }

    private final ServerSocket socket;
    private final Mode mode;
    private final List<String> received = new CopyOnWriteArrayList<>();
    private final List<Socket> connections = new CopyOnWriteArrayList<>();
    private final AtomicInteger threads = new AtomicInteger();

    public ScriptedUaServer(Mode mode) throws IOException {
        this.mode = mode;
        this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "scripted-ua-server-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public String endpointUrl() {
        return "opc.tcp://127.0.0.1:" + socket.getLocalPort() + "/scripted";
    }

    /** Message types received so far, in order, e.g. HEL, OPN, MSG, CLO. */
    public List<String> received() {
        return received;
    }

    /**
     * Waits up to 5 s until a message of {@code type} has arrived: the client sends CLO after its call
     * completes, so the server may read it a moment later.
     *
     * @throws org.awaitility.core.ConditionTimeoutException if none arrives
     */
    public void awaitReceived(String type) {
        await(type + " received").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5))
                .until(() -> received.contains(type));
    }

    private void accept() {
        while (!socket.isClosed()) {
            try {
                Socket connection = socket.accept();
                connection.setTcpNoDelay(true);
                connections.add(connection);
                Thread t = new Thread(() -> serve(connection), "scripted-ua-server-" + threads.incrementAndGet());
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void serve(Socket connection) {
        long sequence = 1000;
        try (connection) {
            DataInputStream in = new DataInputStream(connection.getInputStream());
            OutputStream out = connection.getOutputStream();
            byte[] header = new byte[8];
            while (true) {
                in.readFully(header);
                int size = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN).getInt(4);
                byte[] frame = new byte[size];
                System.arraycopy(header, 0, frame, 0, 8);
                in.readFully(frame, 8, size - 8);
                String type = new String(frame, 0, 3, java.nio.charset.StandardCharsets.US_ASCII);
                received.add(type);
                ByteBuffer le = ByteBuffer.wrap(frame).order(ByteOrder.LITTLE_ENDIAN);
                switch (type) {
                    case "HEL" -> {
                        if (mode != Mode.NO_ACK) {
                            out.write(GoldenFrames.ack());
                        }
                    }
                    // RequestId after message header (12), None asymmetric header (59), SequenceNumber (4)
                    case "OPN" -> out.write(GoldenFrames.opnResponse(CHANNEL_ID, sequence++,
                            Integer.toUnsignedLong(le.getInt(75)), TOKEN_ID, 3_600_000));
                    case "MSG" -> {
                        if (mode == Mode.HANG_UP) {
                            return;
                        }
                        if (mode == Mode.SLOW_ANSWER) {
                            sleep(100); // the scenario: a slow server
                        }
                        if (mode == Mode.ANSWER || mode == Mode.SLOW_ANSWER) {
                            // RequestId after message header (12), TokenId (4), SequenceNumber (4); the
                            // RequestHandle after the body's 4-byte type NodeId, a null authentication
                            // token (2) and the Timestamp (8)
                            out.write(GoldenFrames.msgChunk('F', CHANNEL_ID, TOKEN_ID, sequence++,
                                    Integer.toUnsignedLong(le.getInt(20)),
                                    GoldenFrames.getEndpointsResponse(Integer.toUnsignedLong(le.getInt(38)))));
                        }
                    }
                    case "CLO" -> {
                        return;
                    }
                    default -> throw new IOException("unexpected " + type);
                }
                out.flush();
            }
        } catch (IOException e) {
            // the client closed the connection
        }
    }

    private static void sleep(long millis) throws IOException {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
        for (Socket c : connections) {
            c.close();
        }
    }
}
