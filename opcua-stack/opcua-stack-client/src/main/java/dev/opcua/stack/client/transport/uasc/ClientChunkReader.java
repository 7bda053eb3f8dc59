package dev.opcua.stack.client.transport.uasc;

import dev.opcua.stack.client.transport.uasc.UascClientHandler.State;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.channel.ChunkHeader;
import dev.opcua.stack.core.channel.ChunkType;
import dev.opcua.stack.core.channel.MessageAssembler;
import dev.opcua.stack.core.channel.MessageType;
import dev.opcua.stack.core.channel.SequenceNumbers;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.ChunkCrypto;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.function.LongFunction;

/**
 * The receiving half of a client channel (Part 6, 6.7.2): reads the header of each OPN and MSG chunk
 * of the server, verifies (and decrypts) the chunk under the crypto its header names, checks its
 * SecureChannelId and sequence number (Part 6, 6.7.6), reassembles the chunks of a message within our
 * MaxMessageSize and MaxChunkCount, and hands each whole message on: an OpenSecureChannel response to
 * the {@link ClientOpenSecureChannel}, any other response to the {@link ClientRequests}. One reader
 * serves the channel's whole life, so the sequence numbers of the Issue's response, the responses that
 * follow it and those of each renewal are checked as one sequence.
 *
 * <p>An abort chunk (Part 6, 6.7.3) fails its request and keeps the channel; a response over our limits
 * fails only its request (BadResponseTooLarge) and its remaining chunks are dropped. Anything else that
 * does not check out throws, and the {@link UascClientHandler} closes the channel. Event-loop only.
 */
final class ClientChunkReader {

    private final UascClientHandler channel;
    private final ClientSecurityTokens tokens;
    private final ClientOpenSecureChannel openSecureChannel;
    private final ClientRequests requests;
    private final ChunkHeader chunkHeader = new ChunkHeader();
    private final SequenceNumbers receivedSequence = new SequenceNumbers();
    private final LongFunction<ChunkCrypto> cryptoForToken = this::cryptoForToken;
    /** Null until the Acknowledge has set our limits. */
    private MessageAssembler assembler;
    private long droppingRequestId = -1;
    private boolean readingOpn;

    ClientChunkReader(UascClientHandler channel, ClientSecurityTokens tokens, ClientOpenSecureChannel openSecureChannel,
            ClientRequests requests) {
        this.channel = channel;
        this.tokens = tokens;
        this.openSecureChannel = openSecureChannel;
        this.requests = requests;
    }

    /** Starts reading chunks, reassembled by {@code assembler}, once the Acknowledge is checked. */
    void start(MessageAssembler assembler) {
        this.assembler = assembler;
    }

    /** Releases the chunks of messages still incomplete: the connection is closed. */
    void discard() {
        if (assembler != null) {
            assembler.discard();
        }
    }

    /** An OPN or MSG chunk of the server; takes ownership of {@code frame}. */
    void read(ByteBuf frame, MessageType type) {
        ChunkType chunkType;
        long requestId;
        boolean handedOn = false;
        try {
            readingOpn = type == MessageType.OPN;
            chunkHeader.read(frame, cryptoForToken);
            chunkType = chunkHeader.chunkType();
            if (chunkType == null) {
                throw new UaException(StatusCodes.BadTcpMessageTypeInvalid, "invalid chunk type byte");
            }
            receivedSequence.checkReceived(chunkHeader.sequenceNumber());
            requestId = chunkHeader.requestId();
            if (type == MessageType.OPN) {
                checkOpnHeader();
            } else if (chunkHeader.secureChannelId() != channel.secureChannelId()) {
                throw new UaException(StatusCodes.BadTcpSecureChannelUnknown, "chunk for SecureChannelId "
                        + chunkHeader.secureChannelId() + " on channel " + channel.secureChannelId());
            }
            if (chunkType == ChunkType.ABORT) {
                onAbort(requestId, frame);
                return;
            }
            if (requestId == droppingRequestId) { // the rest of a response already failed as too large
                if (chunkType == ChunkType.FINAL) {
                    droppingRequestId = -1;
                }
                return;
            }
            handedOn = true; // the assembler owns the frame from here, also when it throws
        } finally {
            if (!handedOn) {
                frame.release();
            }
        }
        if (chunkType != ChunkType.FINAL) {
            // kept by the assembler past this read, while the frame decoder lends its frames
            ByteBuf kept = frame.retainedSlice();
            frame.release();
            frame = kept;
        }
        ByteBuf message;
        try {
            message = assembler.add(chunkType, requestId, frame);
        } catch (UaException e) {
            if (e.statusCode().isSameCode(StatusCodes.BadResponseTooLarge) && type == MessageType.MSG) {
                if (chunkType != ChunkType.FINAL) {
                    droppingRequestId = requestId;
                }
                requests.fail(requestId, e);
                return;
            }
            throw e;
        }
        if (message == null) {
            return;
        }
        try {
            if (type == MessageType.OPN) {
                openSecureChannel.onResponse(requestId, message);
            } else {
                requests.onResponse(requestId, message);
            }
        } finally {
            message.release();
        }
    }

    private void checkOpnHeader() {
        if (channel.state() == State.OPEN && chunkHeader.secureChannelId() != channel.secureChannelId()) {
            throw new UaException(StatusCodes.BadTcpSecureChannelUnknown, "OPN chunk for SecureChannelId "
                    + chunkHeader.secureChannelId() + " on channel " + channel.secureChannelId());
        }
    }

    /** OPN chunks: as the OpenSecureChannel requests accept; MSG chunks: the current or the still-accepted previous token. */
    private ChunkCrypto cryptoForToken(long tokenId) {
        if (readingOpn) {
            return openSecureChannel.responseCrypto(chunkHeader.asymmetricHeader());
        }
        ChunkCrypto crypto = tokens.accept(tokenId, System.nanoTime());
        if (crypto != null) {
            return crypto;
        }
        throw new UaException(StatusCodes.BadSecureChannelTokenUnknown, "TokenId " + tokenId
                + " is unknown or expired (current " + tokens.currentId() + ")");
    }

    /**
     * An abort chunk (Part 6, 6.7.3): its body is Error (UInt32) and Reason (String); the request fails,
     * the channel stays. The caller releases the frame.
     */
    private void onAbort(long requestId, ByteBuf frame) {
        assembler.abort(requestId);
        if (requestId == droppingRequestId) {
            droppingRequestId = -1;
        }
        int status = frame.readableBytes() >= 4 ? frame.readIntLE() : StatusCodes.BadCommunicationError;
        String reason = null;
        if (frame.readableBytes() >= 4) {
            int length = frame.readIntLE();
            // The client ignores reasons longer than 4096 bytes (Part 6, 6.7.3).
            if (length > 0 && length <= 4096 && length <= frame.readableBytes()) {
                reason = frame.readCharSequence(length, StandardCharsets.UTF_8).toString();
            }
        }
        UaException e = new UaException(status, "the server aborted the response to request " + requestId
                + (reason == null ? "" : ": " + reason));
        if (openSecureChannel.awaits(requestId)) {
            throw e; // an aborted OpenSecureChannel response: the channel cannot open or renew
        }
        requests.fail(requestId, e);
    }
}
