package dev.opcua.stack.server.transport;

/**
 * What the server's reverse connect did so far (Part 6, 7.1.3).
 *
 * @param attempts connections dialled
 * @param failedAttempts dials that did not connect
 * @param taken connections a client took (its Hello arrived)
 * @param closedUnused connections that closed before a Hello: refused by the client, or timed out
 */
public record ReverseConnectStatistics(long attempts, long failedAttempts, long taken, long closedUnused) {

    /** Nothing done: reverse connect is off. */
    public static final ReverseConnectStatistics NONE = new ReverseConnectStatistics(0, 0, 0, 0);
}
