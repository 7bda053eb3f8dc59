package dev.opcua.stack.core.channel.messages;

import static dev.opcua.stack.core.channel.messages.UacpCodec.readHeader;
import static dev.opcua.stack.core.channel.messages.UacpCodec.readUInt32;
import static dev.opcua.stack.core.channel.messages.UacpCodec.requireUInt32;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.channel.MessageType;
import io.netty.buffer.ByteBuf;

/**
 * Acknowledge, the server's answer to a Hello (Part 6, 7.1.2.4, Table 73): the buffer sizes both
 * ends use from now on and the server's limits for requests. UInt32 fields are held in longs. The
 * server module's BufferNegotiation builds it from a Hello.
 *
 * @param protocolVersion UA TCP protocol version the server will use; at most the Hello's
 * @param receiveBufferSize largest chunk the server can receive; at most the Hello's SendBufferSize
 * @param sendBufferSize largest chunk the server will send; at most the Hello's ReceiveBufferSize
 * @param maxMessageSize largest request body the server accepts; 0 = no limit
 * @param maxChunkCount most chunks in a request; 0 = no limit
 */
public record AcknowledgeMessage(
        long protocolVersion,
        long receiveBufferSize,
        long sendBufferSize,
        long maxMessageSize,
        long maxChunkCount) {

    private static final String NAME = "Acknowledge";

    public AcknowledgeMessage {
        requireUInt32("protocolVersion", protocolVersion);
        requireUInt32("receiveBufferSize", receiveBufferSize);
        requireUInt32("sendBufferSize", sendBufferSize);
        requireUInt32("maxMessageSize", maxMessageSize);
        requireUInt32("maxChunkCount", maxChunkCount);
    }

    /** Writes the whole message, header included: always 28 bytes. */
    public void encode(ByteBuf out) {
        int start = UacpCodec.writeHeader(out, MessageType.ACK);
        UacpCodec.writeUInt32(out, protocolVersion);
        UacpCodec.writeUInt32(out, receiveBufferSize);
        UacpCodec.writeUInt32(out, sendBufferSize);
        UacpCodec.writeUInt32(out, maxMessageSize);
        UacpCodec.writeUInt32(out, maxChunkCount);
        UacpCodec.patchSize(out, start);
    }

    /**
     * Reads a whole ACK frame, header included, leaving the reader index at its end; bytes after the
     * MaxChunkCount are skipped, as a later protocol version may append fields. The frame is not
     * released.
     *
     * @throws UaException {@code BadDecodingError} for a truncated or malformed frame,
     *         {@code BadTcpMessageTypeInvalid} for another message type
     */
    public static AcknowledgeMessage decode(ByteBuf frame) {
        readHeader(frame, MessageType.ACK, NAME);
        long protocolVersion = readUInt32(frame, NAME, "ProtocolVersion");
        long receiveBufferSize = readUInt32(frame, NAME, "ReceiveBufferSize");
        long sendBufferSize = readUInt32(frame, NAME, "SendBufferSize");
        long maxMessageSize = readUInt32(frame, NAME, "MaxMessageSize");
        long maxChunkCount = readUInt32(frame, NAME, "MaxChunkCount");
        frame.skipBytes(frame.readableBytes());
        return new AcknowledgeMessage(protocolVersion, receiveBufferSize, sendBufferSize, maxMessageSize,
                maxChunkCount);
    }
}
