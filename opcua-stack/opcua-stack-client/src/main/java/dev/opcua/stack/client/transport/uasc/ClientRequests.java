package dev.opcua.stack.client.transport.uasc;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.channel.MessageType;
import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.binary.UaDecoder;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.transport.uasc.SecureChannelWriter;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.StatusCode;
import io.netty.buffer.ByteBuf;
import io.netty.util.Timer;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The request correlation of one client channel (Part 6, 6.7.2.4): hands out RequestIds, registers
 * each request under its id before its chunks are written, watches the deadlines, and matches each
 * MSG response to its request by RequestId, decoding it and completing the request's future.
 *
 * <p>{@link #send} runs on the caller's thread (the request is encoded there), the response methods on
 * the channel's event loop. Every request registered is completed exactly once: by its response, an
 * abort chunk ({@link #fail(long, UaException)}), its deadline, cancellation, or {@link #failAll} when
 * the channel ends.
 */
final class ClientRequests {

    private static final Logger log = LoggerFactory.getLogger(ClientRequests.class);

    private final Executor executor;
    private final Executor failures;
    private final PendingRequests pending = new PendingRequests();
    private final RequestDeadlines deadlines;
    private final AtomicInteger requestIds = new AtomicInteger();
    /** Decodes responses; used on the event loop only. */
    private final UaDecoder decoder;
    private volatile boolean shut;

    /**
     * @param timer where the deadline task runs
     * @param executor where responses complete their futures
     * @param failures where failed requests complete theirs: never the thread that failed them, which may be the
     *        timer's or an event loop's
     * @param limits the decoding limits of responses
     */
    ClientRequests(Timer timer, Executor executor, Executor failures, EncodingLimits limits) {
        this.executor = executor;
        this.failures = failures;
        this.decoder = new UaDecoder(CodecRegistry.standard(), limits);
        this.deadlines = new RequestDeadlines(timer, this::expire);
    }

    /** Where responses complete their futures. */
    Executor executor() {
        return executor;
    }

    /** Where failed requests complete their futures. */
    Executor failureExecutor() {
        return failures;
    }

    /**
     * The next RequestId: a UInt32 counter that skips 0 and wraps. The channel's own OPN and CLO
     * requests take theirs from the same counter, so that no two messages of the channel share one.
     */
    long nextRequestId() {
        int id = requestIds.incrementAndGet();
        if (id == 0) {
            id = requestIds.incrementAndGet();
        }
        return Integer.toUnsignedLong(id);
    }

    /**
     * Registers {@code p} under a new RequestId, arms its deadline and writes the request on the
     * calling thread. A request that cannot be sent is failed at once: BadSecureChannelClosed once the
     * channel is shut, BadShutdown when the timer is stopped, the chunk encoder's status (e.g.
     * BadRequestTooLarge) or BadEncodingError when it cannot be encoded.
     */
    ClientPendingRequest send(SecureChannelWriter writer, UaStructure request, long timeoutMillis,
            ClientPendingRequest p) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        p.deadline(deadline);
        long id;
        do {
            id = nextRequestId();
            p.requestId(id);
        } while (!pending.putIfAbsent(id, p));
        // Registered before this check and failAll sets 'shut' before draining the map:
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

    /**
     * Removes a pending request.
     *
     * @return whether it was still pending (the caller then completes it)
     */
    boolean forget(ClientPendingRequest p) {
        return pending.remove(p.requestId(), p);
    }

    /**
     * The whole response to request {@code requestId}, still encoded: decoded and handed to its
     * request. A response whose request is no longer pending (it timed out or was cancelled) is
     * dropped, not taken for a security failure. The caller releases {@code message}.
     */
    void onResponse(long requestId, ByteBuf message) {
        ClientPendingRequest p = pending.remove(requestId);
        if (p == null) {
            log.debug("dropped a response for request {}, which is not pending (timed out or cancelled)",
                    requestId);
            return;
        }
        UaStructure response;
        try {
            response = decoder.setBuffer(message).readMessage();
        } catch (UaException e) {
            p.fail(e);
            return;
        } finally {
            decoder.setBuffer(null);
        }
        p.respond(response);
    }

    /** Fails request {@code requestId} when it is pending: an abort chunk, or a response over our limits. */
    void fail(long requestId, UaException e) {
        ClientPendingRequest p = pending.remove(requestId);
        if (p != null) {
            p.fail(e);
        }
    }

    /** The channel ended: no request is accepted from now on, and every pending one fails with {@code cause}. */
    void failAll(UaException cause) {
        shut = true;
        deadlines.stop();
        for (ClientPendingRequest p : pending.drain()) {
            p.fail(cause);
        }
    }

    /** The sweep of {@link RequestDeadlines} fired for {@code due}: fails what is overdue, returns the next deadline. */
    private long expire(long due) {
        long now = Math.max(System.nanoTime(), due);
        for (ClientPendingRequest p : pending.removeExpired(now)) {
            p.timedOut();
        }
        return pending.earliestDeadline();
    }
}
