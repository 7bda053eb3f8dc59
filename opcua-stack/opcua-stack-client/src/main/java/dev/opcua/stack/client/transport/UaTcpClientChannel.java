package dev.opcua.stack.client.transport;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.client.transport.uasc.ClientChannelSecurity;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.transport.EndpointUrl;
import dev.opcua.stack.core.transport.tcp.UaTcpFrameDecoder;
import dev.opcua.stack.client.transport.uasc.UascClientHandler;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.StatusCode;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ConnectTimeoutException;
import io.netty.handler.flush.FlushConsolidationHandler;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;

/**
 * A client's secure channel over UA TCP with SecurityPolicy None (Part 6, 7.1 and 6.7): connects,
 * exchanges Hello/Acknowledge, opens the channel, keeps its token renewed and carries service
 * requests and responses until {@link #close()}.
 *
 * <p>Thread-safe: any thread may send requests; each is encoded on the calling thread. Response
 * futures complete on the {@link ClientResources#executor()}.
 */
public final class UaTcpClientChannel {

    /**
     * Flushes during a read (a callback run on the event loop that sends) become one flush at its end.
     * Outside a read a flush goes out at once: requests from other threads already reach the event
     * loop in batches with one flush each (SecureChannelWriter), and deferring that flush to a later
     * task would cost a task per batch and delay it.
     */
    private static final int FLUSHES_BEFORE_FORCED_FLUSH = 256;

    private final String endpointUrl;
    private final TransportQuotas quotas;
    private final Channel channel;
    private final UascClientHandler handler;
    private final ClientChannelSecurity security;

    private UaTcpClientChannel(String endpointUrl, TransportQuotas quotas, ClientChannelSecurity security,
            Channel channel, UascClientHandler handler) {
        this.endpointUrl = endpointUrl;
        this.security = security;
        this.quotas = quotas;
        this.channel = channel;
        this.handler = handler;
    }

    /** Connects with {@link TransportQuotas#DEFAULT} on the {@link ClientResources#shared()} resources. */
    public static CompletableFuture<UaTcpClientChannel> connect(String endpointUrl) {
        return connect(endpointUrl, TransportQuotas.DEFAULT, ClientResources.shared());
    }

    /**
     * Connects to an {@code opc.tcp} endpoint and opens a secure channel with SecurityPolicy None.
     *
     * @return completes (on the resources' executor) with the open channel, or fails with a
     *         {@link UaException}: BadTcpEndpointUrlInvalid for a malformed URL, BadConnectionRejected or
     *         BadTimeout when the TCP connection fails, the status of the server's Error message or
     *         ServiceFault, BadCommunicationError for an unacceptable Acknowledge, BadTimeout when the
     *         handshake takes longer than the operation timeout
     */
    public static CompletableFuture<UaTcpClientChannel> connect(String endpointUrl, TransportQuotas quotas,
            ClientResources resources) {
        return connect(endpointUrl, quotas, ClientChannelSecurity.NONE, resources);
    }

