package dev.opcua.stack.core.transport.tcp;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.channel.ChunkType;
import dev.opcua.stack.core.channel.MessageType;
import dev.opcua.stack.core.ids.StatusCodes;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.DecoderException;
import java.util.List;

/**
 * Cuts the UA TCP byte stream into frames by the 8-byte header common to UA TCP and UASC (Part 6,
 * 7.1.2.2): three type bytes, a chunk type byte, and the little-endian UInt32 MessageSize that counts
 * the header too. Each whole frame is passed on as a buffer of its own, header included, which the next
 * handler releases.
 *
 * <p>The header is checked before any body is buffered, as Part 6, 7.1.2.2 asks of the UA TCP layer:
 * <ul>
 *   <li>an unknown message type, or a chunk type other than 'F', 'C', 'A': {@code BadTcpMessageTypeInvalid};</li>
 *   <li>a MessageSize smaller than the header: {@code BadDecodingError};</li>
 *   <li>a MessageSize above {@link #maxFrameSize()}: {@code BadTcpMessageTooLarge}.</li>
 * </ul>
 * The failure is thrown as a {@link UaException}, which Netty wraps in a {@link DecoderException}:
 * the handler that answers with an ERR message and closes the connection (Part 6, 7.1.5) finds the
 * status in {@code cause.getCause()}. The stream cannot be resynchronised after a bad header, so from
 * then on the decoder discards all input and emits nothing.
 *
 * <p>Frames of at most {@value #COPY_MAX_BYTES} bytes are passed on as copies in buffers of their own
 * (the allocator recycles those), larger ones as retained slices of the receive buffer.
 *
 * <p>A read that holds exactly one whole, acceptable frame while nothing is buffered (one receive,
 * one chunk: the usual case for small messages) is passed on as it came, without a slice of it:
 * the next handler owns and releases it all the same. A decoder that {@linkplain
 * #UaTcpFrameDecoder(int, boolean) lends frames} passes no slice for the frames of a read that holds
 * several either (a peer with several requests in flight answers several in one segment).
 *
 * <p>Not thread-safe, like any Netty handler: call {@link #setMaxFrameSize} on the channel's event loop.
 */
public final class UaTcpFrameDecoder extends ByteToMessageDecoder {

    /** Bytes of the common header: MessageType, chunk type, MessageSize. */
    public static final int HEADER_SIZE = 8;

    /** Frames up to this size are passed on as a copy rather than as a slice of the receive buffer. */
    static final int COPY_MAX_BYTES = 1024;

    private final boolean lendFrames;
    private int maxFrameSize;
    private boolean failed;

    /**
     * A decoder that accepts frames of up to {@code maxFrameSize} bytes. Before the Hello/Acknowledge
     * exchange this bounds the connection messages: 8192 covers HEL, ACK and ERR, but a ReverseHello
     * with two 4095-byte strings is 8206 bytes. Each frame is passed on as a buffer of its own, which
     * the next handler may keep.
     */
    public UaTcpFrameDecoder(int maxFrameSize) {
        this(maxFrameSize, false);
    }

    /**
     * @param lendFrames whether a frame may be lent rather than passed on as a slice: the next handler
     *        then gets the receive buffer itself, its indexes around the frame, for the length of its
     *        channelRead. It reads it and releases it there as it would a frame of its own, but must
     *        not keep it: what it keeps past channelRead it takes as a retained slice. Saves an
     *        object per frame for a handler that decodes each frame as it comes. While auto-read is
     *        off, frames are passed on as slices, so that a read that completes a frame asks for no
     *        further read.
     */
    public UaTcpFrameDecoder(int maxFrameSize, boolean lendFrames) {
        setMaxFrameSize(maxFrameSize);
        this.lendFrames = lendFrames;
    }

    /** The largest frame accepted, header included. */
    public int maxFrameSize() {
        return maxFrameSize;
    }

    /**
     * Sets the largest frame accepted, header included: after the negotiation, the ReceiveBufferSize
     * of this end (Part 6, 7.1.2.4). Applies from the next header read.
     */
    public void setMaxFrameSize(int maxFrameSize) {
        if (maxFrameSize < HEADER_SIZE) {
            throw new IllegalArgumentException(
                    "maxFrameSize must be at least the " + HEADER_SIZE + "-byte header, was " + maxFrameSize);
        }
        this.maxFrameSize = maxFrameSize;
    }

