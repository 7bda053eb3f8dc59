package dev.opcua.stack.client.transport;

/**
 * What a {@link ReverseConnectListener} did so far.
 *
 * @param connections connections servers opened to the listener
 * @param accepted connections handed to a caller for a secure channel
 * @param refused connections refused for their ReverseHello: malformed, another message, or a server or endpoint
 *        this client does not expect
 * @param timedOut connections closed for sending no ReverseHello within the hello timeout
 * @param dropped connections closed at once because the pending limit was reached
 * @param held connections open now and not handed out: waiting for their ReverseHello or for a caller
 */
public record ReverseConnectListenerStatistics(long connections, long accepted, long refused, long timedOut,
        long dropped, int held) {
}
