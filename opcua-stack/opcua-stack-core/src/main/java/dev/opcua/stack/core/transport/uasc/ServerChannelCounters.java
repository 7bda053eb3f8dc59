package dev.opcua.stack.core.transport.uasc;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Live counts of one server's transport: open sockets, the count that {@code maxConnections} bounds
 * (Part 6, 7.1.2.3: BadTcpNotEnoughResources beyond it), and open secure channels. Updated by the
 * {@link UascServerHandler}s of all event loops; read by the server and, later, its metrics.
 */
public final class ServerChannelCounters {

    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger secureChannels = new AtomicInteger();

    /** Sockets currently open, counted from channelActive to channelInactive. */
    public int openConnections() {
        return connections.get();
    }

    /** Secure channels currently open, counted from the OPN Issue to the socket's close. */
    public int secureChannels() {
        return secureChannels.get();
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
