package dev.opcua.stack.core.transport.uasc;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.channel.AsymmetricSecurityHeader;
import dev.opcua.stack.core.channel.ChunkEncoder;
import dev.opcua.stack.core.channel.ChunkHeader;
import dev.opcua.stack.core.channel.ChunkType;
import dev.opcua.stack.core.channel.MessageAssembler;
import dev.opcua.stack.core.channel.MessageType;
import dev.opcua.stack.core.channel.SequenceNumbers;
import dev.opcua.stack.core.channel.messages.AcknowledgeMessage;
import dev.opcua.stack.core.channel.messages.BufferNegotiation;
import dev.opcua.stack.core.channel.messages.ErrorMessage;
import dev.opcua.stack.core.channel.messages.HelloMessage;
import dev.opcua.stack.core.encoding.binary.UaDecoder;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.ChunkCrypto;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.transport.tcp.UaTcpFrameDecoder;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.enumerated.SecurityTokenRequestType;
import dev.opcua.stack.core.types.structured.ChannelSecurityToken;
import dev.opcua.stack.core.types.structured.OpenSecureChannelRequest;
import dev.opcua.stack.core.types.structured.OpenSecureChannelResponse;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import java.io.IOException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server end of one UA TCP connection and its secure channel, SecurityPolicy None (Part 6, 7.1
 * and 6.7): a state machine fed with whole frames by a {@link UaTcpFrameDecoder}.
 *
 * <pre>
 * AWAIT_HELLO --HEL--> AWAIT_OPEN --OPN Issue--> OPEN --CLO--> closed
 *      any error: ERR with its status, then close (Part 6, 7.1.5)
 * </pre>
 *
 * <ul>
 *   <li><b>Connect</b>: beyond {@code maxConnections} sockets, ERR BadTcpNotEnoughResources (Part 6,
 *       7.1.2.3). A socket that sends no Hello within {@code helloTimeout} is closed (Part 6, 7.1.3);
 *       the same time is then allowed for the OpenSecureChannel, so that idle sockets cannot hold
 *       connection slots.</li>
 *   <li><b>HEL</b>, first and only once (Part 6, 7.1.3; anything else first, or a second HEL, ACK,
 *       ERR or RHE: BadTcpMessageTypeInvalid): the EndpointUrl must pass the settings' filter
 *       (BadTcpEndpointUrlInvalid); the ACK comes from {@link BufferNegotiation}; then the frame
 *       decoder accepts chunks up to the ACK's ReceiveBufferSize.</li>
 *   <li><b>OPN</b> (Part 6, 6.7.4): SecurityPolicy None only (ERR BadSecurityPolicyRejected),
 *       mode None only (ServiceFault BadSecurityModeRejected, the channel stays usable).
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
    private final ServerSecurityTokens tokens;
    private final ChunkHeader chunkHeader = new ChunkHeader();
    private final SequenceNumbers received = new SequenceNumbers();
    private final LongFunction<ChunkCrypto> cryptoLookup = this::cryptoForToken;

    private ChannelHandlerContext ctx;
    private State state = State.NEW;
    private boolean counted;
    private boolean released;
    private Future<?> handshakeTimer;
    private Future<?> tokenTimer;
    private HelloMessage hello;
    private SecureChannelWriter writer;
    private MessageAssembler assembler;
    private long secureChannelId;
    private UascServerSecureChannel channel;

    public UascServerHandler(ServerChannelSettings settings, ServerRequestListener listener) {
        this.settings = settings;
        this.listener = listener;
        this.tokens = new ServerSecurityTokens(settings.quotas().securityTokenLifetime().toMillis());
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
            fail(StatusCodes.BadTcpNotEnoughResources, "the server has reached its limit of " + max
                    + " connections", null);
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
        cancel(tokenTimer);
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
        UaTcpFrameDecoder frameDecoder = ctx.pipeline().get(UaTcpFrameDecoder.class);
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

    /** OPN: issue or renew a token (Part 6, 6.7.4; Part 4, 5.5.2). */
    private void onOpen(ByteBuf frame) {
        chunkHeader.read(frame, cryptoLookup);
        received.checkReceived(chunkHeader.sequenceNumber());
        if (chunkHeader.chunkType() != ChunkType.FINAL) {
            throw new UaException(StatusCodes.BadTcpMessageTypeInvalid,
                    "an OpenSecureChannel request must be a single final chunk");
        }
        long requestId = chunkHeader.requestId();
        OpenSecureChannelRequest request = decodeOpenRequest(frame);
        long requestHandle = request.requestHeader().requestHandle();
        if (request.clientProtocolVersion() != hello.protocolVersion()) {
            throw new UaException(StatusCodes.BadProtocolVersionUnsupported, "ClientProtocolVersion "
                    + request.clientProtocolVersion() + " differs from the Hello's " + hello.protocolVersion());
        }
        boolean issue = request.requestType() == SecurityTokenRequestType.Issue;
        if (issue && state == State.OPEN) {
            throw new UaException(StatusCodes.BadRequestTypeInvalid,
                    "the secure channel is already open: renew its token instead of issuing one");
        }
        if (!issue && state != State.OPEN) {
            throw new UaException(StatusCodes.BadTcpSecureChannelUnknown, "there is no secure channel to renew");
        }
        if (request.securityMode() != MessageSecurityMode.None) {
            writer.writeAsymmetric(secureChannelId, AsymmetricSecurityHeader.NONE, ChunkCrypto.NONE, requestId,
                    ResponseHeaders.serviceFault(requestHandle, StatusCodes.BadSecurityModeRejected));
            return;
        }
        long now = ctx.executor().ticker().nanoTime();
        ServerSecurityTokens.Token token;
        if (issue) {
            secureChannelId = settings.channelIds().acquire();
            token = tokens.issue(request.requestedLifetime(), now);
            writer.setToken(secureChannelId, token.id(), ChunkCrypto.NONE);
            channel = new UascServerSecureChannel(secureChannelId, hello.endpointUrl(), writer);
            settings.counters().secureChannelOpened();
            state = State.OPEN;
            cancel(handshakeTimer);
            scheduleTokenTimer();
        } else {
            token = tokens.renew(request.requestedLifetime(), now);
        }
        OpenSecureChannelResponse response = new OpenSecureChannelResponse(ResponseHeaders.good(requestHandle),
                BufferNegotiation.PROTOCOL_VERSION,
                new ChannelSecurityToken(secureChannelId, token.id(), token.createdAt(), token.lifetimeMillis()),
                ByteString.NULL);
        writer.writeAsymmetric(secureChannelId, AsymmetricSecurityHeader.NONE, ChunkCrypto.NONE, requestId,
                response);
        if (issue) {
            log.debug("{}: secure channel {} opened, token lifetime {} ms", ctx.channel().remoteAddress(),
                    secureChannelId, token.lifetimeMillis());
            listener.onChannelOpened(channel);
        }
    }

    private OpenSecureChannelRequest decodeOpenRequest(ByteBuf frame) {
        UaDecoder decoder = new UaDecoder(settings.registry(), settings.quotas().encodingLimits(), frame);
        UaStructure message = decoder.readMessage();
        if (message instanceof OpenSecureChannelRequest request) {
            return request;
        }
        throw new UaException(StatusCodes.BadDecodingError, "an OPN chunk carries a "
                + message.getClass().getSimpleName() + " instead of an OpenSecureChannelRequest");
    }

    /** MSG: verify, reassemble, pass a whole request on. Owns {@code frame}. */
    private void onMessage(ByteBuf frame) {
        ByteBuf owned = frame;
        try {
            chunkHeader.read(frame, cryptoLookup);
            received.checkReceived(chunkHeader.sequenceNumber());
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
            String policyUri = chunkHeader.asymmetricHeader().securityPolicyUri();
            if (SecurityPolicy.fromUri(policyUri) != SecurityPolicy.None) {
                throw new UaException(StatusCodes.BadSecurityPolicyRejected,
                        "security policy " + policyUri + " is not offered");
            }
            return ChunkCrypto.NONE;
        }
        ServerSecurityTokens.Token before = tokens.current();
        if (!tokens.accept(tokenId)) {
            throw new UaException(StatusCodes.BadSecureChannelTokenUnknown,
                    "security token " + tokenId + " is unknown or expired");
        }
        if (tokens.current() != before) {
            // The client uses the renewed token: so does the server from now on, and the old one is gone.
            writer.setToken(secureChannelId, tokens.current().id(), ChunkCrypto.NONE);
            scheduleTokenTimer();
        }
        return ChunkCrypto.NONE;
    }

    // ---- timers ---------------------------------------------------------------------------------

    private void onHandshakeTimeout() {
        if (state == State.AWAIT_HELLO || state == State.AWAIT_OPEN) {
            log.debug("{}: no {} within {}, closing", ctx.channel().remoteAddress(),
                    state == State.AWAIT_HELLO ? "Hello" : "OpenSecureChannel", settings.quotas().helloTimeout());
            state = State.CLOSED;
            ctx.close();
        }
    }

    private void scheduleTokenTimer() {
        cancel(tokenTimer);
        long delay = tokens.current().acceptedUntilNanos() - ctx.executor().ticker().nanoTime();
        tokenTimer = schedule(this::onTokenExpired, Math.max(0, delay));
    }

    private void onTokenExpired() {
        if (state != State.OPEN) {
            return;
        }
        long expired = tokens.current().id();
        if (tokens.expireCurrent()) {
            writer.setToken(secureChannelId, tokens.current().id(), ChunkCrypto.NONE);
            scheduleTokenTimer();
        } else {
            fail(StatusCodes.BadSecureChannelClosed, "security token " + expired + " expired without renewal", null);
        }
    }

    private Future<?> schedule(Runnable task, long delayNanos) {
        return ctx.executor().schedule(task, delayNanos, TimeUnit.NANOSECONDS);
    }

    private static void cancel(Future<?> timer) {
        if (timer != null) {
            timer.cancel(false);
        }
    }

    // ---- errors ---------------------------------------------------------------------------------

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        fail(cause);
    }

    private void fail(Throwable cause) {
        Throwable failure = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        if (failure instanceof UaException e) {
            fail(e.statusCode().value(), reasonOf(e), null);
        } else if (failure instanceof IOException) {
            // The peer reset the socket: nobody is left to read an ERR.
            if (state != State.CLOSED) {
                log.debug("{}: connection lost: {}", ctx.channel().remoteAddress(), failure.toString());
                state = State.CLOSED;
            }
            ctx.close();
        } else {
            fail(StatusCodes.BadTcpInternalError, "internal error", failure);
        }
    }

    /** Sends ERR and closes (Part 6, 7.1.5); only the first failure of a connection is answered and logged. */
    private void fail(int status, String reason, Throwable internal) {
        if (state == State.CLOSED) {
            return;
        }
        state = State.CLOSED;
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