    /**
     * Connects to an {@code opc.tcp} endpoint and opens a secure channel with the given security (Part
     * 6, 6.7.4). Besides the failures of {@link #connect(String, TransportQuotas, ClientResources)}, the
     * future fails with the validator's status when the server certificate is not trusted, and with
     * BadSecurityChecksFailed when the server's OpenSecureChannel response does not verify.
     */
    public static CompletableFuture<UaTcpClientChannel> connect(String endpointUrl, TransportQuotas quotas,
            ClientChannelSecurity security, ClientResources resources) {
        Objects.requireNonNull(quotas, "quotas");
        Objects.requireNonNull(security, "security");
        Objects.requireNonNull(resources, "resources");
        EndpointUrl url;
        try {
            url = EndpointUrl.parse(endpointUrl);
            if (!url.isOpcTcp() || url.port() == 0) {
                throw new UaException(StatusCodes.BadTcpEndpointUrlInvalid, "invalid endpoint URL '" + endpointUrl
                        + "': " + (url.isOpcTcp() ? "port 0 cannot be connected to" : "the scheme must be opc.tcp"));
            }
        } catch (UaException e) {
            return CompletableFuture.failedFuture(e);
        }
        Executor failures = resources.callbackExecutor();
        UascClientHandler handler = new UascClientHandler(endpointUrl, quotas, security, resources.timer(),
                resources.executor(), failures);
        Bootstrap bootstrap = new Bootstrap()
                .group(resources.eventLoopGroup())
                .channel(resources.socketChannelType())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS,
                        (int) Math.min(Integer.MAX_VALUE, Math.max(1, quotas.operationTimeout().toMillis())))
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new UaTcpFrameDecoder(UascClientHandler.HANDSHAKE_MAX_FRAME_SIZE, true),
                                new FlushConsolidationHandler(FLUSHES_BEFORE_FORCED_FLUSH, false), handler);
                    }
                });
        CompletableFuture<UaTcpClientChannel> result = new CompletableFuture<>();
        ChannelFuture connecting = bootstrap.connect(url.socketHost(), url.portOrDefault());
        connecting.addListener((ChannelFuture f) -> {
            if (!f.isSuccess()) {
                Throwable cause = f.cause();
                int status = cause instanceof ConnectTimeoutException ? StatusCodes.BadTimeout
                        : StatusCodes.BadConnectionRejected;
                failOn(failures, result, new UaException(StatusCode.of(status), "could not connect to "
                        + url.socketHost() + ":" + url.portOrDefault() + ": " + cause, cause));
                return;
            }
            completeOnHandshake(new UaTcpClientChannel(endpointUrl, quotas, security, f.channel(), handler), result);
        });
        result.whenComplete((client, failure) -> {
            if (result.isCancelled()) {
                connecting.cancel(false);
                handler.close();
            }
        });
        return result;
    }

    /**
     * The client end of a connection the server opened (reverse connect, Part 6, 7.1.3) whose ReverseHello was
     * accepted: installs the secure-channel handler, which sends the Hello at once, and completes {@code result}
     * as {@link #connect} does. Runs on the connection's event loop.
     */
    static void overReverseConnection(Channel connection, String endpointUrl, TransportQuotas quotas,
            ClientChannelSecurity security, ClientResources resources, CompletableFuture<UaTcpClientChannel> result) {
        UascClientHandler handler = new UascClientHandler(endpointUrl, quotas, security, resources.timer(),
                resources.executor(), resources.callbackExecutor());
        connection.pipeline().addLast(new FlushConsolidationHandler(FLUSHES_BEFORE_FORCED_FLUSH, false), handler);
        completeOnHandshake(new UaTcpClientChannel(endpointUrl, quotas, security, connection, handler), result);
        result.whenComplete((client, failure) -> {
            if (result.isCancelled()) {
                handler.close();
            }
        });
    }

    private static void completeOnHandshake(UaTcpClientChannel client, CompletableFuture<UaTcpClientChannel> result) {
        // The handshake future completes on the executor already.
        client.handler.handshake().whenComplete((ok, failure) -> {
            if (failure == null) {
                if (!result.complete(client)) {
                    client.close(); // the caller cancelled meanwhile
                }
            } else {
                result.completeExceptionally(failure);
            }
        });
    }

    /**
     * Sends a service request; the response future fails with a {@link UaException}: the serviceResult of
     * a ServiceFault, BadTimeout after the header's timeoutHint (or the operation timeout when the hint
     * is 0), BadRequestTooLarge at once when the request exceeds the server's limits, the status of an
     * abort chunk or server Error, BadSecureChannelClosed or BadConnectionClosed when the channel goes.
     * Cancelling the future forgets the request.
     *
     * @param responseType the expected response; another type fails with BadUnknownResponse
     */
    public <T extends UaStructure> CompletableFuture<T> request(UaStructure request, Class<T> responseType) {
        return handler.request(request, responseType, timeoutMillis(request));
    }

    /**
     * {@link #request(UaStructure, Class)} completing with {@code then} applied to the response (on the
     * executor; what it throws fails the future), without a further dependent future.
     */
    public <T extends UaStructure, R> CompletableFuture<R> request(UaStructure request, Class<T> responseType,
            Function<? super T, ? extends R> then) {
        return handler.request(request, responseType, timeoutMillis(request), then);
    }

    /**
     * {@link #request(UaStructure, Class)} whose future, when the response arrives, completes on the I/O thread
     * that read it, without the hand-off to the callback executor: for continuations that are short and never
     * block. A failure completes it on the executor as usual.
     */
    public <T extends UaStructure> CompletableFuture<T> requestCompletingOnIoThread(UaStructure request,
            Class<T> responseType) {
        return handler.requestCompletingOnIoThread(request, responseType, timeoutMillis(request));
    }

    /** {@link #request(UaStructure, Class)} accepting any response type. */
    public CompletableFuture<UaStructure> request(UaStructure request) {
        return handler.request(request, timeoutMillis(request));
    }

    private long timeoutMillis(UaStructure request) {
        long hint = RequestHeaders.timeoutHint(request);
        return hint > 0 ? hint : Math.max(1, quotas.operationTimeout().toMillis());
    }

    /**
     * Sends CloseSecureChannel, closes the socket and fails pending requests with BadSecureChannelClosed
     * (Part 6, 7.1.4). Idempotent.
     *
     * @return completes once the socket is closed
     */
    public CompletableFuture<Void> close() {
        return handler.close();
    }

    public String endpointUrl() {
        return endpointUrl;
    }

    /** The security policy, mode and certificates the channel was opened with. */
    public ClientChannelSecurity security() {
        return security;
    }

    public TransportQuotas quotas() {
        return quotas;
    }

    /**
     * Completes (on the executor) once the socket is closed, whoever closed it: {@link #close()}, the
     * server, or a failure of the connection.
     */
    public CompletableFuture<Void> closeFuture() {
        return handler.closeFuture();
    }

    /** Whether the secure channel is open for requests. */
    public boolean isOpen() {
        return handler.isOpen();
    }

    /** The SecureChannelId the server assigned. */
    public long secureChannelId() {
        return handler.secureChannelId();
    }

    /** The TokenId requests are sent under now. */
    public long tokenId() {
        return handler.tokenId();
    }

    /** The underlying Netty channel (for diagnostics: local and remote address). */
    public Channel nettyChannel() {
        return channel;
    }

    private static <T> void failOn(Executor executor, CompletableFuture<T> future, Throwable cause) {
        try {
            executor.execute(() -> future.completeExceptionally(cause));
        } catch (RejectedExecutionException e) {
            future.completeExceptionally(cause);
        }
    }

    @Override
    public String toString() {
        return "UaTcpClientChannel[" + endpointUrl + ", SecureChannelId " + secureChannelId() + "]";
    }
}
