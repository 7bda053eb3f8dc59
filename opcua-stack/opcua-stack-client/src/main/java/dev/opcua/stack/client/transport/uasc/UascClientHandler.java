package dev.opcua.stack.client.transport.uasc;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.channel.ChunkEncoder;
import dev.opcua.stack.core.channel.MessageAssembler;
import dev.opcua.stack.core.channel.MessageType;
import dev.opcua.stack.core.channel.messages.AcknowledgeMessage;
import dev.opcua.stack.core.channel.messages.ErrorMessage;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.transport.tcp.UaTcpFrameDecoder;
import dev.opcua.stack.core.transport.uasc.SecureChannelWriter;
import dev.opcua.stack.core.types.UaRequestMessage;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.structured.CloseSecureChannelRequest;
import dev.opcua.stack.core.types.structured.RequestHeader;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client end of a UA TCP connection with UA Secure Conversation (Part 6, 7.1 and 6.7), under the
 * security policy and mode of a {@link ClientChannelSecurity}, and the secure channel's API: requests
 * go out through it and the futures of their responses come back from it. It stays in the pipeline for
 * the connection's life and leaves each stage to a class of its own:
 *
 * <ul>
 *   <li>the handshake, Hello and Acknowledge (Part 6, 7.1.2.3 and 7.1.2.4) and the OpenSecureChannel
 *       Issue: a {@link UascClientHandshakeHandler} that this handler installs just before itself and
 *       that removes itself once the channel is open;</li>
 *   <li>the security token: {@link ClientOpenSecureChannel} sends the Issue and, for as long as the
 *       channel lives, the Renews at 75 % of the revised lifetime (Part 6, 6.7.4; Part 4, 5.5.2.1); the
 *       server certificate is validated before the Issue is sent and the response must come signed by
 *       it;</li>
 *   <li>the server's chunks: {@link ClientChunkReader} verifies, checks and reassembles them and hands
 *       OpenSecureChannel responses to the {@link ClientOpenSecureChannel}, all others to the
 *       {@link ClientRequests};</li>
 *   <li>request correlation: {@link ClientRequests} matches each response to its pending request by
 *       RequestId (Part 6, 6.7.2.4), checks that it echoes the request's requestHandle (Part 4, 7.33)
 *       and fails requests at their deadline.</li>
 * </ul>
 *
 * <p>This handler takes the frames after the handshake, fails the channel on an Error message (Part 6,
 * 7.1.2.5) or anything that does not check out, and closes with CloseSecureChannel (Part 6, 7.1.4).
 * It sits last in the pipeline, after a {@link UaTcpFrameDecoder} (whose limit is raised to the
 * negotiated buffer size once the Acknowledge arrives; it may lend its frames: a frame is decoded
 * within channelRead and only slices of the chunks of a message still incomplete are kept) and a
 * flush-consolidation handler. Requests are encoded on the calling thread by the
 * {@link SecureChannelWriter}; responses are decoded on the event loop, which costs little next to
 * encoding requests, and their futures completed on the {@code executor}, so user callbacks never run
 * on the event loop. Every pending future is completed: by its response, an abort chunk, its timeout,
 * a server Error, {@link #close()} or the connection closing.
 */
public final class UascClientHandler extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(UascClientHandler.class);

    /** ProtocolVersion of this version of UA TCP (Part 6, 7.1.2.3). */
    static final long PROTOCOL_VERSION = 0;
    /** Smallest buffer UASC works with (Part 6, 6.7.1; ECC's 1024 does not apply to None). */
    static final int MIN_BUFFER_SIZE = TransportQuotas.MIN_BUFFER_SIZE;
    /**
     * Frame limit until the Acknowledge: only ACK (28 bytes) and ERR (at most 16 + 4096) may arrive.
     * Callers build the frame decoder with it.
     */
    public static final int HANDSHAKE_MAX_FRAME_SIZE = MIN_BUFFER_SIZE;

    /** Where the connection stands; the handshake handler moves it from NEW to AWAIT_OPN. */
    enum State { NEW, AWAIT_ACK, AWAIT_OPN, OPEN, CLOSED }

    private final String endpointUrl;
    private final TransportQuotas quotas;
    private final ClientChannelSecurity security;
    private final Timer timer;
    private final ClientRequests requests;
    private final ClientOpenSecureChannel openSecureChannel;
    private final AtomicInteger requestHandles = new AtomicInteger();
    private final AtomicBoolean closeRequested = new AtomicBoolean();
    private final CompletableFuture<Void> handshake = new CompletableFuture<>();
    private final CompletableFuture<Void> closed = new CompletableFuture<>();

    // Event-loop state.
    private final ClientChunkReader chunks;
    private volatile ChannelHandlerContext ctx; // set on the event loop, read by close() on any thread
    private State state = State.NEW;
    private boolean handshakeSettled;

    // Read by callers of request() on any thread.
    private volatile SecureChannelWriter writer;
    private volatile boolean open;
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
        this(endpointUrl, quotas, security, timer, executor, executor);
    }

    /**
     * @param endpointUrl the URL sent in the Hello
     * @param quotas our buffer sizes and limits, the requested token lifetime and the operation timeout
     * @param security the policy and mode, our certificate, the server's and its validator
     * @param timer timer wheel for request timeouts, the handshake deadline and token renewal
     * @param executor where responses complete their futures
     * @param failures where failed requests, the handshake and the close complete theirs
     */
    public UascClientHandler(String endpointUrl, TransportQuotas quotas, ClientChannelSecurity security, Timer timer,
            Executor executor, Executor failures) {
        this.security = Objects.requireNonNull(security, "security");
        this.endpointUrl = endpointUrl;
        this.quotas = quotas;
        this.timer = timer;
        this.requests = new ClientRequests(timer, executor, failures, quotas.encodingLimits());
        ClientSecurityTokens tokens = new ClientSecurityTokens();
        this.openSecureChannel = new ClientOpenSecureChannel(this, security, quotas, tokens, requests);
        this.chunks = new ClientChunkReader(this, tokens, openSecureChannel, requests);
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
                new ClientPendingRequest.OnIoThread(requests, responseType, timeoutMillis));
    }

    /** {@link #request(UaStructure, Class, long)} accepting any response type. */
    @SuppressWarnings("unchecked")
    public CompletableFuture<UaStructure> request(UaStructure request, long timeoutMillis) {
        return (CompletableFuture<UaStructure>) (CompletableFuture<?>) send(request, null, timeoutMillis, null);
    }

    private ClientPendingRequest send(UaStructure request, Class<?> responseType, long timeoutMillis,
            Function<Object, Object> then) {
        checkTimeout(timeoutMillis);
        return send(request, timeoutMillis, new ClientPendingRequest(requests, responseType, timeoutMillis, then));
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
        return requests.send(writer, request, timeoutMillis, p);
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
                writer.writeSymmetric(MessageType.CLO, requests.nextRequestId(),
                        new CloseSecureChannelRequest(channelRequestHeader(0))).addListener(ChannelFutureListener.CLOSE);
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
        writer.sequenceNumbersFor(security.security().policy()); // ECC: from 0 (Part 6, 6.7.2.4)
        ctx.channel().closeFuture().addListener(f -> completeLater(closed, null));
        if (closeRequested.get()) { // closed before the connection was made: never say Hello
            shutDown(new UaException(StatusCodes.BadSecureChannelClosed, "the secure channel was closed"));
            ctx.close();
            return;
        }
        ctx.pipeline().addBefore(ctx.name(), null,
                new UascClientHandshakeHandler(this, endpointUrl, quotas, security, openSecureChannel));
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        shutDown(closeRequested.get()
                ? new UaException(StatusCodes.BadSecureChannelClosed, "the secure channel was closed")
                : new UaException(StatusCodes.BadConnectionClosed, "the connection was closed"));
        chunks.discard();
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
            if ((state == State.AWAIT_OPN || state == State.OPEN)
                    && (type == MessageType.OPN || type == MessageType.MSG)) {
                owned = false;
                chunks.read(frame, type);
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

    // ---- what the handshake and the token requests report ----------------------------------------

    State state() {
        return state;
    }

    /** The handshake advanced: the Hello is sent. */
    void state(State next) {
        state = next;
    }

    /**
     * The Acknowledge was checked: requests are chunked for the server's buffer size and limits,
     * responses reassembled within ours; the channel awaits the OpenSecureChannel response.
     */
    void acknowledged(AcknowledgeMessage ack) {
        writer.setChunkEncoder(new ChunkEncoder((int) ack.receiveBufferSize(), ack.maxMessageSize(),
                ack.maxChunkCount(), StatusCodes.BadRequestTooLarge));
        chunks.start(new MessageAssembler(ctx.alloc(), quotas.maxMessageSize(), quotas.effectiveMaxChunkCount(),
                StatusCodes.BadResponseTooLarge));
        state = State.AWAIT_OPN;
    }

    /** The Issue was answered: the channel is open for requests. */
    void opened() {
        state = State.OPEN;
        open = true;
        settleHandshake(null);
    }

    /** The SecureChannelId the server assigned in its OpenSecureChannel response. */
    void secureChannelId(long id) {
        secureChannelId = id;
    }

    SecureChannelWriter writer() {
        return writer;
    }

    /** A RequestHeader for the channel's own OPN and CLO requests (no session: null authentication token). */
    RequestHeader channelRequestHeader(long timeoutHint) {
        int handle = requestHandles.incrementAndGet();
        if (handle == 0) {
            handle = requestHandles.incrementAndGet();
        }
        return new RequestHeader(NodeId.NULL, DateTime.now(), Integer.toUnsignedLong(handle), 0, null, timeoutHint,
                ExtensionObject.NULL);
    }

    // ---- failure and shutdown --------------------------------------------------------------------

    /** A failure of the channel: every pending future fails with it and the socket closes (Part 6, 7.1.4). */
    void fail(UaException cause) {
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
        openSecureChannel.stop();
        settleHandshake(cause);
        requests.failAll(cause);
    }

    /** Completes the handshake once, on the executor; decided here on the event loop so a late failure cannot overtake success. */
    private void settleHandshake(Throwable failure) {
        if (!handshakeSettled) {
            handshakeSettled = true;
            completeLater(handshake, failure);
        }
    }

    static UaException toUaException(Throwable cause) {
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

    /** Schedules a task on this channel's event loop after {@code delayMillis}; null when the timer is stopped. */
    Timeout schedule(Runnable task, long delayMillis) {
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

    /** Cancels {@code t} when there is one; returns null, for the field that held it. */
    static Timeout cancel(Timeout t) {
        if (t != null) {
            t.cancel();
        }
        return null;
    }

    private void completeLater(CompletableFuture<Void> future, Throwable failure) {
        Runnable completion = failure == null ? () -> future.complete(null) : () -> future.completeExceptionally(failure);
        try {
            requests.failureExecutor().execute(completion);
        } catch (RejectedExecutionException e) {
            completion.run();
        }
    }
}
