package dev.opcua.stack.core.channel.messages;

import static dev.opcua.stack.core.channel.messages.UacpCodec.readHeader;
import static dev.opcua.stack.core.channel.messages.UacpCodec.readUInt32;
import static dev.opcua.stack.core.channel.messages.UacpCodec.requireUInt32;
import static dev.opcua.stack.core.channel.messages.UacpCodec.requireUrlLength;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.channel.MessageType;
import dev.opcua.stack.core.ids.StatusCodes;
import io.netty.buffer.ByteBuf;

/**
 * Hello, the first message a client sends on a connection it opened (Part 6, 7.1.2.3, Table 72):
 * the client's buffer sizes and limits for responses, and the endpoint it wants. UInt32 fields are
 * held in longs.
 *
 * @param protocolVersion UA TCP protocol version the client speaks; 0 for this version of the spec
 * @param receiveBufferSize largest chunk the client can receive
 * @param sendBufferSize largest chunk the client will send
 * @param maxMessageSize largest response body the client accepts; 0 = no limit
 * @param maxChunkCount most chunks in a response; 0 = no limit
 * @param endpointUrl the endpoint the client connects to, below 4096 UTF-8 bytes; may be null
 */
public record HelloMessage(
        long protocolVersion,
        long receiveBufferSize,
        long sendBufferSize,
        long maxMessageSize,
        long maxChunkCount,
        String endpointUrl) {

    private static final String NAME = "Hello";

    /**
     * Checks that the UInt32 fields are in range and the EndpointUrl is short enough.
     *
     * @throws IllegalArgumentException when a UInt32 field is outside 0 to 2^32-1
     * @throws UaException {@code BadTcpEndpointUrlInvalid} when the EndpointUrl is 4096 UTF-8 bytes or longer
     */
    public HelloMessage {
        requireUInt32("protocolVersion", protocolVersion);
        requireUInt32("receiveBufferSize", receiveBufferSize);
        requireUInt32("sendBufferSize", sendBufferSize);
        requireUInt32("maxMessageSize", maxMessageSize);
        requireUInt32("maxChunkCount", maxChunkCount);
        requireUrlLength(NAME, "EndpointUrl", endpointUrl);
    }

    /** Writes the whole message, header included. */
    public void encode(ByteBuf out) {
        int start = UacpCodec.writeHeader(out, MessageType.HEL);
        UacpCodec.writeUInt32(out, protocolVersion);
        UacpCodec.writeUInt32(out, receiveBufferSize);
        UacpCodec.writeUInt32(out, sendBufferSize);
        UacpCodec.writeUInt32(out, maxMessageSize);
        UacpCodec.writeUInt32(out, maxChunkCount);
        UacpCodec.writeString(out, endpointUrl);
        UacpCodec.patchSize(out, start);
    }

    /**
     * Reads a whole HEL frame, header included, leaving the reader index at its end; bytes after the
     * EndpointUrl are skipped, as a later protocol version may append fields. The frame is not
     * released.
     *
     * @throws UaException {@code BadDecodingError} for a truncated or malformed frame,
     *         {@code BadTcpMessageTypeInvalid} for another message type, {@code BadTcpEndpointUrlInvalid}
     *         for an EndpointUrl of 4096 bytes or more
     */
    public static HelloMessage decode(ByteBuf frame) {
        readHeader(frame, MessageType.HEL, NAME);
        long protocolVersion = readUInt32(frame, NAME, "ProtocolVersion");
        long receiveBufferSize = readUInt32(frame, NAME, "ReceiveBufferSize");
        long sendBufferSize = readUInt32(frame, NAME, "SendBufferSize");
        long maxMessageSize = readUInt32(frame, NAME, "MaxMessageSize");
        long maxChunkCount = readUInt32(frame, NAME, "MaxChunkCount");
        String endpointUrl = UacpCodec.readString(frame, NAME, "EndpointUrl", UacpCodec.MAX_URL_BYTES,
                StatusCodes.BadTcpEndpointUrlInvalid);
        frame.skipBytes(frame.readableBytes());
        return new HelloMessage(protocolVersion, receiveBufferSize, sendBufferSize, maxMessageSize, maxChunkCount,
                endpointUrl);
    }
}
