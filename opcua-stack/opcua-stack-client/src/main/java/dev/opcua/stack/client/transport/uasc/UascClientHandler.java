package dev.opcua.stack.client.transport.uasc;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.channel.AsymmetricSecurityHeader;
import dev.opcua.stack.core.channel.ChunkEncoder;
import dev.opcua.stack.core.channel.ChunkHeader;
import dev.opcua.stack.core.channel.ChunkType;
import dev.opcua.stack.core.channel.MessageAssembler;
import dev.opcua.stack.core.channel.MessageType;
import dev.opcua.stack.core.channel.SequenceNumbers;
import dev.opcua.stack.core.channel.messages.AcknowledgeMessage;
import dev.opcua.stack.core.channel.messages.ErrorMessage;
import dev.opcua.stack.core.channel.messages.HelloMessage;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.binary.UaDecoder;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.Certificates;
import dev.opcua.stack.core.security.ChunkCrypto;
import dev.opcua.stack.core.security.ClientChannelSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.security.crypto.AsymmetricChunkCrypto;
import dev.opcua.stack.core.security.crypto.KeyDerivation;
import dev.opcua.stack.core.security.crypto.SymmetricChunkCrypto;
import dev.opcua.stack.core.transport.tcp.UaTcpFrameDecoder;
import dev.opcua.stack.core.transport.uasc.SecureChannelWriter;
import dev.opcua.stack.core.types.UaRequestMessage;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.enumerated.SecurityTokenRequestType;
import dev.opcua.stack.core.types.structured.ChannelSecurityToken;
import dev.opcua.stack.core.types.structured.CloseSecureChannelRequest;
import dev.opcua.stack.core.types.structured.OpenSecureChannelRequest;
import dev.opcua.stack.core.types.structured.OpenSecureChannelResponse;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.core.types.structured.ServiceFault;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.LongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client end of a UA TCP connection with UA Secure Conversation, under the security policy and
 * mode of a {@link ClientChannelSecurity} (the server certificate is validated before the
 * OpenSecureChannel is sent; the response must come signed by that certificate): sends
 * Hello and checks the Acknowledge (Part 6, 7.1.2.3, 7.1.2.4, 7.1.3), opens the secure channel with
 * an OpenSecureChannel Issue and renews its token at 75 % of the revised lifetime (Part 6, 6.7.4;
 * Part 4, 5.5.2.1), matches MSG responses to pending requests by RequestId (Part 6, 6.7.2.4) and
 * checks that each echoes its request's requestHandle (Part 4, 7.33),
 * handles abort chunks (Part 6, 6.7.3) and Error messages (Part 6, 7.1.2.5), and closes with
 * CloseSecureChannel (Part 6, 7.1.4).
 *
 * <p>Sits last in the pipeline, after a {@link UaTcpFrameDecoder} (whose limit it raises to the
 * negotiated buffer size once the Acknowledge arrives; it may lend its frames: this handler decodes
 * a frame within channelRead and keeps only slices of the chunks of a message still incomplete) and a
 * flush-consolidation handler. Requests are encoded on the calling thread by the
 * {@link SecureChannelWriter}; responses are decoded on the event loop and their futures completed on the {@code executor}, so user callbacks never run on the
 * event loop. Every pending future is completed: by its response, an abort chunk, its timeout, a
 * server Error, {@link #close()} or the connection closing.
 *
 * <p>Decisions where the specification is silent: an Acknowledge whose buffer sizes exceed what the
 * Hello offered or fall below 8192 bytes, or whose ProtocolVersion exceeds ours, fails the handshake
 * with BadProtocolVersionUnsupported (version) or BadCommunicationError (sizes); the handshake (Hello
 * to OpenSecureChannel response) and a renewal must finish within the operation timeout (BadTimeout);
 * a failed renewal closes the channel; a response over our MaxMessageSize/MaxChunkCount fails only its
 * request (BadResponseTooLarge) and its remaining chunks are dropped; a response whose RequestId is not
 * pending (it timed out or was cancelled) is released and dropped, not treated as a security failure.
 * Responses are small next to the work of encoding requests, so they are decoded on the event loop.
 */
public final class UascClientHandler extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(UascClientHandler.class);
    private static final SecureRandom RANDOM = new SecureRandom();

    /** ProtocolVersion of this version of UA TCP (Part 6, 7.1.2.3). */
    static final long PROTOCOL_VERSION = 0;
    /** Smallest buffer UASC works with (Part 6, 6.7.1; ECC's 1024 does not apply to None). */
    static final int MIN_BUFFER_SIZE = TransportQuotas.MIN_BUFFER_SIZE;
    /**
     * Frame limit until the Acknowledge: only ACK (28 bytes) and ERR (at most 16 + 4096) may arrive.
     * Callers build the frame decoder with it.
     */
    public static final int HANDSHAKE_MAX_FRAME_SIZE = MIN_BUFFER_SIZE;

    private enum State { NEW, AWAIT_ACK, AWAIT_OPN, OPEN, CLOSED }

    private final String endpointUrl;
    private final TransportQuotas quotas;
    private final ClientChannelSecurity security;
    private final SecurityPolicy policy;
    private final Timer timer;
    private final Executor executor;
    private final PendingRequests pending = new PendingRequests();
    private final RequestDeadlines deadlines;
    private final AtomicInteger requestIds = new AtomicInteger();
    private final AtomicInteger requestHandles = new AtomicInteger();
    private final AtomicBoolean closeRequested = new AtomicBoolean();
    private final CompletableFuture<Void> handshake = new CompletableFuture<>();
    private final CompletableFuture<Void> closed = new CompletableFuture<>();

    // Event-loop state.
    private final ChunkHeader chunkHeader = new ChunkHeader();
    private final SequenceNumbers receivedSequence = new SequenceNumbers();
    private final ClientSecurityTokens tokens = new ClientSecurityTokens();
    private final LongFunction<ChunkCrypto> cryptoForToken = this::cryptoForToken;
    private final UaDecoder decoder;
    private volatile ChannelHandlerContext ctx; // set on the event loop, read by close() on any thread
    private State state = State.NEW;
    private MessageAssembler assembler;
    private long ackProtocolVersion;
    private long openRequestId;
    private byte[] clientNonce;
    private long requestedLifetime;
    private Timeout openTimeout;
    private Timeout renewal;
    private long droppingRequestId = -1;
    private boolean readingOpn;
    private boolean handshakeSettled;

    // Read by callers of request() on any thread.
    private volatile SecureChannelWriter writer;
    private volatile boolean open;
    private volatile boolean shut;
    private volatile long secureChannelId;

    /**
     * @param endpointUrl the URL sent in the Hello
     * @param quotas our buffer sizes and limits, the requested token lifetime and the operation timeout
     * @param timer timer wheel for request timeouts, the handshake deadline and token renewal
     * @param executor where response futures are completed
     */
    public UascClientHandler(String endpointUrl, TransportQuotas quotas, Timer timer, Executor executor) {
        this(endpointUrl, quotas, ClientChannelSecurity.NONE, timer, executor);
    }

    /**
     * @param endpointUrl the URL sent in the Hello
     * @param quotas our buffer sizes and limits, the requested token lifetime and the operation timeout
     * @param security the policy and mode, our certificate, the server's and its validator
     * @param timer timer wheel for request timeouts, the handshake deadline and token renewal
     * @param executor where response futures are completed
     */
    public UascClientHandler(String endpointUrl, TransportQuotas quotas, ClientChannelSecurity security, Timer timer,
            Executor executor) {
        this.security = Objects.requireNonNull(security, "security");
        this.policy = security.security().policy();
        this.endpointUrl = endpointUrl;
        this.quotas = quotas;
        this.timer = timer;
        this.executor = executor;
        this.decoder = new UaDecoder(CodecRegistry.standard(), quotas.encodingLimits());
        this.deadlines = new RequestDeadlines(timer, this::expire);
    }

    /** Completes (on the executor) once the channel is open, or fails with the reason it could not open. */
    public CompletableFuture<Void> handshake() {
        return handshake;
    }

    /** Completes (on the executor) once the socket is closed. */
    public CompletableFuture<Void> closeFuture() {
        return closed;
    }

    /** Whether the secure channel is open for requests. */
    public boolean isOpen() {
        return open;
    }

    /** The SecureChannelId the server assigned; 0 before the channel is open. */
    public long secureChannelId() {
        return secureChannelId;
    }

    /** The TokenId requests are sent under now; 0 before the channel is open. */
    public long tokenId() {
        SecureChannelWriter w = writer;
        return w == null ? 0 : w.tokenId();
    }

    /**
     * Sends a request and returns the future of its response (a ServiceFault fails it with the fault's
     * serviceResult). The request is encoded on the calling thread; a request over the server's
     * MaxMessageSize or MaxChunkCount fails at once with BadRequestTooLarge and nothing is sent.
     *
     * @param responseType expected response class; another one fails the future with BadUnknownResponse
     * @param timeoutMillis how long to wait for the response before failing with BadTimeout (> 0)
     */
    @SuppressWarnings("unchecked")
    public <T extends UaStructure> CompletableFuture<T> request(UaStructure request, Class<T> responseType,
            long timeoutMillis) {
        return (CompletableFuture<T>) (CompletableFuture<?>) send(request, responseType, timeoutMillis, null);
    }

    /**
     * {@link #request(UaStructure, Class, long)} whose future completes with {@code then} applied to the
     * response, on the executor: a caller that only needs a part of the response saves the dependent
     * future and its completion a {@code thenApply} would add. What {@code then} throws fails the future.
     */
    @SuppressWarnings("unchecked")
    public <T extends UaStructure, R> CompletableFuture<R> request(UaStructure request, Class<T> responseType,
            long timeoutMillis, Function<? super T, ? extends R> then) {
        return (CompletableFuture<R>) (CompletableFuture<?>) send(request, responseType, timeoutMillis,
                (Function<Object, Object>) (Function<?, ?>) then);
    }

    /**
     * {@link #request(UaStructure, Class, long)} whose future, when the response arrives, completes on the
     * event loop that read it instead of the executor, saving a thread hand-off per response: for
     * continuations that are short and never block. A failure completes it on the executor as usual.
     */
    @SuppressWarnings("unchecked")
    public <T extends UaStructure> CompletableFuture<T> requestCompletingOnIoThread(UaStructure request,
            Class<T> responseType, long timeoutMillis) {
        checkTimeout(timeoutMillis);
        return (CompletableFuture<T>) (CompletableFuture<?>) send(request, timeoutMillis,
                new ClientPendingRequest.OnIoThread(this, responseType, timeoutMillis));
    }

    /** {@link #request(UaStructure, Class, long)} accepting any response type. */
    @SuppressWarnings("unchecked")
    public CompletableFuture<UaStructure> request(UaStructure request, long timeoutMillis) {
        return (CompletableFuture<UaStructure>) (CompletableFuture<?>) send(request, null, timeoutMillis, null);
    }

    private ClientPendingRequest send(UaStructure request, Class<?> responseType, long timeoutMillis,
            Function<Object, Object> then) {
        checkTimeout(timeoutMillis);
        return send(request, timeoutMillis, new ClientPendingRequest(this, responseType, timeoutMillis, then));
    }

    private static void checkTimeout(long timeoutMillis) {
        if (timeoutMillis <= 0) {
            throw new IllegalArgumentException("timeoutMillis must be > 0: " + timeoutMillis);
        }
    }

    private ClientPendingRequest send(UaStructure request, long timeoutMillis, ClientPendingRequest p) {
        if (request instanceof UaRequestMessage m && m.requestHeader() != null) {
            p.requestHandle(m.requestHeader().requestHandle());
        }
        if (!open) {
            p.failNow(new UaException(StatusCodes.BadSecureChannelClosed, "the secure channel is not open"));
            return p;
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        p.deadline(deadline);
        long id;
        do {
            id = nextRequestId();
            p.requestId(id);
        } while (!pending.putIfAbsent(id, p));
        // Registered before this check and the close path sets 'shut' before draining the map:
        // either the drain sees the entry or this thread sees the flag.
        if (shut) {
            if (forget(p)) {
                p.failNow(new UaException(StatusCodes.BadSecureChannelClosed, "the secure channel is closed"));
            }
            return p;
        }
        if (!deadlines.arm(deadline)) { // timer stopped: the client's resources are closed
            if (forget(p)) {
                p.failNow(new UaException(StatusCode.of(StatusCodes.BadShutdown), "the client is shut down"));
            }
            return p;
        }
        try {
            // A failed write reaches exceptionCaught, which fails every pending request with it.
            writer.writeSymmetricVoid(MessageType.MSG, id, request);
        } catch (UaException e) { // BadRequestTooLarge from the chunk encoder, or an encoding error
            if (forget(p)) {
                p.failNow(e);
            }
        } catch (RuntimeException e) {
            if (forget(p)) {
                p.failNow(new UaException(StatusCode.of(StatusCodes.BadEncodingError), "request " + id
                        + " could not be encoded: " + e, e));
            }
        }
        return p;
    }

    /** Where response futures are completed. */
    Executor executor() {
        return executor;
    }

    /**
     * Removes a pending request.
     *
     * @return whether it was still pending (the caller then completes it)
     */
    boolean forget(ClientPendingRequest p) {
        return pending.remove(p.requestId(), p);
    }

    /** The sweep of {@link RequestDeadlines} fired for {@code due}: fails what is overdue, returns the next deadline. */
    private long expire(long due) {
        long now = Math.max(System.nanoTime(), due);
        for (ClientPendingRequest p : pending.removeExpired(now)) {
            p.timedOut();
        }
        return pending.earliestDeadline();
    }

    /**
     * Sends CloseSecureChannel (when the channel is open), closes the socket and fails pending requests
     * with BadSecureChannelClosed. Idempotent.
     *
     * @return completes (on the executor) once the socket is closed
     */
    public CompletableFuture<Void> close() {
        if (closeRequested.compareAndSet(false, true)) {
            ChannelHandlerContext c = ctx;
            if (c == null) {
                closed.complete(null);
            } else if (c.executor().inEventLoop()) {
                closeNow();
            } else {
                c.executor().execute(this::closeNow);
            }
        }
        return closed;
    }

    private void closeNow() {
        boolean wasOpen = state == State.OPEN;
        UaException reason = new UaException(StatusCodes.BadSecureChannelClosed, "the secure channel was closed");
        shutDown(reason);
        if (wasOpen) {
            try {
                writer.writeSymmetric(MessageType.CLO, nextRequestId(), new CloseSecureChannelRequest(header(0)))
                        .addListener(ChannelFutureListener.CLOSE);
                return;
            } catch (RuntimeException e) {
                log.debug("CloseSecureChannel could not be sent", e);
            }
        }
        ctx.close();
    }

    // ---- pipeline events -------------------------------------------------------------------------

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.writer = new SecureChannelWriter(ctx.channel(), CodecRegistry.standard());
        ctx.channel().closeFuture().addListener(f -> completeLater(closed, null));
        if (closeRequested.get()) { // closed before the connection was made: never say Hello
            shutDown(new UaException(StatusCodes.BadSecureChannelClosed, "the secure channel was closed"));
            ctx.close();
            return;
        }
        if (ctx.channel().isActive()) {
            sendHello();
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        sendHello();
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        shutDown(closeRequested.get()
                ? new UaException(StatusCodes.BadSecureChannelClosed, "the secure channel was closed")
                : new UaException(StatusCodes.BadConnectionClosed, "the connection was closed"));
        if (assembler != null) {
            assembler.discard();
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        UaException e = toUaException(cause);
        if (state != State.CLOSED) {
            log.debug("closing the connection to {}: {}", endpointUrl, e.getMessage());
        }
        fail(e);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf frame)) {
            ctx.fireChannelRead(msg);
            return;
        }
        boolean owned = true;
        try {
            if (state == State.CLOSED) {
                return; // after a failure: discard whatever is still in flight
            }
            MessageType type = frame.readableBytes() >= 8 ? MessageType.fromHeader(frame.getIntLE(frame.readerIndex()))
                    : null;
            if (type == MessageType.ERR) {
                ErrorMessage error = ErrorMessage.decode(frame);
                fail(new UaException(StatusCode.ofUnsigned(error.error()), "the server sent Error: "
                        + error.reason()));
                return;
            }
            if (state == State.AWAIT_ACK && type == MessageType.ACK) {
                onAcknowledge(AcknowledgeMessage.decode(frame));
            } else if ((state == State.AWAIT_OPN || state == State.OPEN)
                    && (type == MessageType.OPN || type == MessageType.MSG)) {
                owned = false;
                onChunk(frame, type);
            } else {
                throw new UaException(StatusCodes.BadTcpMessageTypeInvalid, "unexpected message type "
                        + (type == null ? "0x" + Integer.toHexString(frame.getIntLE(frame.readerIndex()) & 0xFFFFFF)
                                : type) + " while " + state);
            }
        } catch (RuntimeException e) {
            fail(toUaException(e));
        } finally {
            if (owned) {
                frame.release();
            }
        }
    }

    // ---- handshake -------------------------------------------------------------------------------

    private void sendHello() {
        if (state != State.NEW) {
            return;
        }
        state = State.AWAIT_ACK;
        HelloMessage hello = new HelloMessage(PROTOCOL_VERSION, quotas.maxBufferSize(), quotas.maxBufferSize(),
                quotas.maxMessageSize(), quotas.effectiveMaxChunkCount(), endpointUrl);
        ByteBuf out = ctx.alloc().buffer(32 + ByteBufUtil.utf8MaxBytes(endpointUrl));
        try {
            hello.encode(out);
        } catch (RuntimeException e) {
            out.release();
            fail(toUaException(e));
            return;
        }
        ctx.writeAndFlush(out);
        openTimeout = schedule(this::handshakeTimedOut, quotas.operationTimeout().toMillis());
    }

    private void handshakeTimedOut() {
        if (state == State.AWAIT_ACK || state == State.AWAIT_OPN) {
            fail(new UaException(StatusCodes.BadTimeout, "no " + (state == State.AWAIT_ACK ? "Acknowledge"
                    : "OpenSecureChannel response") + " within " + quotas.operationTimeout().toMillis() + " ms"));
        }
    }

    /** Checks the server's Acknowledge against our Hello (Part 6, 7.1.2.4, Table 73) and sends the OPN. */
    private void onAcknowledge(AcknowledgeMessage ack) {
        if (ack.protocolVersion() > PROTOCOL_VERSION) {
            throw new UaException(StatusCodes.BadProtocolVersionUnsupported, "the server acknowledged protocol version "
                    + ack.protocolVersion() + ", newer than our " + PROTOCOL_VERSION);
        }
        checkBufferSize("ReceiveBufferSize", ack.receiveBufferSize());
        checkBufferSize("SendBufferSize", ack.sendBufferSize());
        UaTcpFrameDecoder frames = ctx.pipeline().get(UaTcpFrameDecoder.class);
        if (frames != null) {
            frames.setMaxFrameSize(quotas.maxBufferSize());
        }
        writer.setChunkEncoder(new ChunkEncoder((int) ack.receiveBufferSize(), ack.maxMessageSize(),
                ack.maxChunkCount(), StatusCodes.BadRequestTooLarge));
        assembler = new MessageAssembler(ctx.alloc(), quotas.maxMessageSize(), quotas.effectiveMaxChunkCount(),
                StatusCodes.BadResponseTooLarge);
        ackProtocolVersion = ack.protocolVersion();
        state = State.AWAIT_OPN;
        if (policy != SecurityPolicy.None) {
            // Part 4, 6.1.3: the server's certificate is validated before anything is sent to it.
            security.serverValidator().validate(security.serverCertificateChain());
        }
        sendOpen(SecurityTokenRequestType.Issue);
    }

    /** Both sizes are at most what we offered (our Hello uses one value for both) and at least 8192. */
    private void checkBufferSize(String field, long size) {
        if (size < MIN_BUFFER_SIZE || size > quotas.maxBufferSize()) {
            throw new UaException(StatusCodes.BadCommunicationError, "the server acknowledged " + field + " " + size
                    + ", outside " + MIN_BUFFER_SIZE + ".." + quotas.maxBufferSize());
        }
    }

    private void sendOpen(SecurityTokenRequestType type) {
        openRequestId = nextRequestId();
        requestedLifetime = quotas.securityTokenLifetime().toMillis();
        long timeoutHint = quotas.operationTimeout().toMillis();
        ByteString nonce = ByteString.NULL;
        AsymmetricSecurityHeader securityHeader = AsymmetricSecurityHeader.NONE;
        ChunkCrypto crypto = ChunkCrypto.NONE;
        if (policy != SecurityPolicy.None) {
            clientNonce = new byte[policy.nonceLength()];
            RANDOM.nextBytes(clientNonce);
            nonce = ByteString.of(clientNonce);
            X509Certificate server = security.serverCertificate();
            securityHeader = new AsymmetricSecurityHeader(policy.uri(), security.certificate().chainDer(),
                    ByteString.wrap(Certificates.thumbprint(server)));
            crypto = AsymmetricChunkCrypto.forSending(policy, security.certificate().privateKey(),
                    server.getPublicKey());
        }
        OpenSecureChannelRequest request = new OpenSecureChannelRequest(header(timeoutHint), PROTOCOL_VERSION, type,
                security.security().mode(), nonce, requestedLifetime);
        // Issue: SecureChannelId 0 in the header (Part 6, 6.7.6); Renew: the channel's id.
        long channelIdInHeader = type == SecurityTokenRequestType.Issue ? 0 : secureChannelId;
        writer.writeAsymmetric(channelIdInHeader, securityHeader, crypto, openRequestId, request);
    }

    private void renew() {
        renewal = null;
        if (state != State.OPEN || openRequestId != 0) {
            return;
        }
        try {
            sendOpen(SecurityTokenRequestType.Renew);
        } catch (RuntimeException e) {
            fail(toUaException(e));
            return;
        }
        openTimeout = schedule(() -> {
            if (openRequestId != 0 && state == State.OPEN) {
                fail(new UaException(StatusCodes.BadTimeout, "no response to the token renewal within "
                        + quotas.operationTimeout().toMillis() + " ms"));
            }
        }, quotas.operationTimeout().toMillis());
    }

    /** The response to our Issue or Renew (Part 6, 6.7.4, Table 63; Part 4, 5.5.2). */
    private void onOpenResponse(long requestId, ByteBuf message) {
        if (requestId != openRequestId || openRequestId == 0) {
            throw new UaException(StatusCodes.BadSecurityChecksFailed, "OpenSecureChannel response for request "
                    + requestId + ", but none is outstanding");
        }
        UaStructure decoded = decode(message);
        if (decoded instanceof ServiceFault fault) {
            throw new UaException(fault.responseHeader().serviceResult(), "the server refused to "
                    + (state == State.OPEN ? "renew" : "open") + " the secure channel");
        }
        if (!(decoded instanceof OpenSecureChannelResponse response) || response.securityToken() == null) {
            throw new UaException(StatusCodes.BadUnknownResponse, "expected an OpenSecureChannelResponse, received "
                    + decoded.getClass().getSimpleName());
        }
        if (response.serverProtocolVersion() != ackProtocolVersion) {
            throw new UaException(StatusCodes.BadProtocolVersionUnsupported, "ServerProtocolVersion "
                    + response.serverProtocolVersion() + " differs from the acknowledged " + ackProtocolVersion);
        }
        ChannelSecurityToken token = response.securityToken();
        if (state == State.OPEN && token.channelId() != secureChannelId) {
            throw new UaException(StatusCodes.BadSecureChannelIdInvalid, "the renewed token is for channel "
                    + token.channelId() + ", not " + secureChannelId);
        }
        cancel(openTimeout);
        openTimeout = null;
        openRequestId = 0;
        // Part 4, 5.5.2: the server shall revise to > 0; fall back to what we asked for if it did not.
        long lifetime = token.revisedLifetime() > 0 ? token.revisedLifetime() : requestedLifetime;
        ChunkCrypto sendCrypto = ChunkCrypto.NONE;
        ChunkCrypto receiveCrypto = ChunkCrypto.NONE;
        if (security.security().signs()) {
            byte[] serverNonce = response.serverNonce() == null ? null : response.serverNonce().unsafeBytes();
            if (serverNonce == null || serverNonce.length < policy.nonceLength()) {
                throw new UaException(StatusCodes.BadNonceInvalid, "the ServerNonce has "
                        + (serverNonce == null ? "no" : String.valueOf(serverNonce.length)) + " bytes, " + policy
                        + " needs " + policy.nonceLength());
            }
            KeyDerivation.ChannelKeys keys = KeyDerivation.derive(policy, clientNonce, serverNonce);
            sendCrypto = SymmetricChunkCrypto.forSending(security.security(), keys.client());
            receiveCrypto = SymmetricChunkCrypto.forReceiving(security.security(), keys.server());
        }
        secureChannelId = token.channelId();
        tokens.roll(token.tokenId(), lifetime, System.nanoTime(), receiveCrypto);
        // Send under the new token at once (Part 6, 6.7.4).
        writer.setToken(token.channelId(), token.tokenId(), sendCrypto);
        renewal = schedule(this::renew, Math.max(1, lifetime * 3 / 4));
        if (state == State.AWAIT_OPN) {
            state = State.OPEN;
            open = true;
            settleHandshake(null);
        }
    }

    // ---- chunks and responses --------------------------------------------------------------------

    /** A secure conversation chunk; takes ownership of {@code frame}. */
    private void onChunk(ByteBuf frame, MessageType type) {
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
            } else if (chunkHeader.secureChannelId() != secureChannelId) {
                throw new UaException(StatusCodes.BadTcpSecureChannelUnknown, "chunk for SecureChannelId "
                        + chunkHeader.secureChannelId() + " on channel " + secureChannelId);
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
                failRequest(requestId, e);
                return;
            }
            throw e;
        }
        if (message == null) {
            return;
        }
        try {
            if (type == MessageType.OPN) {
                onOpenResponse(requestId, message);
            } else {
                onResponse(requestId, message);
            }
        } finally {
            message.release();
        }
    }

    private void checkOpnHeader() {
        if (state == State.OPEN && chunkHeader.secureChannelId() != secureChannelId) {
            throw new UaException(StatusCodes.BadTcpSecureChannelUnknown, "OPN chunk for SecureChannelId "
                    + chunkHeader.secureChannelId() + " on channel " + secureChannelId);
        }
    }

    /**
     * OPN chunks: the response must use our policy and come from the server certificate we trusted;
     * MSG chunks: the current or the still-accepted previous token.
     */
    private ChunkCrypto cryptoForToken(long tokenId) {
        if (readingOpn) {
            AsymmetricSecurityHeader header = chunkHeader.asymmetricHeader();
            if (!policy.uri().equals(header.securityPolicyUri())) {
                throw new UaException(StatusCodes.BadSecurityChecksFailed, "the OpenSecureChannel response uses "
                        + "policy " + header.securityPolicyUri() + ", the request used " + policy.uri());
            }
            if (policy == SecurityPolicy.None) {
                return ChunkCrypto.NONE;
            }
            X509Certificate server = security.serverCertificate();
            List<X509Certificate> sent = header.senderCertificate().isNull() ? List.of()
                    : Certificates.decodeChain(header.senderCertificate().unsafeBytes());
            if (sent.isEmpty() || !sent.get(0).equals(server)) {
                throw new UaException(StatusCodes.BadSecurityChecksFailed, "the OpenSecureChannel response is not "
                        + "signed with the server certificate of the endpoint");
            }
            return AsymmetricChunkCrypto.forReceiving(policy, security.certificate().privateKey(),
                    server.getPublicKey());
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
        if (requestId == openRequestId && openRequestId != 0) {
            throw e; // an aborted OpenSecureChannel response: the channel cannot open or renew
        }
        failRequest(requestId, e);
    }

    private void onResponse(long requestId, ByteBuf message) {
        ClientPendingRequest p = pending.remove(requestId);
        if (p == null) {
            log.debug("dropped a response for request {}, which is not pending (timed out or cancelled)",
                    requestId);
            return;
        }
        UaStructure response;
        try {
            response = decode(message);
        } catch (UaException e) {
            p.fail(e);
            return;
        }
        p.respond(response);
    }

    private UaStructure decode(ByteBuf message) {
        try {
            return decoder.setBuffer(message).readMessage();
        } finally {
            decoder.setBuffer(null);
        }
    }

    private void failRequest(long requestId, UaException e) {
        ClientPendingRequest p = pending.remove(requestId);
        if (p != null) {
            p.fail(e);
        }
    }

    // ---- failure and shutdown --------------------------------------------------------------------

    /** A failure of the channel: every pending future fails with it and the socket closes (Part 6, 7.1.4). */
    private void fail(UaException cause) {
        if (state == State.CLOSED) {
            return;
        }
        shutDown(cause);
        ctx.close();
    }

    /** Stops accepting requests, cancels timers and fails the handshake and every pending request. */
    private void shutDown(UaException cause) {
        state = State.CLOSED;
        open = false;
        shut = true;
        cancel(openTimeout);
        cancel(renewal);
        openTimeout = null;
        renewal = null;
        settleHandshake(cause);
        deadlines.stop();
        for (ClientPendingRequest p : pending.drain()) {
            p.fail(cause);
        }
    }

    /** Completes the handshake once, on the executor; decided here on the event loop so a late failure cannot overtake success. */
    private void settleHandshake(Throwable failure) {
        if (!handshakeSettled) {
            handshakeSettled = true;
            completeLater(handshake, failure);
        }
    }

    private static UaException toUaException(Throwable cause) {
        if (cause instanceof DecoderException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof UaException e) {
            return e;
        }
        if (cause instanceof IOException) {
            return new UaException(StatusCode.of(StatusCodes.BadConnectionClosed), "connection error: " + cause,
                    cause);
        }
        return new UaException(StatusCode.of(StatusCodes.BadCommunicationError), String.valueOf(cause), cause);
    }

    // ---- small helpers ---------------------------------------------------------------------------

    /** The next RequestId: a UInt32 counter that skips 0 and wraps. */
    private long nextRequestId() {
        int id = requestIds.incrementAndGet();
        if (id == 0) {
            id = requestIds.incrementAndGet();
        }
        return Integer.toUnsignedLong(id);
    }

    /** A RequestHeader for the channel's own OPN and CLO requests (no session: null authentication token). */
    private RequestHeader header(long timeoutHint) {
        int handle = requestHandles.incrementAndGet();
        if (handle == 0) {
            handle = requestHandles.incrementAndGet();
        }
        return new RequestHeader(NodeId.NULL, DateTime.now(), Integer.toUnsignedLong(handle), 0, null, timeoutHint,
                ExtensionObject.NULL);
    }

    /** Schedules a task on this channel's event loop after {@code delayMillis}; null when the timer is stopped. */
    private Timeout schedule(Runnable task, long delayMillis) {
        try {
            return timer.newTimeout(t -> {
                try {
                    ctx.executor().execute(task);
                } catch (RejectedExecutionException ignored) {
                    // the event loop is shutting down: the channel goes with it
                }
            }, delayMillis, TimeUnit.MILLISECONDS);
        } catch (IllegalStateException e) {
            return null;
        }
    }

    private static void cancel(Timeout t) {
        if (t != null) {
            t.cancel();
        }
    }

    private void completeLater(CompletableFuture<Void> future, Throwable failure) {
        Runnable completion = failure == null ? () -> future.complete(null) : () -> future.completeExceptionally(failure);
        try {
            executor.execute(completion);
        } catch (RejectedExecutionException e) {
            completion.run();
        }
    }
}
