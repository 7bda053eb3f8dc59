package dev.opcua.stack.core.channel;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.ChunkCrypto;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * Splits an encoded message (encoding NodeId + body) into secure conversation chunks of the size the
 * peer accepts (Part 6, 6.7.2) and writes them, one after another, into one output buffer so that a
 * message costs one write.
 *
 * <p>The peer's MaxMessageSize and MaxChunkCount (0 = no limit) are checked before anything is
 * written: a message over either raises {@code tooLargeStatus} (BadResponseTooLarge on the server,
 * BadRequestTooLarge on the client, Part 6, 7.1.2.3/7.1.2.4), so no abort chunk is needed.
 *
 * <p>Not thread-safe; callers hold the channel's send lock, which also keeps sequence numbers in
 * wire order.
 */
public final class ChunkEncoder {

    /** Message header (type, chunk type, size) and SecureChannelId. */
    static final int MESSAGE_HEADER_SIZE = 12;
    /** TokenId of symmetric chunks. */
    static final int SYMMETRIC_HEADER_SIZE = 4;
    /** SequenceNumber and RequestId. */
    static final int SEQUENCE_HEADER_SIZE = 8;
    /** Largest footer of a symmetric chunk: padding to a 16-byte block (up to 16 bytes) and an HMAC-SHA256. */
    static final int MAX_SYMMETRIC_FOOTER = 16 + 32;

    private final int chunkSize;
    private final long maxMessageSize;
    private final long maxChunkCount;
    private final int tooLargeStatus;

    /**
     * @param chunkSize largest chunk the peer receives (its negotiated ReceiveBufferSize)
     * @param maxMessageSize the peer's MaxMessageSize, 0 for no limit
     * @param maxChunkCount the peer's MaxChunkCount, 0 for no limit
     * @param tooLargeStatus status raised for a message over these limits
     */
    public ChunkEncoder(int chunkSize, long maxMessageSize, long maxChunkCount, int tooLargeStatus) {
        this.chunkSize = chunkSize;
        this.maxMessageSize = maxMessageSize;
        this.maxChunkCount = maxChunkCount;
        this.tooLargeStatus = tooLargeStatus;
    }

    public int chunkSize() {
        return chunkSize;
    }

    /**
     * The largest message body that passes the peer's MaxMessageSize and MaxChunkCount in symmetric chunks,
     * counting every chunk's room for a signature and padding ({@link #MAX_SYMMETRIC_FOOTER}), so that it
     * holds under any security mode; 0 when the peer set neither limit.
     */
    public long maxBodySize() {
        int headers = MESSAGE_HEADER_SIZE + SYMMETRIC_HEADER_SIZE + SEQUENCE_HEADER_SIZE;
        long byChunks = maxChunkCount > 0 ? maxChunkCount * (long) (chunkSize - headers - MAX_SYMMETRIC_FOOTER) : 0;
        if (maxMessageSize > 0 && byChunks > 0) {
            return Math.min(maxMessageSize, byChunks);
        }
        return Math.max(maxMessageSize, byChunks);
    }

    /**
     * Bytes the symmetric chunks of a body will take (headers of every chunk included, and room for a
     * signature and padding of up to {@link #MAX_SYMMETRIC_FOOTER} bytes each), to size the output once.
     */
    public int symmetricSizeHint(int bodySize) {
        int headers = MESSAGE_HEADER_SIZE + SYMMETRIC_HEADER_SIZE + SEQUENCE_HEADER_SIZE;
        int perChunk = chunkSize - headers - MAX_SYMMETRIC_FOOTER;
        int chunks = Math.max(1, (bodySize + perChunk - 1) / perChunk);
        return bodySize + chunks * (headers + MAX_SYMMETRIC_FOOTER);
    }

    /** Writes a MSG or CLO message as chunks with the symmetric header (TokenId). */
    public void encodeSymmetric(MessageType type, long channelId, long tokenId, long requestId, ByteBuf body,
            SequenceNumbers sequenceNumbers, ChunkCrypto crypto, ByteBuf out) {
        int headers = MESSAGE_HEADER_SIZE + SYMMETRIC_HEADER_SIZE + SEQUENCE_HEADER_SIZE;
        int maxBody = crypto.maxBodySize(chunkSize, headers);
        int chunks = checkLimits(body.readableBytes(), maxBody);
        for (int i = 0; i < chunks; i++) {
            int chunkStart = out.writerIndex();
            boolean last = i == chunks - 1;
            writeMessageHeader(out, type, last ? ChunkType.FINAL : ChunkType.INTERMEDIATE, channelId);
            out.writeIntLE((int) tokenId);
            int securedStart = out.writerIndex();
            out.writeIntLE((int) sequenceNumbers.nextToSend());
            out.writeIntLE((int) requestId);
            int n = Math.min(maxBody, body.readableBytes());
            out.writeBytes(body, n);
            crypto.secure(out, chunkStart, securedStart);
            out.setIntLE(chunkStart + 4, out.writerIndex() - chunkStart);
        }
    }

