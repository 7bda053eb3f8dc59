package dev.opcua.stack.server.testing;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketTimeoutException;

/** A blocking socket that writes client frames and reads whole server frames, for real-socket tests. */
public final class RawUaClient implements AutoCloseable {

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;

    public RawUaClient(int port) {
        try {
            socket = new Socket("127.0.0.1", port);
            socket.setSoTimeout(5_000);
            socket.setTcpNoDelay(true);
            in = new DataInputStream(socket.getInputStream());
            out = socket.getOutputStream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public RawUaClient send(byte[] bytes) {
        try {
            out.write(bytes);
            out.flush();
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The next whole frame, by the MessageSize of its header. */
    public byte[] readFrame() {
        try {
            byte[] header = new byte[8];
            in.readFully(header);
            int size = (header[4] & 0xFF) | (header[5] & 0xFF) << 8 | (header[6] & 0xFF) << 16 | (header[7] & 0xFF) << 24;
            byte[] frame = new byte[size];
            System.arraycopy(header, 0, frame, 0, 8);
            in.readFully(frame, 8, size - 8);
            return frame;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether the server closed the socket: end of stream within the read timeout. */
    public boolean isClosedByServer() {
        try {
            return in.read() < 0;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (EOFException e) {
            return true;
        } catch (IOException e) {
            return true; // reset
        }
    }

    public RawUaClient readTimeout(int millis) {
        try {
            socket.setSoTimeout(millis);
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // nothing left to do
        }
    }
}