    /** Whether a bad header was seen; all input since has been discarded. */
    public boolean isFailed() {
        return failed;
    }

    /** Whether part of a frame is buffered, waiting for the rest of its bytes. */
    public boolean hasPartialFrame() {
        return !failed && internalBuffer().isReadable();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        // With auto-read off the cumulating path must see every read: it asks for the next one.
        if (msg instanceof ByteBuf in && !failed && !internalBuffer().isReadable()
                && in.readableBytes() == acceptableFrameSize(in) && ctx.channel().config().isAutoRead()) {
            ctx.fireChannelRead(in);
            return;
        }
        super.channelRead(ctx, msg);
    }

    /**
     * The MessageSize of the frame at {@code in}'s reader index when its header is there and passes
     * the checks of {@link #decode}; -1 otherwise (decode then waits for more or says what is wrong).
     */
    private long acceptableFrameSize(ByteBuf in) {
        if (in.readableBytes() < HEADER_SIZE) {
            return -1;
        }
        int start = in.readerIndex();
        int typeAndChunk = in.getIntLE(start);
        if (MessageType.fromHeader(typeAndChunk) == null || ChunkType.fromByte(typeAndChunk >>> 24) == null) {
            return -1;
        }
        long size = in.getUnsignedIntLE(start + 4);
        return size >= HEADER_SIZE && size <= maxFrameSize ? size : -1;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        int readable = in.readableBytes();
        if (readable < 4) {
            return;
        }
        int start = in.readerIndex();
        int typeAndChunk = in.getIntLE(start);
        if (MessageType.fromHeader(typeAndChunk) == null) {
            throw fail(in, StatusCodes.BadTcpMessageTypeInvalid,
                    "unknown message type " + MessageType.describe(typeAndChunk));
        }
        int chunkType = typeAndChunk >>> 24;
        if (ChunkType.fromByte(chunkType) == null) {
            throw fail(in, StatusCodes.BadTcpMessageTypeInvalid, "invalid chunk type " + MessageType.describeByte(chunkType)
                    + " in a " + MessageType.describe(typeAndChunk) + " header, expected 'F', 'C' or 'A'");
        }
        if (readable < HEADER_SIZE) {
            return;
        }
        long size = in.getUnsignedIntLE(start + 4);
        if (size < HEADER_SIZE) {
            throw fail(in, StatusCodes.BadDecodingError,
                    "message size " + size + " is smaller than the " + HEADER_SIZE + "-byte header");
        }
        if (size > maxFrameSize) {
            throw fail(in, StatusCodes.BadTcpMessageTooLarge,
                    "message size " + size + " exceeds the maximum of " + maxFrameSize + " bytes");
        }
        if (readable < size) {
            return;
        }
        // With auto-read off a frame goes through out: ByteToMessageDecoder asks for the next read when
        // a read fired no frame it knows of, and a lent frame is unknown to it, so a lending decoder
        // would go on reading a peer whose handler stopped reading (a client that must not read).
        if (lendFrames && ctx.channel().config().isAutoRead()) {
            lend(ctx, in, start + (int) size);
        } else if (size <= COPY_MAX_BYTES) {
            // a copy into a buffer of the allocator's (whose ByteBuf objects are recycled) instead of a
            // slice of the receive buffer: a slice is a new object per frame, and copying a small frame
            // costs less than allocating and collecting one
            ByteBuf frame = ctx.alloc().buffer((int) size);
            out.add(frame.writeBytes(in, (int) size));
        } else {
            out.add(in.readRetainedSlice((int) size));
        }
    }

    /** Passes on {@code in} narrowed to the frame that ends at {@code end}, then moves past the frame. */
    private static void lend(ChannelHandlerContext ctx, ByteBuf in, int end) {
        int writerIndex = in.writerIndex();
        in.writerIndex(end).retain(); // the reference the next handler releases
        try {
            ctx.fireChannelRead(in);
        } finally {
            in.setIndex(end, writerIndex);
        }
    }

    private UaException fail(ByteBuf in, int status, String message) {
        failed = true;
        in.skipBytes(in.readableBytes());
        return new UaException(status, message);
    }
}