    /** Writes an OPN message (one or more chunks) with the asymmetric security header. */
    public void encodeAsymmetric(long channelId, AsymmetricSecurityHeader securityHeader, long requestId,
            ByteBuf body, SequenceNumbers sequenceNumbers, ChunkCrypto crypto, ByteBuf out) {
        int headers = MESSAGE_HEADER_SIZE + securityHeader.encodedSize() + SEQUENCE_HEADER_SIZE;
        int maxBody = crypto.maxBodySize(chunkSize, headers);
        if (maxBody <= 0) {
            throw new UaException(StatusCodes.BadTcpMessageTooLarge, "the OPN security header of "
                    + securityHeader.encodedSize() + " bytes does not fit chunks of " + chunkSize + " bytes");
        }
        int chunks = checkLimits(body.readableBytes(), maxBody);
        for (int i = 0; i < chunks; i++) {
            int chunkStart = out.writerIndex();
            writeMessageHeader(out, MessageType.OPN, i == chunks - 1 ? ChunkType.FINAL : ChunkType.INTERMEDIATE,
                    channelId);
            securityHeader.encode(out);
            int securedStart = out.writerIndex();
            out.writeIntLE((int) sequenceNumbers.nextToSend());
            out.writeIntLE((int) requestId);
            out.writeBytes(body, Math.min(maxBody, body.readableBytes()));
            crypto.secure(out, chunkStart, securedStart);
            out.setIntLE(chunkStart + 4, out.writerIndex() - chunkStart);
        }
    }

    /**
     * Writes an abort chunk ('A') for a request: its body is the error and a reason, no NodeId
     * (Part 6, 6.7.3). The receiver discards the message's earlier chunks.
     */
    public void encodeAbort(long channelId, long tokenId, long requestId, int status, String reason,
            SequenceNumbers sequenceNumbers, ChunkCrypto crypto, ByteBuf out) {
        int chunkStart = out.writerIndex();
        writeMessageHeader(out, MessageType.MSG, ChunkType.ABORT, channelId);
        out.writeIntLE((int) tokenId);
        int securedStart = out.writerIndex();
        out.writeIntLE((int) sequenceNumbers.nextToSend());
        out.writeIntLE((int) requestId);
        out.writeIntLE(status);
        writeReason(out, reason);
        crypto.secure(out, chunkStart, securedStart);
        out.setIntLE(chunkStart + 4, out.writerIndex() - chunkStart);
    }

    /** Writes a reason string, cut to under 4096 UTF-8 bytes (Part 6, 7.1.2.5). */
    static void writeReason(ByteBuf out, String reason) {
        if (reason == null) {
            out.writeIntLE(-1);
            return;
        }
        byte[] bytes = reason.getBytes(StandardCharsets.UTF_8);
        int length = Math.min(bytes.length, 4095);
        out.writeIntLE(length);
        out.writeBytes(bytes, 0, length);
    }

    private int checkLimits(int bodySize, int maxBody) {
        if (maxMessageSize > 0 && bodySize > maxMessageSize) {
            throw new UaException(tooLargeStatus, "message of " + bodySize
                    + " bytes exceeds the peer's MaxMessageSize " + maxMessageSize);
        }
        int chunks = Math.max(1, (bodySize + maxBody - 1) / maxBody);
        if (maxChunkCount > 0 && chunks > maxChunkCount) {
            throw new UaException(tooLargeStatus, "message of " + bodySize + " bytes needs " + chunks
                    + " chunks, more than the peer's MaxChunkCount " + maxChunkCount);
        }
        return chunks;
    }

    private static void writeMessageHeader(ByteBuf out, MessageType type, ChunkType chunkType, long channelId) {
        out.writeMediumLE(type.code());
        out.writeByte(chunkType.ascii());
        out.writeIntLE(0); // size, set once the chunk is complete
        out.writeIntLE((int) channelId);
    }
}
