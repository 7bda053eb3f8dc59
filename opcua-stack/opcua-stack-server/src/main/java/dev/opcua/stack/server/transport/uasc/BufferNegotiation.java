package dev.opcua.stack.server.transport.uasc;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.channel.messages.AcknowledgeMessage;
import dev.opcua.stack.core.channel.messages.HelloMessage;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.ids.StatusCodes;

/**
 * The server's side of the buffer negotiation (Part 6, 7.1.2.4): the Acknowledge for a Hello.
 *
 * <p>Each direction uses the smaller of what the sender can send and the receiver can receive, so
 * the ACK's ReceiveBufferSize is at most the Hello's SendBufferSize and its SendBufferSize at most the
 * Hello's ReceiveBufferSize. Buffer sizes below 8192 are refused: this stack offers no ECC policy,
 * the only case where 1024 is allowed (Part 6, 6.7.1). The spec names no status for that; this uses
 * {@code BadCommunicationError}.
 */
final class BufferNegotiation {

    /** The only UA TCP protocol version (Part 6, 7.1.2.3); any requested version is answered with it. */
    static final long PROTOCOL_VERSION = 0;

    private BufferNegotiation() {
    }

    /**
     * The Acknowledge a server with {@code serverQuotas} sends for {@code hello}: buffer sizes as
     * above, the server's MaxMessageSize and its {@link TransportQuotas#effectiveMaxChunkCount()}.
     *
     * @throws UaException {@code BadCommunicationError} when the Hello's ReceiveBufferSize or
     *         SendBufferSize is below 8192
     */
    static AcknowledgeMessage negotiate(HelloMessage hello, TransportQuotas serverQuotas) {
        requireMinimum("ReceiveBufferSize", hello.receiveBufferSize());
        requireMinimum("SendBufferSize", hello.sendBufferSize());
        // The quota is an int, so the min also clamps UInt32 sizes above 2^31-1.
        long limit = serverQuotas.maxBufferSize();
        return new AcknowledgeMessage(
                PROTOCOL_VERSION,
                Math.min(limit, hello.sendBufferSize()),
                Math.min(limit, hello.receiveBufferSize()),
                serverQuotas.maxMessageSize(),
                serverQuotas.effectiveMaxChunkCount());
    }

    private static void requireMinimum(String field, long size) {
        if (size < TransportQuotas.MIN_BUFFER_SIZE) {
            throw new UaException(StatusCodes.BadCommunicationError, field + " " + size
                    + " is below the minimum " + TransportQuotas.MIN_BUFFER_SIZE + " (Part 6, 7.1.2.3)");
        }
    }
}
