package dev.opcua.stack.core.channel;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;

/**
 * Reassembles the chunks of one incoming message (Part 6, 6.7.2), bounded by this side's
 * MaxMessageSize and MaxChunkCount (0 = no limit). The chunks of a message arrive one after
 * another, so one message is in progress at a time; a chunk of another request id before the final
 * chunk is a protocol error.
 *
 * <p>A single-chunk message is passed on as the chunk's body slice, with no copy and no composite
 * buffer. Not thread-safe: owned by a channel's event loop.
 */
public final class MessageAssembler {

    private final ByteBufAllocator allocator;
    private final long maxMessageSize;
    private final long maxChunkCount;
    private final int tooLargeStatus;

    private CompositeByteBuf partial;
    private long partialRequestId;
    private int chunkCount;

    /**
     * @param maxMessageSize most bytes of a whole message body, 0 for no limit
     * @param maxChunkCount most chunks of a message, 0 for no limit
     * @param tooLargeStatus status raised over a limit (BadTcpMessageTooLarge, or BadResponseTooLarge on a client)
     */
    public MessageAssembler(ByteBufAllocator allocator, long maxMessageSize, long maxChunkCount, int tooLargeStatus) {
        this.allocator = allocator;
        this.maxMessageSize = maxMessageSize;
        this.maxChunkCount = maxChunkCount;
        this.tooLargeStatus = tooLargeStatus;
    }

    /**
     * Adds the body of a chunk. Takes ownership of {@code body} (released here or passed on).
     *
     * @return the whole message when this was its final chunk (the caller releases it), else null
     * @throws UaException over a limit or for an interleaved request id; the partial message is released
     */
    public ByteBuf add(ChunkType chunkType, long requestId, ByteBuf body) {
        if (partial != null && requestId != partialRequestId) {
            long expected = partialRequestId;
            body.release();
            discard();
            throw new UaException(StatusCodes.BadSecurityChecksFailed, "chunk of request " + requestId
                    + " arrived before the final chunk of request " + expected);
        }
        int size = body.readableBytes() + (partial == null ? 0 : partial.readableBytes());
        int count = chunkCount + 1;
        if ((maxMessageSize > 0 && size > maxMessageSize) || (maxChunkCount > 0 && count > maxChunkCount)) {
            body.release();
            discard();
            throw new UaException(tooLargeStatus, "message of request " + requestId + " exceeds "
                    + (maxMessageSize > 0 && size > maxMessageSize
                            ? "MaxMessageSize " + maxMessageSize + " (" + size + " bytes so far)"
                            : "MaxChunkCount " + maxChunkCount));
        }
        if (chunkType == ChunkType.FINAL && partial == null) {
            return body;
        }
        if (partial == null) {
            partial = allocator.compositeBuffer(maxChunkCount > 0 ? (int) Math.min(maxChunkCount, 1024) : 16);
            partialRequestId = requestId;
        }
        partial.addComponent(true, body);
        chunkCount = count;
        if (chunkType != ChunkType.FINAL) {
            return null;
        }
        ByteBuf message = partial;
        partial = null;
        chunkCount = 0;
        return message;
    }

    /**
     * An abort chunk for a request: the chunks received so far are dropped (Part 6, 6.7.3).
     *
     * @return whether a partial message of that request was dropped
     */
    public boolean abort(long requestId) {
        if (partial != null && partialRequestId == requestId) {
            discard();
            return true;
        }
        return false;
    }

    /** Whether a message is partly received. */
    public boolean inProgress() {
        return partial != null;
    }

    /** Releases a partial message, e.g. when the channel closes. */
    public void discard() {
        if (partial != null) {
            partial.release();
            partial = null;
        }
        chunkCount = 0;
    }
}
