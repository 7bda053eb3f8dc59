package dev.opcua.stack.pubsub.transport;

/**
 * A snapshot of a transport's counters since it was created, for diagnostics (e.g. Part 14's PubSubDiagnostics
 * or an actuator endpoint). The counters are read one after another without a lock, so they are each exact but not
 * necessarily from the same instant.
 *
 * @param messagesSent messages the broker accepted (QoS 0: written to the connection)
 * @param messagesReceived messages received for the transport's subscriptions
 * @param messagesDropped messages thrown away because the send queue was full while disconnected
 * @param sendFailures messages the broker or the client refused for another reason than a lost connection
 * @param bytesSent payload bytes of {@code messagesSent}
 * @param bytesReceived payload bytes of {@code messagesReceived}
 * @param reconnects successful connections after the first one
 * @param connected whether the transport is connected now
 * @param lastError the last connection or send error, or {@code null} if there was none
 * @param queued messages waiting in the send queue now
 */
public record TransportStatistics(long messagesSent, long messagesReceived, long messagesDropped, long sendFailures,
        long bytesSent, long bytesReceived, long reconnects, boolean connected, String lastError, int queued) {
}
