package dev.opcua.stack.server.services;

import dev.opcua.stack.core.Failures;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.UaCodec;
import dev.opcua.stack.core.encoding.binary.UaDecoder;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.server.transport.uasc.ServerRequestListener;
import dev.opcua.stack.server.transport.uasc.ServerSecureChannel;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.IdType;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.requests.PublishParking;
import dev.opcua.stack.server.requests.QueuedRequest;
import dev.opcua.stack.server.requests.RejectReason;
import dev.opcua.stack.server.requests.RequestPoolSettings;
import dev.opcua.stack.server.requests.RequestRunner;
import dev.opcua.stack.server.requests.RequestStatistics;
import dev.opcua.stack.server.requests.RequestWorkerPool;
import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.FastThreadLocal;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Admits the requests of all secure channels into the fair request queue and runs them on its
 * workers ({@code opcua-worker-N}): decodes each request on its worker with that thread's decoder,
 * finds the handler registered for its Java type and sends the response (Part 4, 5.3).
 *
 * <ul>
 *   <li>Admission, on the event loop, from the raw bytes ({@link RequestHeaderPeek}, nothing decoded
 *       or allocated but the queue entry): the owner is the RequestHeader's authenticationToken when it
 *       is not null, else the secure channel; CreateSession, ActivateSession, CloseSession, Cancel,
 *       GetEndpoints and FindServers ask for the priority lane. A request that does not fit is
 *       answered at once with a ServiceFault BadServerTooBusy (BadServerHalted once closing), see
 *       {@link RequestWorkerPool}.</li>
 *   <li>On a secure channel with SecurityPolicy None while no endpoint offers None, only the
 *       Discovery services run (Part 4, 5.4.1); anything else is answered at once with a ServiceFault
 *       BadSecurityPolicyRejected.</li>
 *   <li>Publish never enters the queue: it goes to the {@link PublishParking} when one is set, else
 *       it is answered at once with BadServiceUnsupported (BadServerHalted once closing).</li>
 *   <li>Inline when idle ({@link RequestPoolSettings#inlineWhenIdle()}): a request of a type declared
 *       with {@link Builder#runOnEventLoopWhenIdle}, whose condition holds, of at most
 *       {@value #INLINE_MAX_REQUEST_BYTES} bytes, runs at once on the event loop that received it when
 *       no request waits in the queue: the same decoding, handler, statistics and observation as on a
 *       worker, without the two thread hand-offs (event loop to worker, worker back to the event loop's
 *       write) that cost more than a small Read or Write itself. A request that would wait anyway,
 *       is larger, or whose handler may block goes to the queue as always.</li>
 *   <li>Flood bound ({@link RequestPoolSettings#maxRequestsPerRead()}, with inline when idle): when two
 *       socket reads of one connection in a row bring more such small requests than the bound, the
 *       requests of the second read beyond the bound are answered at once with a ServiceFault
 *       BadServerTooBusy and counted as refused (TOO_BUSY): a client that keeps sending more than the
 *       server reads is refused instead of holding the event loop from the other connections on it.</li>
 *   <li>A request that waited longer than {@code maxRequestAge}, or than its own timeoutHint: ServiceFault
 *       BadTimeout, without being decoded.</li>
 *   <li>A request that cannot be decoded: ServiceFault with the decoder's status, BadDecodingError or
 *       BadEncodingLimitsExceeded (Part 4, 5.3). An encoding id without a codec, or a type without a
 *       handler: BadServiceUnsupported.</li>
 *   <li>A failing handler: ServiceFault with its UaException's status, else BadInternalError.</li>
 *   <li>ServiceFaults echo the requestHandle, read from the raw bytes so that it survives a decoding
 *       error (0 when unreadable).</li>
 * </ul>
 *
 * <p>Owns its worker pool: {@link #close()} stops it gracefully.
 */
public final class ServiceDispatcher implements ServerRequestListener, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ServiceDispatcher.class);

    /**
     * The largest request (encoded body) that may run on an event loop: its decoding and handling take
     * microseconds, while a large batch would hold up the other channels of that event loop.
     */
    public static final int INLINE_MAX_REQUEST_BYTES = 16 * 1024;

    private static final FastThreadLocal<RequestHeaderPeek> PEEKS = new FastThreadLocal<>() {
        @Override
        protected RequestHeaderPeek initialValue() {
            return new RequestHeaderPeek();
        }
    };

    private final Map<Class<?>, ServiceHandler<UaStructure>> handlers;
    private final CodecRegistry registry;
    private final ThreadLocal<UaDecoder> decoders;
    private final PublishParking publishParking;
    private final RequestWorkerPool pool;
    private final int maxRequestsPerRead;
    private final RequestStatistics statistics;
    private final ServiceObserver observer;
    private final boolean discoveryOnlyOverNone;
    /** Part 4's name of each handled request type, computed once: the observer gets it per call. */
    private final Map<Class<?>, String> serviceNames;
    /** By namespace-0 encoding id: when a request may run on its event loop; null where never. */
    private final BooleanSupplier[] inlineConditions;

    private ServiceDispatcher(Builder builder) {
        this.handlers = Map.copyOf(builder.handlers);
        this.observer = builder.observer;
        this.discoveryOnlyOverNone = builder.discoveryOnlyOverNone;
        Map<Class<?>, String> names = new HashMap<>();
        for (Class<?> type : handlers.keySet()) {
            names.put(type, serviceName(type));
        }
        this.serviceNames = Map.copyOf(names);
        this.registry = builder.registry;
        EncodingLimits limits = builder.encodingLimits;
        this.decoders = ThreadLocal.withInitial(() -> new UaDecoder(registry, limits).cacheNodeIds());
        this.publishParking = builder.publishParking;
        this.inlineConditions = inlineConditions(builder.inline, registry);
        this.pool = new RequestWorkerPool(builder.settings(), new Runner());
        this.maxRequestsPerRead = builder.inlineWhenIdle ? builder.maxRequestsPerRead : 0;
        this.statistics = pool.statistics();
    }

    /** The conditions of the types declared inline, indexed by their namespace-0 binary encoding id. */
    private static BooleanSupplier[] inlineConditions(Map<Class<?>, BooleanSupplier> declared, CodecRegistry registry) {
        BooleanSupplier[] conditions = new BooleanSupplier[0];
        for (Map.Entry<Class<?>, BooleanSupplier> entry : declared.entrySet()) {
            UaCodec<?> codec = registry.codecForType(entry.getKey());
            NodeId encodingId = codec == null ? null : codec.encodingId();
            if (encodingId == null || encodingId.namespaceIndex() != 0 || encodingId.idType() != IdType.Numeric
                    || encodingId.numericId() >= 1 << 16) {
                throw new IllegalArgumentException(entry.getKey().getSimpleName()
                        + " has no namespace-0 numeric encoding id in the codec registry: it cannot run inline");
            }
            int id = (int) encodingId.numericId();
            if (id >= conditions.length) {
                conditions = Arrays.copyOf(conditions, id + 1);
            }
            conditions[id] = entry.getValue();
        }
        return conditions;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** {@code ReadRequest} -> {@code Read}: the service's name in Part 4. */
    static String serviceName(Class<?> requestType) {
        String name = requestType.getSimpleName();
        return name.endsWith("Request") ? name.substring(0, name.length() - "Request".length()) : name;
    }

    /** Whether a request with this encoding id (namespace 0) belongs to the Discovery service set (Part 4, 5.4). */
    static boolean isDiscovery(int typeId) {
        return typeId == NodeIds.GetEndpointsRequest_Encoding_DefaultBinary
                || typeId == NodeIds.FindServersRequest_Encoding_DefaultBinary
                || typeId == NodeIds.FindServersOnNetworkRequest_Encoding_DefaultBinary;
    }

    /** Whether a request with this encoding id (namespace 0) skips ahead of ordinary requests. */
    static boolean isPriority(int typeId) {
        return switch (typeId) {
            case NodeIds.CreateSessionRequest_Encoding_DefaultBinary,
                    NodeIds.ActivateSessionRequest_Encoding_DefaultBinary,
                    NodeIds.CloseSessionRequest_Encoding_DefaultBinary,
                    NodeIds.CancelRequest_Encoding_DefaultBinary,
                    NodeIds.GetEndpointsRequest_Encoding_DefaultBinary,
                    NodeIds.FindServersRequest_Encoding_DefaultBinary -> true;
            default -> false;
        };
    }

    @Override
    public void onRequest(ServerSecureChannel channel, long requestId, ByteBuf message) {
        RequestHeaderPeek peek;
        try {
            peek = PEEKS.get();
            peek.read(message);
        } catch (RuntimeException e) { // not expected: the peek checks every bound
            message.release();
            throw e;
        }
        if (discoveryOnlyOverNone && !isDiscovery(peek.typeId())
                && channel.security().policy() == SecurityPolicy.None) {
            // Part 4, 5.4.1: None is accepted for discovery only when no endpoint offers it
            faultAndRelease(channel, requestId, peek.requestHandle(), StatusCodes.BadSecurityPolicyRejected, message);
            return;
        }
        if (peek.typeId() == NodeIds.PublishRequest_Encoding_DefaultBinary) {
            if (publishParking != null && !pool.isClosed()) {
                publishParking.park(channel, requestId, message);
            } else {
                faultAndRelease(channel, requestId, peek.requestHandle(),
                        pool.isClosed() ? StatusCodes.BadServerHalted : StatusCodes.BadServiceUnsupported, message);
            }
            return;
        }
        if (mayRunInline(peek.typeId(), message)) {
            if (maxRequestsPerRead > 0 && ConnectionLoad.of(channel, maxRequestsPerRead).countAndRefuse()) {
                // a connection that sends more than the server reads: refused at once, cheaper than served
                faultAndRelease(channel, requestId, peek.requestHandle(), RejectReason.TOO_BUSY.status(), message);
                statistics.recordRejected(RejectReason.TOO_BUSY);
                return;
            }
            if (pool.admitInline()) {
                // no queue entry: the request runs before this method returns
                run(channel, requestId, message, peek.requestHandle());
                return;
            }
        }
        long owner = peek.tokenKey() != 0 ? peek.tokenKey() : channel.secureChannelId();
        pool.submit(new Request(owner, isPriority(peek.typeId()), System.nanoTime(), peek.timeoutHint(), channel,
                requestId, message, peek.requestHandle()));
    }

    /** Answers a request that is not run with a ServiceFault of {@code status}, and releases its message. */
    private static void faultAndRelease(ServerSecureChannel channel, long requestId, long requestHandle, int status,
            ByteBuf message) {
        try {
            channel.sendServiceFault(requestId, requestHandle, status);
        } finally {
            message.release();
        }
    }

    @Override
    public void onReadComplete(ServerSecureChannel channel) {
        if (channel.listenerState() instanceof ConnectionLoad load) {
            load.readComplete();
        }
    }

    /** Whether the request's type was declared inline, its condition holds now and it is small enough. */
    private boolean mayRunInline(int typeId, ByteBuf message) {
        BooleanSupplier condition = typeId >= 0 && typeId < inlineConditions.length ? inlineConditions[typeId] : null;
        return condition != null && message.readableBytes() <= INLINE_MAX_REQUEST_BYTES && condition.getAsBoolean();
    }

    /** On a worker, or inline on the event loop: decode, find the handler, run it, answer. */
    private void run(ServerSecureChannel channel, long requestId, ByteBuf message, long requestHandle) {
        if (!channel.isOpen()) { // nobody to answer: the client is gone
            message.release();
            return;
        }
        long start = System.nanoTime();
        statistics.requestStarted();
        UaStructure request;
        try {
            request = decode(message);
        } catch (UaException e) {
            log.debug("{}: request {} not decoded: {}", channel, requestId, e.getMessage());
            fault(channel, requestId, requestHandle, null, start, e.statusCode().value());
            return;
        } catch (RuntimeException e) {
            log.warn("{}: request {} not decoded", channel, requestId, e);
            fault(channel, requestId, requestHandle, null, start, StatusCodes.BadDecodingError);
            return;
        } finally {
            message.release();
        }
        Class<?> type = request == null ? null : request.getClass();
        ServiceHandler<UaStructure> handler = request == null ? null : handlers.get(type);
        if (handler == null) {
            fault(channel, requestId, requestHandle, type, start, StatusCodes.BadServiceUnsupported);
            return;
        }
        ServiceObserver.Call call = observer == ServiceObserver.NONE ? null
                : observer.started(serviceNames.get(type), channel.secureChannelId());
        CompletableFuture<? extends UaStructure> response;
        try (ServiceObserver.Scope ignored = call == null ? ServiceObserver.Scope.NOOP : call.openScope()) {
            response = handler.handle(channel, request);
        } catch (RuntimeException e) {
            fail(channel, requestId, requestHandle, request, start, e, call);
            return;
        }
        if (response == null) {
            fail(channel, requestId, requestHandle, request, start,
                    new NullPointerException("handler returned no future"), call);
            return;
        }
        if (response.isDone()) { // answered at once (Read, Write of in-memory nodes): no callback to allocate
            UaStructure result = null;
            Throwable failure = null;
            try {
                result = response.join();
            } catch (CompletionException | CancellationException e) {
                failure = e;
            }
            try {
                answer(channel, requestId, requestHandle, request, type, start, call, result, failure);
            } finally {
                if (response instanceof AnsweredThen<?> answered) {
                    answered.afterSent();
                }
            }
        } else {
            response.whenComplete((result, failure) ->
                    answer(channel, requestId, requestHandle, request, type, start, call, result, failure));
        }
    }

    /** Sends the handler's response, or a ServiceFault when it failed or gave none. */
    private void answer(ServerSecureChannel channel, long requestId, long requestHandle, UaStructure request,
            Class<?> type, long start, ServiceObserver.Call call, UaStructure result, Throwable failure) {
        if (failure != null) {
            fail(channel, requestId, requestHandle, request, start, failure, call);
        } else if (result == null) {
            fail(channel, requestId, requestHandle, request, start,
                    new NullPointerException("handler returned no response"), call);
        } else {
            try {
                channel.sendResponse(requestId, result);
            } finally {
                statistics.requestFinished(type, System.nanoTime() - start, false);
                if (call != null) {
                    call.finished(StatusCodes.Good, null);
                }
            }
        }
    }

    /** Decodes the request, or returns null when no codec knows its encoding id. */
    private UaStructure decode(ByteBuf message) {
        UaDecoder decoder = decoders.get();
        decoder.setBuffer(message);
        try {
            NodeId encodingId = decoder.readNodeId("TypeId");
            UaCodec<?> codec = registry.codecForEncodingId(encodingId);
            if (codec == null) {
                return null;
            }
            Object decoded = decoder.decode(codec);
            return decoded instanceof UaStructure structure ? structure : null;
        } finally {
            decoder.setBuffer(null);
        }
    }

    private void fail(ServerSecureChannel channel, long requestId, long requestHandle, UaStructure request,
            long start, Throwable failure, ServiceObserver.Call call) {
        Throwable cause = Failures.unwrap(failure);
        int status;
        if (cause instanceof UaException e) {
            status = e.statusCode().value();
            log.debug("{}: {} failed: {}", channel, request.getClass().getSimpleName(), e.getMessage());
        } else {
            status = StatusCodes.BadInternalError;
            log.warn("{}: {} failed", channel, request.getClass().getSimpleName(), cause);
        }
        try {
            fault(channel, requestId, requestHandle, request.getClass(), start, status);
        } finally {
            if (call != null) {
                call.finished(status & 0xFFFF_FFFFL, cause);
            }
        }
    }

    private void fault(ServerSecureChannel channel, long requestId, long requestHandle, Class<?> type, long start,
            int status) {
        try {
            channel.sendServiceFault(requestId, requestHandle, status);
        } finally {
            statistics.requestFinished(type, System.nanoTime() - start, true);
        }
    }

    /** The counters of the request pipeline: queue depth, workers, rejections, per-service latency. */
    public RequestStatistics statistics() {
        return statistics;
    }

    /** Requests answered without being run: queue full, too old, timed out, or the server halted. */
    public long rejectedRequests() {
        return statistics.rejected();
    }

    /** Requests waiting for a worker. */
    public int queuedRequests() {
        return statistics.queued();
    }

    /** Workers running a request now. */
    public int activeWorkers() {
        return statistics.busyWorkers();
    }

    /** Whether workers are virtual threads (asked for, and Java 21+). */
    public boolean usesVirtualThreads() {
        return pool.usesVirtualThreads();
    }

    /**
     * Stops taking requests (BadServerHalted from now on), answers the queued ones with BadServerHalted,
     * and lets running ones finish for {@code shutdownTimeout}, including handlers that answer
     * asynchronously; then interrupts the workers. A handler still unfinished after that is answered
     * whenever it completes, if the channel is still open.
     */
    @Override
    public void close() {
        long deadline = System.nanoTime() + pool.settings().shutdownTimeout().toNanos();
        pool.close();
        // Asynchronous handlers hold no worker; wait for their answers too. Polled: closing is rare.
        while (statistics.activeRequests() > 0 && deadline - System.nanoTime() > 0) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }

    /** A request in the queue: its channel and the encoded message, which it owns until answered. */
    private static final class Request extends QueuedRequest {
        final ServerSecureChannel channel;
        final long requestId;
        final ByteBuf message;
        final long requestHandle;

        Request(long owner, boolean priority, long arrivalNanos, long timeoutHintMillis, ServerSecureChannel channel,
                long requestId, ByteBuf message, long requestHandle) {
            super(owner, priority, arrivalNanos, timeoutHintMillis);
            this.channel = channel;
            this.requestId = requestId;
            this.message = message;
            this.requestHandle = requestHandle;
        }
    }

    /** The pool's callbacks. */
    private final class Runner implements RequestRunner {

        @Override
        public void run(QueuedRequest request) {
            Request queued = (Request) request;
            ServiceDispatcher.this.run(queued.channel, queued.requestId, queued.message, queued.requestHandle);
        }

        @Override
        public void reject(QueuedRequest queued, RejectReason reason) {
            Request request = (Request) queued;
            faultAndRelease(request.channel, request.requestId, request.requestHandle, reason.status(),
                    request.message);
        }
    }

    /** Configuration of a {@link ServiceDispatcher}: handlers, the request pipeline's limits, decoding limits. */
    public static final class Builder {

        private final Map<Class<?>, ServiceHandler<UaStructure>> handlers = new HashMap<>();
        private CodecRegistry registry = CodecRegistry.standard();
        private EncodingLimits encodingLimits = EncodingLimits.DEFAULT;
        private PublishParking publishParking;
        private int minThreads = RequestPoolSettings.DEFAULT.minThreads();
        private int maxThreads = RequestPoolSettings.DEFAULT.maxThreads();
        private int maxQueued = RequestPoolSettings.DEFAULT.maxQueued();
        private int maxPriorityQueued = RequestPoolSettings.DEFAULT.maxPriorityQueued();
        private Duration workerKeepAlive = RequestPoolSettings.DEFAULT.workerKeepAlive();
        private Duration maxRequestAge = RequestPoolSettings.DEFAULT.maxRequestAge();
        private boolean virtualThreads = RequestPoolSettings.DEFAULT.virtualThreads();
        private Duration shutdownTimeout = RequestPoolSettings.DEFAULT.shutdownTimeout();
        private boolean inlineWhenIdle = RequestPoolSettings.DEFAULT.inlineWhenIdle();
        private int maxRunningPerSession = RequestPoolSettings.DEFAULT.maxRunningPerSession();
        private int maxRequestsPerRead = RequestPoolSettings.DEFAULT.maxRequestsPerRead();
        private final Map<Class<?>, BooleanSupplier> inline = new HashMap<>();
        private ServiceObserver observer = ServiceObserver.NONE;
        private boolean discoveryOnlyOverNone;

        private Builder() {
        }

        /** Who watches every service call (metrics, tracing); default {@link ServiceObserver#NONE}. */
        public Builder observer(ServiceObserver value) {
            observer = Objects.requireNonNull(value, "observer");
            return this;
        }

        /**
         * Whether secure channels with SecurityPolicy None may only call GetEndpoints and FindServers (the
         * others get BadSecurityPolicyRejected): set when no endpoint offers None (Part 4, 5.4.1); default false.
         */
        public Builder discoveryOnlyOverNone(boolean value) {
            discoveryOnlyOverNone = value;
            return this;
        }

        /** All limits of the request pipeline at once. */
        public Builder settings(RequestPoolSettings value) {
            minThreads = value.minThreads();
            maxThreads = value.maxThreads();
            maxQueued = value.maxQueued();
            maxPriorityQueued = value.maxPriorityQueued();
            workerKeepAlive = value.workerKeepAlive();
            maxRequestAge = value.maxRequestAge();
            virtualThreads = value.virtualThreads();
            shutdownTimeout = value.shutdownTimeout();
            inlineWhenIdle = value.inlineWhenIdle();
            maxRunningPerSession = value.maxRunningPerSession();
            maxRequestsPerRead = value.maxRequestsPerRead();
            return this;
        }

        /**
         * Declares that requests of {@code type} may run on the event loop that received them, while
         * {@code condition} holds, when no request waits ({@link RequestPoolSettings#inlineWhenIdle()}).
         * Only for handlers that answer at once without waiting: the condition says whether they do now
         * (for Read and Write: whether every node manager is non-blocking). It is asked per request and
         * must be cheap.
         */
        public Builder runOnEventLoopWhenIdle(Class<? extends UaStructure> type, BooleanSupplier condition) {
            inline.put(Objects.requireNonNull(type, "type"), Objects.requireNonNull(condition, "condition"));
            return this;
        }

        /** Whether declared requests may run on their event loop when no request waits; default true. */
        public Builder inlineWhenIdle(boolean value) {
            inlineWhenIdle = value;
            return this;
        }

        /** Registers the handler of requests of type {@code type}; one handler per type. */
        @SuppressWarnings("unchecked")
        public <T extends UaStructure> Builder register(Class<T> type, ServiceHandler<? super T> handler) {
            Objects.requireNonNull(handler, "handler");
            if (handlers.putIfAbsent(type, (ServiceHandler<UaStructure>) handler) != null) {
                throw new IllegalArgumentException("a handler for " + type.getSimpleName() + " is registered already");
            }
            return this;
        }

        /** Registers a handler that answers on the worker thread. */
        public <T extends UaStructure> Builder registerSync(Class<T> type, SyncServiceHandler<? super T> handler) {
            Objects.requireNonNull(handler, "handler");
            return register(type,
                    (channel, request) -> CompletableFuture.completedFuture(handler.handle(channel, request)));
        }

        /** Codecs to decode requests with; default {@link CodecRegistry#standard()}. */
        public Builder codecRegistry(CodecRegistry value) {
            registry = Objects.requireNonNull(value, "codecRegistry");
            return this;
        }

        /** Decoding limits, normally {@code TransportQuotas.encodingLimits()}. */
        public Builder encodingLimits(EncodingLimits value) {
            encodingLimits = Objects.requireNonNull(value, "encodingLimits");
            return this;
        }

        /** Where Publish requests go instead of the queue; default none (Publish: BadServiceUnsupported). */
        public Builder publishParking(PublishParking value) {
            publishParking = value;
            return this;
        }

        /** Workers kept running (MinRequestThreadCount); default 10. */
        public Builder minThreads(int value) {
            minThreads = value;
            return this;
        }

        /** Most workers (MaxRequestThreadCount); default 100. */
        public Builder maxThreads(int value) {
            maxThreads = value;
            return this;
        }

        /** Requests that may wait for a worker (MaxQueuedRequestCount); default 200. */
        public Builder maxQueued(int value) {
            maxQueued = value;
            return this;
        }

        /** Session establishment and control requests that may wait in the priority lane, in addition; default 20. */
        public Builder maxPriorityQueued(int value) {
            maxPriorityQueued = value;
            return this;
        }

        /** How long a worker above {@code minThreads} stays idle before it ends; default 60 s. */
        public Builder workerKeepAlive(Duration value) {
            workerKeepAlive = Objects.requireNonNull(value, "workerKeepAlive");
            return this;
        }

        /** A request that waited longer for a worker is answered with BadTimeout; default 10 min. */
        public Builder maxRequestAge(Duration value) {
            maxRequestAge = Objects.requireNonNull(value, "maxRequestAge");
            return this;
        }

        /** Whether requests run on virtual threads (Java 21+; else a warning and platform threads); default false. */
        public Builder virtualThreads(boolean value) {
            virtualThreads = value;
            return this;
        }

        /** How long {@link ServiceDispatcher#close()} lets running requests finish; default 5 s. */
        public Builder shutdownTimeout(Duration value) {
            shutdownTimeout = Objects.requireNonNull(value, "shutdownTimeout");
            return this;
        }

        private RequestPoolSettings settings() {
            return new RequestPoolSettings(minThreads, maxThreads, maxQueued, maxPriorityQueued, workerKeepAlive,
                    maxRequestAge, virtualThreads, shutdownTimeout, inlineWhenIdle, maxRunningPerSession,
                    maxRequestsPerRead);
        }

        /** @throws IllegalArgumentException when the limits are inconsistent, see {@link RequestPoolSettings} */
        public ServiceDispatcher build() {
            settings(); // validates before the pool exists
            return new ServiceDispatcher(this);
        }
    }
}
