package dev.opcua.stack.core.channel.messages;

import static dev.opcua.stack.core.channel.messages.UacpCodec.readHeader;
import static dev.opcua.stack.core.channel.messages.UacpCodec.requireUrlLength;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.channel.MessageType;
import dev.opcua.stack.core.ids.StatusCodes;
import io.netty.buffer.ByteBuf;

/**
 * ReverseHello, the first message on a connection the server opened to a client (Part 6, 7.1.2.6,
 * Table 75); the client answers with a Hello that carries the EndpointUrl back.
 *
 * @param serverUri the server's ApplicationUri, below 4096 UTF-8 bytes
 * @param endpointUrl the endpoint the client shall name in its Hello, below 4096 UTF-8 bytes
 */
public record ReverseHelloMessage(String serverUri, String endpointUrl) {

    private static final String NAME = "ReverseHello";

    /**
     * Checks that both strings are short enough.
     *
     * @throws UaException {@code BadTcpEndpointUrlInvalid} when the ServerUri or the EndpointUrl is 4096
     *         UTF-8 bytes or longer
     */
    public ReverseHelloMessage {
        requireUrlLength(NAME, "ServerUri", serverUri);
        requireUrlLength(NAME, "EndpointUrl", endpointUrl);
    }

    /** Writes the whole message, header included. */
    public void encode(ByteBuf out) {
        int start = UacpCodec.writeHeader(out, MessageType.RHE);
        UacpCodec.writeString(out, serverUri);
        UacpCodec.writeString(out, endpointUrl);
        UacpCodec.patchSize(out, start);
    }

    /**
     * Reads a whole RHE frame, header included, leaving the reader index at its end; bytes after the
     * EndpointUrl are skipped, as a later protocol version may append fields. The frame is not
     * released.
     *
     * @throws UaException {@code BadDecodingError} for a truncated or malformed frame,
     *         {@code BadTcpMessageTypeInvalid} for another message type, {@code BadTcpEndpointUrlInvalid}
     *         for a ServerUri or EndpointUrl of 4096 bytes or more (Part 6, 7.1.2.6)
     */
    public static ReverseHelloMessage decode(ByteBuf frame) {
        readHeader(frame, MessageType.RHE, NAME);
        String serverUri = UacpCodec.readString(frame, NAME, "ServerUri", UacpCodec.MAX_URL_BYTES,
                StatusCodes.BadTcpEndpointUrlInvalid);
        String endpointUrl = UacpCodec.readString(frame, NAME, "EndpointUrl", UacpCodec.MAX_URL_BYTES,
                StatusCodes.BadTcpEndpointUrlInvalid);
        frame.skipBytes(frame.readableBytes());
        return new ReverseHelloMessage(serverUri, endpointUrl);
    }
}
