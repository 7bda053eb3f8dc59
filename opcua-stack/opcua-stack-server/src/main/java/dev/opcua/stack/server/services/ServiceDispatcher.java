package dev.opcua.stack.server.services;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.UaCodec;
import dev.opcua.stack.core.encoding.binary.UaDecoder;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.transport.uasc.ServerRequestListener;
import dev.opcua.stack.core.transport.uasc.ServerSecureChannel;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.util.NamedThreadFactory;
import io.netty.buffer.ByteBuf;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the requests of all secure channels on a pool of worker threads ({@code opcua-worker-N}):
 * decodes each request on its worker with that thread's decoder, finds the handler registered for
 * its Java type and sends the response (Part 4, 5.3).
 *
 * <ul>
 *   <li>The pool has {@code minThreads} threads and grows towards {@code maxThreads} when its bounded
 *       queue of {@code maxQueued} requests is full; beyond that a request is answered at once with a
 *       ServiceFault BadServerTooBusy (BadServerHalted once closing), without being decoded. This
 *       is the placeholder of the fair per-session queue the design describes.</li>
 *   <li>A request that cannot be decoded: ServiceFault with the decoder's status, BadDecodingError or
 *       BadEncodingLimitsExceeded (Part 4, 5.3). An encoding id without a codec, or a type without a
 *       handler: BadServiceUnsupported.</li>
 *   <li>A failing handler: ServiceFault with its UaException's status, else BadInternalError.</li>
 *   <li>ServiceFaults echo the requestHandle, read from the raw bytes so that it survives a decoding
 *       error (0 when unreadable).</li>
 * </ul>
 *
 * <p>Owns its worker pool: {@link #close()} stops it.
 */
public final class ServiceDispatcher implements ServerRequestListener, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ServiceDispatcher.class);

    private static final long SHUTDOWN_TIMEOUT_MILLIS = 5_000;

    private final Map<Class<?>, ServiceHandler<UaStructure>> handlers;
    private final CodecRegistry registry;
    private final ThreadPoolExecutor workers;
    private final ThreadLocal<UaDecoder> decoders;
    private final LongAdder rejected = new LongAdder();

    private ServiceDispatcher(Builder builder) {
        this.handlers = Map.copyOf(builder.handlers);
        this.registry = builder.registry;
        EncodingLimits limits = builder.encodingLimits;
        this.decoders = ThreadLocal.withInitial(() -> new UaDecoder(registry, limits));
        this.workers = new ThreadPoolExecutor(builder.minThreads, builder.maxThreads, 60, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(builder.maxQueued), new NamedThreadFactory("opcua-worker-"),
                new ThreadPoolExecutor.AbortPolicy());
    }

    public static Builder builder() {
        return new Builder();
    }

    @Override
    public void onRequest(ServerSecureChannel channel, long requestId, ByteBuf message) {
        try {
            workers.execute(() -> run(channel, requestId, message));
        } catch (RejectedExecutionException e) {
            rejected.increment();
            try {
                int status = workers.isShutdown() ? StatusCodes.BadServerHalted : StatusCodes.BadServerTooBusy;
                channel.sendServiceFault(requestId, RequestHeaderPeek.requestHandle(message), status);
            } finally {
                message.release();
            }
        }
    }

    private void run(ServerSecureChannel channel, long requestId, ByteBuf message) {
        long requestHandle = RequestHeaderPeek.requestHandle(message);
        UaStructure request;
        try {
            request = decode(message);
        } catch (UaException e) {
            log.debug("{}: request {} not decoded: {}", channel, requestId, e.getMessage());
            channel.sendServiceFault(requestId, requestHandle, e.statusCode().value());
            return;
        } catch (RuntimeException e) {
            log.warn("{}: request {} not decoded", channel, requestId, e);
            channel.sendServiceFault(requestId, requestHandle, StatusCodes.BadDecodingError);
            return;
        } finally {
            message.release();
        }
        ServiceHandler<UaStructure> handler = request == null ? null : handlers.get(request.getClass());
        if (handler == null) {
            channel.sendServiceFault(requestId, requestHandle, StatusCodes.BadServiceUnsupported);
            return;
        }
        CompletableFuture<? extends UaStructure> response;
        try {
            response = handler.handle(channel, request);
        } catch (RuntimeException e) {
            fail(channel, requestId, requestHandle, request, e);
            return;
        }
        if (response == null) {
            fail(channel, requestId, requestHandle, request, new NullPointerException("handler returned no future"));
            return;
        }
        response.whenComplete((result, failure) -> {
            if (failure != null) {
                fail(channel, requestId, requestHandle, request, failure);
            } else if (result == null) {
                fail(channel, requestId, requestHandle, request, new NullPointerException("handler returned no response"));
            } else {
                channel.sendResponse(requestId, result);
            }
        });
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

    private static void fail(ServerSecureChannel channel, long requestId, long requestHandle, UaStructure request,
            Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        int status;
        if (cause instanceof UaException e) {
            status = e.statusCode().value();
            log.debug("{}: {} failed: {}", channel, request.getClass().getSimpleName(), e.getMessage());
        } else {
            status = StatusCodes.BadInternalError;
            log.warn("{}: {} failed", channel, request.getClass().getSimpleName(), cause);
        }
        channel.sendServiceFault(requestId, requestHandle, status);
    }

    /** Requests refused because the queue was full (or the pool closing). */
    public long rejectedRequests() {
        return rejected.sum();
    }

    /** Requests waiting for a worker. */
    public int queuedRequests() {
        return workers.getQueue().size();
    }

    /** Workers running a request now. */
    public int activeWorkers() {
        return workers.getActiveCount();
    }

    /** Stops taking requests, lets running ones finish for a few seconds, then interrupts the rest. */
    @Override
    public void close() {
        workers.shutdown();
        try {
            if (!workers.awaitTermination(SHUTDOWN_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)) {
                workers.shutdownNow();
            }
        } catch (InterruptedException e) {
            workers.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    /** Configuration of a {@link ServiceDispatcher}: handlers, pool sizes, decoding limits. */
    public static final class Builder {

        private final Map<Class<?>, ServiceHandler<UaStructure>> handlers = new HashMap<>();
        private CodecRegistry registry = CodecRegistry.standard();
        private EncodingLimits encodingLimits = EncodingLimits.DEFAULT;
        private int minThreads = 10;
        private int maxThreads = 100;
        private int maxQueued = 200;

        private Builder() {
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
            return register(type, (channel, request) -> CompletableFuture.completedFuture(handler.handle(channel, request)));
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

        /**
         * @throws IllegalArgumentException unless 0 <= minThreads <= maxThreads, maxThreads >= 1 and
         *         maxQueued >= 1
         */
        public ServiceDispatcher build() {
            if (minThreads < 0 || maxThreads < 1 || minThreads > maxThreads) {
                throw new IllegalArgumentException("need 0 <= minThreads <= maxThreads and maxThreads >= 1, was "
                        + minThreads + " and " + maxThreads);
            }
            if (maxQueued < 1) {
                throw new IllegalArgumentException("maxQueued must be at least 1, was " + maxQueued);
            }
            return new ServiceDispatcher(this);
        }
    }
}
