package dev.opcua.stack.server.transport.uasc;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * Live counts of one server's transport: open sockets, the count that {@code maxConnections} bounds
 * (Part 6, 7.1.2.3: BadTcpNotEnoughResources beyond it), open secure channels, the bytes that
 * crossed the sockets, and the peers refused per {@link TransportRejection}. Updated by the handlers of all event loops (striped adders for the bytes, so
 * the event loops do not contend); read by the server and its metrics.
 */
public final class ServerChannelCounters {

    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger secureChannels = new AtomicInteger();
    private final LongAdder bytesReceived = new LongAdder();
    private final LongAdder bytesSent = new LongAdder();
    private final AtomicLongArray rejections = new AtomicLongArray(TransportRejection.values().length);

    /** Sockets currently open, counted from channelActive to channelInactive. */
    public int openConnections() {
        return connections.get();
    }

    /** Secure channels currently open, counted from the OPN Issue to the socket's close. */
    public int secureChannels() {
        return secureChannels.get();
    }

    /** Bytes read from all sockets since the server started, UA TCP headers included. */
    public long bytesReceived() {
        return bytesReceived.sum();
    }

    /** Bytes written to all sockets since the server started, UA TCP headers included. */
    public long bytesSent() {
        return bytesSent.sum();
    }

    /** Counts bytes read from a socket. */
    public void received(long bytes) {
        bytesReceived.add(bytes);
    }

    /** Counts bytes written to a socket. */
    public void sent(long bytes) {
        bytesSent.add(bytes);
    }

    /** Peers refused for {@code reason} since the server started. */
    public long rejected(TransportRejection reason) {
        return rejections.get(reason.ordinal());
    }

    /** Counts one refusal. */
    public void reject(TransportRejection reason) {
        rejections.incrementAndGet(reason.ordinal());
    }

    /** Counts a new socket and returns the count including it. */
    int connectionOpened() {
        return connections.incrementAndGet();
    }

    void connectionClosed() {
        connections.decrementAndGet();
    }

    void secureChannelOpened() {
        secureChannels.incrementAndGet();
    }

    void secureChannelClosed() {
        secureChannels.decrementAndGet();
    }
}
