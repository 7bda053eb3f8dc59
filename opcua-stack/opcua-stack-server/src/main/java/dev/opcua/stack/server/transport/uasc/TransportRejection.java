package dev.opcua.stack.server.transport.uasc;

import dev.opcua.stack.core.ids.StatusCodes;

/**
 * Why the server refused a peer at the transport: closed its connection with an ERR message (Part 6,
 * 7.1.5), or answered one response with a ServiceFault because it exceeded the peer's limits. Counted
 * per reason in {@link ServerChannelCounters}, so that a hostile peer shows in the metrics.
 */
public enum TransportRejection {

    /** A socket beyond maxConnections: ERR BadTcpNotEnoughResources (Part 6, 7.1.2.3). */
    CONNECTION_LIMIT,

    /** No Hello, or no OpenSecureChannel after it, within the hello timeout: ERR BadTimeout. */
    HANDSHAKE_TIMEOUT,

    /** A message begun but not finished within the message receive timeout: ERR BadTimeout. */
    RECEIVE_TIMEOUT,

    /**
     * A chunk over the negotiated buffer size (ERR BadTcpMessageTooLarge) or a request over
     * MaxMessageSize or MaxChunkCount (ERR BadRequestTooLarge).
     */
    MESSAGE_TOO_LARGE,

    /** A response over the client's MaxMessageSize or MaxChunkCount: ServiceFault BadResponseTooLarge. */
    RESPONSE_TOO_LARGE,

    /** The connection's outbound queue stayed above its high-water mark for the write stall timeout: closed. */
    WRITE_STALL,

    /**
     * A response chunk that would have taken the connection's outbound queue past writeBufferLimit:
     * closed at once (the chunks of one message cannot be dropped without a gap in the sequence numbers).
     */
    WRITE_BUFFER_LIMIT,

    /** Any other ERR: a malformed or out-of-order message, a security check that failed. */
    PROTOCOL_ERROR;

    /** The reason an ERR with {@code status} stands for. */
    static TransportRejection ofError(int status) {
        if (status == StatusCodes.BadTcpNotEnoughResources) {
            return CONNECTION_LIMIT;
        }
        if (status == StatusCodes.BadTcpMessageTooLarge || status == StatusCodes.BadRequestTooLarge) {
            return MESSAGE_TOO_LARGE;
        }
        return PROTOCOL_ERROR;
    }
}
