package dev.opcua.stack.core.transport.uasc;

import dev.opcua.stack.core.channel.AsymmetricSecurityHeader;
import dev.opcua.stack.core.channel.ChunkEncoder;
import dev.opcua.stack.core.channel.MessageType;
import dev.opcua.stack.core.channel.SequenceNumbers;
import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.binary.UaEncoder;
import dev.opcua.stack.core.security.ChunkCrypto;
import dev.opcua.stack.core.types.UaStructure;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPromise;
import io.netty.util.concurrent.FastThreadLocal;

/**
 * The sending half of a secure channel, shared by the client and server handlers: encodes a message
 * on the calling thread (a worker, not the event loop), cuts it into chunks and writes them.
 *
 * <p>Chunking, sequence numbers and queuing the write on the event loop happen under this channel's
 * lock, so chunks reach the wire in sequence-number order even when several workers and the event
 * loop answer at once; the lock is per channel, never shared by all channels. Writes are flushed; a {@code FlushConsolidationHandler} in the
 * pipeline coalesces flushes per event-loop turn.
 */
public final class SecureChannelWriter {

    private static final FastThreadLocal<UaEncoder> ENCODERS = new FastThreadLocal<>() {
        @Override
        protected UaEncoder initialValue() {
            return new UaEncoder(CodecRegistry.standard());
        }
    };

    private final Channel channel;
    private final CodecRegistry registry;
    private final SequenceNumbers sequenceNumbers = new SequenceNumbers();
    private final Object lock = new Object();
    /** Writes queued on the event loop and not yet run; guarded by the lock. */
    private int queuedWrites;

    private volatile ChunkEncoder chunkEncoder;
    private volatile long secureChannelId;
    private volatile long tokenId;
    private volatile ChunkCrypto crypto = ChunkCrypto.NONE;

    public SecureChannelWriter(Channel channel, CodecRegistry registry) {
        this.channel = channel;
        this.registry = registry;
    }

    /** Sets the chunk size and the peer's limits once HEL/ACK are exchanged. */
    public void setChunkEncoder(ChunkEncoder chunkEncoder) {
        this.chunkEncoder = chunkEncoder;
    }

    /** Sets the channel id and the token (and its crypto) that secure MSG and CLO chunks from now on. */
    public void setToken(long secureChannelId, long tokenId, ChunkCrypto crypto) {
        synchronized (lock) {
            this.secureChannelId = secureChannelId;
            this.tokenId = tokenId;
            this.crypto = crypto;
        }
    }

    public long secureChannelId() {
        return secureChannelId;
    }

    public long tokenId() {
        return tokenId;
    }

    public Channel channel() {
        return channel;
    }

    /**
     * Encodes and writes a MSG or CLO message.
     *
     * @throws dev.opcua.stack.core.UaException when the message exceeds the peer's limits (nothing is written)
     */
    public ChannelFuture writeSymmetric(MessageType type, long requestId, UaStructure message) {
        return chunkAndWrite(type, 0, null, null, requestId, message);
    }

    /**
     * {@link #writeSymmetric} without a future: a write that fails reaches the pipeline's
     * exceptionCaught instead (the channel's owner closes it then). Saves the promise a caller that
     * learns of failures that way does not need.
     */
    public void writeSymmetricVoid(MessageType type, long requestId, UaStructure message) {
        ByteBuf body = encode(message);
        try {
            synchronized (lock) {
                write(chunkSymmetric(type, requestId, body), channel.voidPromise());
            }
        } finally {
            body.release();
        }
    }

    /** Encodes and writes an OPN request or response with the asymmetric security header. */
    public ChannelFuture writeAsymmetric(long channelIdInHeader, AsymmetricSecurityHeader securityHeader,
            ChunkCrypto asymmetricCrypto, long requestId, UaStructure message) {
        return chunkAndWrite(MessageType.OPN, channelIdInHeader, securityHeader, asymmetricCrypto, requestId, message);
    }

    /** Encodes a message, then chunks and writes it under the lock: symmetric unless a security header is given. */
    private ChannelFuture chunkAndWrite(MessageType type, long channelIdInHeader, AsymmetricSecurityHeader securityHeader,
            ChunkCrypto asymmetricCrypto, long requestId, UaStructure message) {
        ByteBuf body = encode(message);
        try {
            synchronized (lock) {
                if (securityHeader == null) {
                    return write(chunkSymmetric(type, requestId, body), null);
                }
                ByteBuf out = channel.alloc().buffer(body.readableBytes() + 128);
                try {
                    chunkEncoder.encodeAsymmetric(channelIdInHeader, securityHeader, requestId, body, sequenceNumbers,
                            asymmetricCrypto, out);
                } catch (RuntimeException e) {
                    out.release();
                    throw e;
                }
                return write(out, null);
            }
        } finally {
            body.release();
        }
    }

    /** The symmetric chunks of an encoded body, called under the lock. */
    private ByteBuf chunkSymmetric(MessageType type, long requestId, ByteBuf body) {
        ByteBuf out = channel.alloc().buffer(chunkEncoder.symmetricSizeHint(body.readableBytes()));
        try {
            chunkEncoder.encodeSymmetric(type, secureChannelId, tokenId, requestId, body, sequenceNumbers, crypto, out);
            return out;
        } catch (RuntimeException e) {
            out.release();
            throw e;
        }
    }

    /** Writes an abort chunk for a request whose response could not be sent (Part 6, 6.7.3). */
    public ChannelFuture writeAbort(long requestId, int status, String reason) {
        synchronized (lock) {
            if (chunkEncoder == null) {
                throw new IllegalStateException("no abort before the Hello/Acknowledge exchange");
            }
            ByteBuf out = channel.alloc().buffer(64 + (reason == null ? 0 : reason.length() * 3));
            chunkEncoder.encodeAbort(secureChannelId, tokenId, requestId, status, reason, sequenceNumbers, crypto, out);
            return write(out, null);
        }
    }

    /**
     * Writes the chunks, called under the lock. On the event loop with no write of this channel
     * still queued, the write happens at once; otherwise it is queued on the event loop, behind the
     * writes queued before it: a direct write would overtake chunks a worker queued a moment before
     * with lower sequence numbers (the peer then sees a gap, BadSequenceNumberInvalid). Queued tasks
     * run in the order they were queued, that is, lock order; a thread with a {@link WriteBatch} open
     * queues them without waking the loop.
     *
     * @param given the promise to complete, or null for a new one
     */
    private ChannelFuture write(ByteBuf out, ChannelPromise given) {
        if (queuedWrites == 0 && channel.eventLoop().inEventLoop()) {
            return given == null ? channel.writeAndFlush(out) : channel.writeAndFlush(out, given);
        }
        ChannelPromise promise = given == null ? channel.newPromise() : given;
        queuedWrites++;
        WriteBatch.execute(channel.eventLoop(), () -> {
            synchronized (lock) {
                queuedWrites--;
            }
            channel.writeAndFlush(out, promise);
        });
        return promise;
    }

    private ByteBuf encode(UaStructure message) {
        ByteBuf body = channel.alloc().buffer();
        try {
            UaEncoder encoder = registry == CodecRegistry.standard() ? ENCODERS.get() : new UaEncoder(registry);
            encoder.setBuffer(body).writeMessage(message);
            encoder.setBuffer(null);
            return body;
        } catch (RuntimeException e) {
            body.release();
            throw e;
        }
    }
}
