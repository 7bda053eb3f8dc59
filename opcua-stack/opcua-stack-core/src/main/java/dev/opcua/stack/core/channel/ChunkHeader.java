package dev.opcua.stack.core.channel;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.ChunkCrypto;
import io.netty.buffer.ByteBuf;
import java.util.function.LongFunction;

/**
 * The parsed headers of one received secure conversation chunk (Part 6, 6.7.2): message header,
 * security header, sequence header, and where the body lies in the frame.
 *
 * <p>Mutable and reused by its channel for every chunk, so that reading a chunk allocates nothing
 * (OPN chunks, rare, allocate their {@link AsymmetricSecurityHeader}).
 */
public final class ChunkHeader {

    private MessageType messageType;
    private ChunkType chunkType;
    private long secureChannelId;
    private AsymmetricSecurityHeader asymmetricHeader;
    private long tokenId;
    private long sequenceNumber;
    private long requestId;

    /**
     * Reads the headers of an OPN, MSG or CLO frame, has {@code cryptoForToken} find the crypto of the
     * chunk's token (for OPN: token 0) and verify the chunk, and leaves the frame's reader index at
     * the body and its writer index at the body's end.
     *
     * @throws UaException BadTcpMessageTypeInvalid for other message types, BadDecodingError for a
     *         truncated chunk, or what the crypto lookup and verification raise
     */
    public void read(ByteBuf frame, LongFunction<ChunkCrypto> cryptoForToken) {
        int chunkStart = frame.readerIndex();
        if (frame.readableBytes() < ChunkEncoder.MESSAGE_HEADER_SIZE) {
            throw new UaException(StatusCodes.BadDecodingError, "chunk of " + frame.readableBytes()
                    + " bytes is shorter than the secure conversation header");
        }
        int header = frame.readIntLE();
        messageType = MessageType.fromHeader(header);
        chunkType = ChunkType.fromByte((header >>> 24) & 0xFF);
        if (messageType != MessageType.OPN && messageType != MessageType.MSG && messageType != MessageType.CLO) {
            throw new UaException(StatusCodes.BadTcpMessageTypeInvalid, "message type " + messageType
                    + " is not valid on an open connection");
        }
        frame.skipBytes(4); // size: the frame decoder has checked it
        secureChannelId = frame.readUnsignedIntLE();
        if (messageType == MessageType.OPN) {
            asymmetricHeader = AsymmetricSecurityHeader.decode(frame);
            tokenId = 0;
        } else {
            need(frame, 4);
            asymmetricHeader = null;
            tokenId = frame.readUnsignedIntLE();
        }
        int securedStart = frame.readerIndex();
        int bodyEnd = cryptoForToken.apply(tokenId).verify(frame, chunkStart, securedStart);
        frame.writerIndex(bodyEnd);
        need(frame, ChunkEncoder.SEQUENCE_HEADER_SIZE);
        sequenceNumber = frame.readUnsignedIntLE();
        requestId = frame.readUnsignedIntLE();
    }

    private void need(ByteBuf frame, int bytes) {
        if (frame.readableBytes() < bytes) {
            throw new UaException(StatusCodes.BadDecodingError, messageType + " chunk is truncated in its headers");
        }
    }

    public MessageType messageType() {
        return messageType;
    }

    public ChunkType chunkType() {
        return chunkType;
    }

    public long secureChannelId() {
        return secureChannelId;
    }

    /** The OPN security header; null for MSG and CLO. */
    public AsymmetricSecurityHeader asymmetricHeader() {
        return asymmetricHeader;
    }

    /** TokenId of MSG and CLO chunks; 0 for OPN. */
    public long tokenId() {
        return tokenId;
    }

    public long sequenceNumber() {
        return sequenceNumber;
    }

    public long requestId() {
        return requestId;
    }
}
