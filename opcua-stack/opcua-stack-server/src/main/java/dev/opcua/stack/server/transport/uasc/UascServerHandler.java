package dev.opcua.stack.server.transport.uasc;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.channel.ChunkEncoder;
import dev.opcua.stack.core.channel.ChunkHeader;
import dev.opcua.stack.core.channel.ChunkType;
import dev.opcua.stack.core.channel.MessageAssembler;
import dev.opcua.stack.core.channel.MessageType;
import dev.opcua.stack.core.channel.SequenceNumbers;
import dev.opcua.stack.core.channel.messages.AcknowledgeMessage;
import dev.opcua.stack.core.channel.messages.ErrorMessage;
import dev.opcua.stack.core.channel.messages.HelloMessage;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.ChunkCrypto;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.crypto.KeyDerivation;
import dev.opcua.stack.core.transport.tcp.UaTcpFrameDecoder;
import dev.opcua.stack.core.transport.uasc.SecureChannelWriter;
import dev.opcua.stack.core.types.builtin.StatusCode;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import java.io.IOException;
import java.net.SocketAddress;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server end of one UA TCP connection and its secure channel (Part 6, 7.1 and 6.7): a state
 * machine fed with whole frames by a {@link UaTcpFrameDecoder}.
 *
 * <pre>
 * AWAIT_HELLO --HEL--> AWAIT_OPEN --OPN Issue--> OPEN --CLO--> closed
 *      any error: ERR with its status, then close (Part 6, 7.1.5)
 * </pre>
 *
 * <ul>
 *   <li><b>Connect</b>: beyond {@code maxConnections} sockets, ERR BadTcpNotEnoughResources (Part 6,
 *       7.1.2.3). A socket that sends no Hello within {@code helloTimeout} is answered ERR BadTimeout and
 *       closed (Part 6, 7.1.3); the same time is then allowed for the OpenSecureChannel, so that idle or
 *       trickling sockets cannot hold connection slots. On the open channel, a message begun (a partial
 *       chunk, or the first chunks of a request) must be finished within {@code messageReceiveTimeout},
 *       else ERR BadTimeout. Every ERR is counted in {@link ServerChannelCounters} by its
 *       {@link TransportRejection}.</li>
 *   <li><b>HEL</b>, first and only once (Part 6, 7.1.3; anything else first, or a second HEL, ACK,
 *       ERR or RHE: BadTcpMessageTypeInvalid): the EndpointUrl must pass the settings' filter
 *       (BadTcpEndpointUrlInvalid); the ACK comes from {@link BufferNegotiation}; then the frame
 *       decoder accepts chunks up to the ACK's ReceiveBufferSize.</li>
 *   <li><b>OPN</b> (Part 6, 6.7.4), answered by the connection's {@link ServerOpenSecureChannel}, which
 *       also keeps the channel's tokens: a policy the {@link ServerChannelSecurity} offers, or None, which is
 *       always accepted for discovery (Part 4, 5.4.1; the server then limits such a channel to
 *       GetEndpoints and FindServers), else ERR BadSecurityPolicyRejected (a renewal keeps the channel's
 *       policy); with a policy other than
 *       None, a SenderCertificate that parses (BadCertificateInvalid), our certificate's thumbprint
 *       (BadCertificateInvalid), a key of the policy's minimum size (BadCertificatePolicyCheckFailed)
 *       and a certificate the client validator trusts (its status, e.g. BadCertificateUntrusted);
 *       then the chunk must decrypt and verify (BadSecurityChecksFailed). A mode that is not offered
 *       with the policy is answered with a ServiceFault BadSecurityModeRejected (the channel stays
 *       usable); a ClientNonce shorter than the policy's nonce length with ERR BadNonceInvalid.
 *       The token's keys are derived from both nonces ({@link KeyDerivation}); a multi-chunk request
 *       is reassembled like a MSG.
 *       The header's SecureChannelId must be 0 before the channel is open and the channel's id after
 *       (BadTcpSecureChannelUnknown). Issue on an open channel: ERR BadRequestTypeInvalid; Renew
 *       with no channel open: ERR BadTcpSecureChannelUnknown. ClientProtocolVersion must equal the
 *       Hello's (BadProtocolVersionUnsupported, Part 6, 6.7.4 of v1.05). Tokens: see
 *       {@link ServerSecurityTokens}; when the last token expires unrenewed, ERR
 *       BadSecureChannelClosed.</li>
 *   <li><b>MSG</b>: SecureChannelId (BadTcpSecureChannelUnknown), TokenId (BadSecureChannelTokenUnknown)
 *       and SequenceNumber (BadSequenceNumberInvalid) are checked in the order of Part 6, 6.7.6; chunks
 *       are reassembled within the limits advertised in the ACK. A request over them is answered with
 *       ERR BadRequestTooLarge, the status Part 4, 5.3 gives a request that "exceeds limits set by the
 *       server" (the spec names none for the receiver; BadTcpMessageTooLarge stays the status of a chunk
 *       over the buffer size). An abort chunk drops the partial request and keeps the channel (Part 6,
 *       6.7.3). A whole request goes, still encoded, to the {@link ServerRequestListener}.</li>
 *   <li><b>CLO</b> (Part 6, 7.1.4): ids checked as for MSG, then the socket closes without a
 *       response. The body is not decoded: stacks disagree whether it is empty.</li>
 * </ul>
 *
 * <p>An ERR carries the failure's status and a reason that names the problem in the peer's terms;
 * unexpected exceptions become BadTcpInternalError with no detail. Each connection logs its failure
 * once. Not sharable: one instance per connection, run on its event loop.
 */
