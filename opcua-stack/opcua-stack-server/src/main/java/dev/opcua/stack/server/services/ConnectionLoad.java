package dev.opcua.stack.server.services;

import dev.opcua.stack.server.transport.uasc.ServerSecureChannel;

/**
 * How many small requests one connection brings per socket read, for the dispatcher's flood bound
 * ({@link dev.opcua.stack.server.requests.RequestPoolSettings#maxRequestsPerRead()}, DESIGN.md section 3):
 * a client that keeps sending more than the server reads fills every read with hundreds of requests.
 * When two reads in a row bring more than the bound, the requests of the second beyond the bound are
 * refused; a burst that fits one read is served whole. Attached to the secure channel
 * ({@link ServerSecureChannel#attachListenerState}) at its first request; used only on its event loop.
 */
final class ConnectionLoad {

    private final int maxPerRead;
    private int thisRead;
    private boolean lastReadOver;

    private ConnectionLoad(int maxPerRead) {
        this.maxPerRead = maxPerRead;
    }

    /** The channel's load, attached at the first call; a fresh one for a channel that keeps no state. */
    static ConnectionLoad of(ServerSecureChannel channel, int maxPerRead) {
        if (channel.listenerState() instanceof ConnectionLoad load) {
            return load;
        }
        ConnectionLoad load = new ConnectionLoad(maxPerRead);
        channel.attachListenerState(load);
        return load;
    }

    /** Counts one small request of this read; whether it is beyond the bound in the second over-bound read in a row. */
    boolean countAndRefuse() {
        thisRead++;
        return maxPerRead > 0 && lastReadOver && thisRead > maxPerRead;
    }

    /** The socket read is done: remember whether it brought more than the bound. */
    void readComplete() {
        lastReadOver = maxPerRead > 0 && thisRead > maxPerRead;
        thisRead = 0;
    }
}
