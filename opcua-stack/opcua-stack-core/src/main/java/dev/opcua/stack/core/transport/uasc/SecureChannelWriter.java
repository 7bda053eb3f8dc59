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
import io.netty.channel.EventLoop;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.FastThreadLocal;
import java.util.ArrayList;
import java.util.concurrent.RejectedExecutionException;

/**
 * The sending half of a secure channel, shared by the client and server handlers: encodes a message
 * on the calling thread (a worker, not the event loop), cuts it into chunks and writes them.
 *
 * <p>Chunking, sequence numbers and queuing the write for the event loop happen under this channel's
 * lock, so chunks reach the wire in sequence-number order even when several workers and the event
 * loop answer at once; the lock is per channel, never shared by all channels. Chunks written from
 * other threads wait in this channel's queue, which one task on the event loop writes and flushes
 * as a whole: however many threads write meanwhile, the channel costs the loop one task and one
 * flush, and a write allocates no task of its own.
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
    private final Runnable drain = this::drain;
    /**
     * Chunks waiting for the event loop, each followed by its promise (the void promise when the
     * caller wants none); guarded by the lock.
     */
    private ArrayList<Object> queued = new ArrayList<>();
    /** The list the next drain swaps in for {@link #queued}; touched on the event loop only. */
    private ArrayList<Object> spare = new ArrayList<>();
    /** Whether a drain is queued on the event loop or running; guarded by the lock. */
    private boolean draining;
    /** The thread whose open {@link WriteBatch} holds the queued drain back, or null; guarded by the lock. */
    private Thread drainHeldBy;

    private volatile ChunkEncoder chunkEncoder;
    private volatile long secureChannelId;
    private volatile long tokenId;
    private volatile ChunkCrypto crypto = ChunkCrypto.NONE;

    /**
     * Numbers the chunks of this channel by the rules of {@code policy} (Part 6, 6.7.2.4): from 0 with an ECC
     * policy, from 1 otherwise. Called before the first chunk is written (the OpenSecureChannel).
     */
    public void sequenceNumbersFor(dev.opcua.stack.core.security.SecurityPolicy policy) {
        if (!policy.legacySequenceNumbers()) {
            synchronized (lock) {
                sequenceNumbers.startNonLegacy();
            }
        }
    }

    public SecureChannelWriter(Channel channel, CodecRegistry registry) {
        this.channel = channel;
        this.registry = registry;
    }

    /** Sets the chunk size and the peer's limits once HEL/ACK are exchanged. */
    public void setChunkEncoder(ChunkEncoder chunkEncoder) {
        this.chunkEncoder = chunkEncoder;
    }

    /** The largest message body the peer accepts ({@link ChunkEncoder#maxBodySize()}); 0 for no limit or none known yet. */
    public long maxBodySize() {
        ChunkEncoder encoder = chunkEncoder;
        return encoder == null ? 0 : encoder.maxBodySize();
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
     * Writes the chunks, called under the lock. On the event loop with nothing of this channel
     * queued, the write happens at once; otherwise the chunks join the queue, behind the chunks
     * queued before them: a direct write would overtake chunks a worker queued a moment before with
     * lower sequence numbers (the peer then sees a gap, BadSequenceNumberInvalid). The first chunk
     * queued schedules the drain, through the thread's {@link WriteBatch} when it has one open.
     *
     * @param given the promise to complete, or null for a new one
     */
    private ChannelFuture write(ByteBuf out, ChannelPromise given) {
        EventLoop loop = channel.eventLoop();
        if (!draining && loop.inEventLoop()) {
            return given == null ? channel.writeAndFlush(out) : channel.writeAndFlush(out, given);
        }
        ChannelPromise promise = given == null ? channel.newPromise() : given;
        queued.add(out);
        queued.add(promise);
        if (!draining) {
            try {
                drainHeldBy = WriteBatch.execute(loop, drain) ? Thread.currentThread() : null;
            } catch (RejectedExecutionException e) { // the event loop is shut down: so is the channel
                failQueued(queued, 0, e);
                throw e;
            }
            draining = true;
        } else if (drainHeldBy != null && drainHeldBy != Thread.currentThread()) {
            // the drain waits for another thread's batch to close: this write must not wait with it
            drainHeldBy = null;
            loop.execute(WriteBatch.WAKE_UP);
        }
        return promise;
    }

    /** Writes and flushes the queued chunks, on the event loop; runs again while more were queued meanwhile. */
    private void drain() {
        ArrayList<Object> batch;
        synchronized (lock) {
            batch = queued;
            queued = spare;
            drainHeldBy = null;
        }
        int i = 0;
        try {
            for (int n = batch.size(); i < n; i += 2) {
                channel.write(batch.get(i), (ChannelPromise) batch.get(i + 1));
            }
            channel.flush();
        } catch (RuntimeException e) {
            failQueued(batch, i + 2, e);
            throw e;
        } finally {
            batch.clear();
            spare = batch;
            synchronized (lock) {
                if (queued.isEmpty()) {
                    draining = false;
                } else {
                    // queued while this drain ran, behind its chunks: a new task, so that reads are not starved
                    try {
                        channel.eventLoop().execute(drain);
                    } catch (RejectedExecutionException e) {
                        failQueued(queued, 0, e);
                        draining = false;
                    }
                }
            }
        }
    }

    /** Releases the chunks of {@code chunks} from index {@code from} on and fails their promises. */
    private static void failQueued(ArrayList<Object> chunks, int from, Throwable cause) {
        for (int i = from; i + 1 < chunks.size(); i += 2) {
            ReferenceCountUtil.safeRelease(chunks.get(i));
            ((ChannelPromise) chunks.get(i + 1)).tryFailure(cause);
        }
        chunks.clear();
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