public final class UascServerHandler extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(UascServerHandler.class);

    private enum State { NEW, AWAIT_HELLO, AWAIT_OPEN, OPEN, CLOSED }

    private final ServerChannelSettings settings;
    private final ServerRequestListener listener;
    private final ServerOpenSecureChannel openSecureChannel;
    private final ChunkHeader chunkHeader = new ChunkHeader();
    private final SequenceNumbers received = new SequenceNumbers();
    private final LongFunction<ChunkCrypto> cryptoLookup = this::cryptoForToken;

    private ChannelHandlerContext ctx;
    private State state = State.NEW;
    private boolean counted;
    private boolean released;
    private Future<?> handshakeTimer;
    /** Runs while a message of the open channel is partly received; null when none is. */
    private Future<?> receiveTimer;
    private UaTcpFrameDecoder frameDecoder;
    private HelloMessage hello;
    private SecureChannelWriter writer;
    private MessageAssembler assembler;
    private long secureChannelId;
    private UascServerSecureChannel channel;

    public UascServerHandler(ServerChannelSettings settings, ServerRequestListener listener) {
        this.settings = settings;
        this.listener = listener;
        this.openSecureChannel = new ServerOpenSecureChannel(this, settings);
    }

    // ---- lifecycle ------------------------------------------------------------------------------

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        if (ctx.channel().isActive()) {
            start();
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        start();
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        release();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        release();
    }

    private void start() {
        if (state != State.NEW) {
            return;
        }
        state = State.AWAIT_HELLO;
        counted = true;
        int connections = settings.counters().connectionOpened();
        int max = settings.quotas().maxConnections();
        if (connections > max) {
            fail(TransportRejection.CONNECTION_LIMIT, StatusCodes.BadTcpNotEnoughResources,
                    "the server has reached its limit of " + max + " connections", null);
            return;
        }
        handshakeTimer = schedule(this::onHandshakeTimeout, settings.quotas().helloTimeout().toNanos());
    }

    /** Frees what the connection holds; runs once, when the socket closes or the handler is removed. */
    private void release() {
        if (released) {
            return;
        }
        released = true;
        state = State.CLOSED;
        cancel(handshakeTimer);
        openSecureChannel.stop();
        cancel(receiveTimer);
        if (assembler != null) {
            assembler.discard();
        }
        if (channel != null) {
            settings.channelIds().release(secureChannelId);
            settings.counters().secureChannelClosed();
            try {
                listener.onChannelClosed(channel);
            } catch (RuntimeException e) {
                log.warn("{}: listener failed on channel close", channel, e);
            }
        }
        if (counted) {
            settings.counters().connectionClosed();
        }
    }

    // ---- frames ---------------------------------------------------------------------------------

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf frame)) {
            ctx.fireChannelRead(msg);
            return;
        }
        if (state == State.CLOSED || state == State.NEW) {
            frame.release(); // input after a failure or a CLO is dropped
            return;
        }
        try {
            MessageType type = MessageType.fromHeader(frame.getIntLE(frame.readerIndex()));
            if (type == MessageType.MSG && state != State.AWAIT_HELLO) {
                onMessage(frame); // releases or passes on the frame itself
                return;
            }
            try {
                dispatch(type, frame);
            } finally {
                frame.release();
            }
        } catch (Exception e) {
            fail(e);
        }
    }

    private void dispatch(MessageType type, ByteBuf frame) {
        if (state == State.AWAIT_HELLO) {
            if (type != MessageType.HEL) {
                throw new UaException(StatusCodes.BadTcpMessageTypeInvalid, "expected a Hello, received "
                        + MessageType.describe(frame.getIntLE(frame.readerIndex())));
            }
            onHello(frame);
            return;
        }
        if (type == MessageType.OPN) {
            onOpen(frame);
        } else if (type == MessageType.CLO) {
            onClose(frame);
        } else {
            throw new UaException(StatusCodes.BadTcpMessageTypeInvalid, "message type "
                    + MessageType.describe(frame.getIntLE(frame.readerIndex()))
                    + " is not allowed after the Hello");
        }
    }

    /** HEL: check the endpoint, negotiate, answer with ACK (Part 6, 7.1.2.3 and 7.1.2.4). */
    private void onHello(ByteBuf frame) {
        HelloMessage hello = HelloMessage.decode(frame);
        if (!settings.endpointUrlFilter().test(hello.endpointUrl())) {
            throw new UaException(StatusCodes.BadTcpEndpointUrlInvalid,
                    "the endpoint URL " + hello.endpointUrl() + " is not served here");
        }
        AcknowledgeMessage ack = BufferNegotiation.negotiate(hello, settings.quotas());
        frameDecoder = ctx.pipeline().get(UaTcpFrameDecoder.class);
        if (frameDecoder != null) {
            frameDecoder.setMaxFrameSize((int) ack.receiveBufferSize());
        }
        // Responses honour the client's limits; requests are held to the ones this ACK advertises.
        writer = new SecureChannelWriter(ctx.channel(), settings.registry());
        writer.setChunkEncoder(new ChunkEncoder((int) ack.sendBufferSize(), hello.maxMessageSize(),
                hello.maxChunkCount(), StatusCodes.BadResponseTooLarge));
        assembler = new MessageAssembler(ctx.alloc(), ack.maxMessageSize(), ack.maxChunkCount(),
                StatusCodes.BadRequestTooLarge);
        this.hello = hello;
        state = State.AWAIT_OPEN;
        ByteBuf out = ctx.alloc().buffer(28);
        ack.encode(out);
        ctx.writeAndFlush(out);
        cancel(handshakeTimer);
        handshakeTimer = schedule(this::onHandshakeTimeout, settings.quotas().helloTimeout().toNanos());
    }

    /**
     * OPN: a whole OpenSecureChannel request goes to the {@link ServerOpenSecureChannel}, which issues or
     * renews a token (Part 6, 6.7.4; Part 4, 5.5.2). The chunks of a multi-chunk request are verified
     * one by one and reassembled within the limits advertised in the ACK.
     */
    private void onOpen(ByteBuf frame) {
        try {
            readOpen(frame);
        } catch (RuntimeException e) {
            openSecureChannel.refused(e);
            throw e;
        }
    }

    private void readOpen(ByteBuf frame) {
        chunkHeader.read(frame, cryptoLookup);
        received.checkReceived(chunkHeader.sequenceNumber());
        long requestId = chunkHeader.requestId();
        if (chunkHeader.chunkType() == ChunkType.ABORT) {
            assembler.abort(requestId);
            return;
        }
        ByteBuf message = assembler.add(chunkHeader.chunkType(), requestId, frame.retainedSlice());
        if (message == null) {
            return;
        }
        boolean opened;
        try {
            opened = openSecureChannel.answer(requestId, message, hello.protocolVersion());
        } finally {
            message.release();
        }
        if (opened) {
            log.debug("{}: secure channel {} opened with {}, token lifetime {} ms", ctx.channel().remoteAddress(),
                    secureChannelId, channel.security(), openSecureChannel.tokenLifetimeMillis());
            listener.onChannelOpened(channel);
        }
    }

    /** An OpenSecureChannel Issue succeeded: the channel is open under {@code secureChannelId}. */
    void opened(long secureChannelId, EndpointSecurity security, List<X509Certificate> clientCertificateChain) {
        this.secureChannelId = secureChannelId;
        channel = new UascServerSecureChannel(secureChannelId, hello.endpointUrl(), writer, security,
                clientCertificateChain, settings.counters());
        settings.counters().secureChannelOpened();
        state = State.OPEN;
        handshakeTimer = cancel(handshakeTimer);
    }

    boolean isChannelOpen() {
        return state == State.OPEN;
    }

    /** The client's address; null before the connection is active. */
    SocketAddress remoteAddress() {
        return ctx == null ? null : ctx.channel().remoteAddress();
    }

    long secureChannelId() {
        return secureChannelId;
    }

    SecureChannelWriter writer() {
        return writer;
    }

    /** The event loop's clock, which the token deadlines are kept in. */
    long nanoTime() {
        return ctx.executor().ticker().nanoTime();
    }

    /** MSG: verify, reassemble, pass a whole request on. Owns {@code frame}. */
    private void onMessage(ByteBuf frame) {
        ByteBuf owned = frame;
        try {
            chunkHeader.read(frame, cryptoLookup);
            received.checkReceived(chunkHeader.sequenceNumber());
            openSecureChannel.tokenUsed(chunkHeader.tokenId());
            long requestId = chunkHeader.requestId();
            ChunkType chunkType = chunkHeader.chunkType();
            if (chunkType == ChunkType.ABORT) {
                if (log.isDebugEnabled()) {
                    log.debug("{}: client aborted request {} with {}", channel, requestId,
                            frame.readableBytes() >= 4 ? StatusCode.of(frame.getIntLE(frame.readerIndex())) : "?");
                }
                assembler.abort(requestId);
                return;
            }
            owned = null; // the assembler owns the frame from here, also when it throws
            ByteBuf message = assembler.add(chunkType, requestId, frame);
            if (message != null) {
                receiveTimer = cancel(receiveTimer); // the next partial message has a deadline of its own
                listener.onRequest(channel, requestId, message);
            }
        } finally {
            if (owned != null) {
                owned.release();
            }
        }
    }

    /** CLO: verify the ids, then close without a response (Part 6, 7.1.4). */
    private void onClose(ByteBuf frame) {
        chunkHeader.read(frame, cryptoLookup);
        received.checkReceived(chunkHeader.sequenceNumber());
        openSecureChannel.tokenUsed(chunkHeader.tokenId());
        log.debug("{}: secure channel {} closed by the client", ctx.channel().remoteAddress(), secureChannelId);
        state = State.CLOSED;
        ctx.close();
    }

    /**
     * Checks a chunk's SecureChannelId and TokenId (OPN: its policy) as {@link ChunkHeader#read} reaches
     * them, in the order of Part 6, 6.7.6, and returns the crypto that verifies it.
     */
    private ChunkCrypto cryptoForToken(long tokenId) {
        long channelId = chunkHeader.secureChannelId();
        if (state != State.OPEN ? channelId != 0 || chunkHeader.messageType() != MessageType.OPN
                : channelId != secureChannelId) {
            throw new UaException(StatusCodes.BadTcpSecureChannelUnknown, "secure channel " + channelId
                    + (state == State.OPEN ? " is not the one open on this connection" : " is not open"));
        }
        if (chunkHeader.messageType() == MessageType.OPN) {
            return openSecureChannel.requestCrypto(chunkHeader.asymmetricHeader());
        }
        return openSecureChannel.receiveCrypto(tokenId);
    }

    // ---- timers ---------------------------------------------------------------------------------

    private void onHandshakeTimeout() {
        if (state == State.AWAIT_HELLO || state == State.AWAIT_OPEN) {
            fail(TransportRejection.HANDSHAKE_TIMEOUT, StatusCodes.BadTimeout, "no "
                    + (state == State.AWAIT_HELLO ? "Hello" : "OpenSecureChannel") + " within "
                    + settings.quotas().helloTimeout().toMillis() + " ms", null);
        }
    }

    /**
     * After each read: while a message of the open channel is partly received (a partial chunk in the
     * frame decoder, or the first chunks of a request in the assembler), the message receive timeout
     * runs; it starts with the first read that leaves a message unfinished and stops when a whole
     * request is passed on or nothing is pending. Before the channel is open the hello timeout bounds
     * the handshake instead.
     */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (state == State.OPEN) {
            boolean partial = assembler.inProgress() || (frameDecoder != null && frameDecoder.hasPartialFrame());
            if (!partial) {
                receiveTimer = cancel(receiveTimer);
            } else if (receiveTimer == null) {
                receiveTimer = schedule(this::onReceiveTimeout,
                        settings.quotas().messageReceiveTimeout().toNanos());
            }
            listener.onReadComplete(channel);
        }
        ctx.fireChannelReadComplete();
    }

    private void onReceiveTimeout() {
        receiveTimer = null;
        if (state == State.OPEN) {
            fail(TransportRejection.RECEIVE_TIMEOUT, StatusCodes.BadTimeout, "a message begun was not finished"
                    + " within " + settings.quotas().messageReceiveTimeout().toMillis() + " ms", null);
        }
    }

    Future<?> schedule(Runnable task, long delayNanos) {
        return ctx.executor().schedule(task, delayNanos, TimeUnit.NANOSECONDS);
    }

    /** Cancels {@code timer} when there is one; returns null, for the field that held it. */
    static Future<?> cancel(Future<?> timer) {
        if (timer != null) {
            timer.cancel(false);
        }
        return null;
    }

    // ---- errors ---------------------------------------------------------------------------------

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        fail(cause);
    }

    private void fail(Throwable cause) {
        Throwable failure = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        if (failure instanceof UaException e) {
            int status = e.statusCode().value();
            fail(TransportRejection.ofError(status), status, reasonOf(e), null);
        } else if (failure instanceof IOException) {
            // The peer reset the socket: nobody is left to read an ERR.
            if (state != State.CLOSED) {
                log.debug("{}: connection lost: {}", ctx.channel().remoteAddress(), failure.toString());
                state = State.CLOSED;
            }
            ctx.close();
        } else {
            fail(TransportRejection.PROTOCOL_ERROR, StatusCodes.BadTcpInternalError, "internal error", failure);
        }
    }

    /**
     * Sends ERR and closes (Part 6, 7.1.5); only the first failure of a connection is answered, logged
     * and counted (as {@code rejection}).
     */
    void fail(TransportRejection rejection, int status, String reason, Throwable internal) {
        if (state == State.CLOSED) {
            return;
        }
        state = State.CLOSED;
        settings.counters().reject(rejection);
        if (internal != null) {
            log.warn("{}: internal error, closing the connection", ctx.channel().remoteAddress(), internal);
        } else {
            log.debug("{}: {}: {}; closing the connection", ctx.channel().remoteAddress(), StatusCode.of(status),
                    reason);
        }
        ByteBuf out = ctx.alloc().buffer();
        ErrorMessage.of(status, reason).encode(out);
        ctx.writeAndFlush(out).addListener(ChannelFutureListener.CLOSE);
    }

    /** The exception's message without the status prefix that {@link UaException#getMessage()} adds. */
    private static String reasonOf(UaException e) {
        String message = e.getMessage();
        String prefix = e.statusCode() + ": ";
        return message.startsWith(prefix) ? message.substring(prefix.length()) : message;
    }
}
