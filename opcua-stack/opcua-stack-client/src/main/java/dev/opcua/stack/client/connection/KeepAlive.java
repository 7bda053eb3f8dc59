package dev.opcua.stack.client.connection;

import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.core.Failures;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadResponse;
import dev.opcua.stack.core.types.structured.ReadValueId;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;

/**
 * The keep-alive of a connected session (Part 4, 6.7): every {@link OpcUaClientConfig#keepAliveInterval()}
 * it reads ServerStatus/State (Part 5, 6.3.1) over the session being watched. More failures in a row than
 * {@link OpcUaClientConfig#keepAliveFailuresAllowed()}, or one that says the server no longer knows the
 * session, report the connection lost; a success forgets the failures before it.
 *
 * <p>A Publish answered over the watched session is as good a sign of life as that Read: a Good response
 * says the channel carries answers and the server knows the session (Part 4, 5.13.1.1: the server answers
 * a Publish at least once per keep-alive period of each subscription). So while one arrived within the
 * interval (the {@linkplain #evidence(LongSupplier) evidence}), no Read is sent and the next check is due
 * one interval after that answer: a silent server is read at most one interval after its last answer, as
 * before, and a client with subscriptions no longer sends a Read, wakes an I/O thread and decodes its answer
 * every interval for nothing (two Reads a second for ten sessions at the default 5 s).
 *
 * <p>Thread-safe: watching starts and stops under the connection's lock, and an answer that arrives for
 * a session no longer watched is ignored.
 */
final class KeepAlive {

    private static final ReadValueId[] SERVER_STATE = {new ReadValueId(NodeId.ns0(NodeIds.Server_ServerStatus_State),
            AttributeIds.Value, null, QualifiedName.NULL)};

    /** What {@link #evidence}'s supplier returns when no Publish was answered. */
    static final long NO_EVIDENCE = Long.MIN_VALUE;

    private final OpcUaClientConfig config;
    private final RequestGate gate;
    private final Timer timer;
    /** System.nanoTime of the last Publish answered, {@link #NO_EVIDENCE} when none: see {@link #evidence}. */
    private volatile LongSupplier lastAnswered = () -> NO_EVIDENCE;

    // guarded by `this`
    private ActiveSession watched;
    /** When watching {@link #watched} started: earlier answers were not over it. */
    private long startedNanos;
    private BiConsumer<ActiveSession, Throwable> onLost;
    private Timeout timeout;
    private int failures;

    KeepAlive(OpcUaClientConfig config, RequestGate gate, Timer timer) {
        this.config = config;
        this.gate = gate;
        this.timer = timer;
    }

    /**
     * Where the keep-alive learns of answers that make its Read unnecessary: the System.nanoTime of the last
     * Good Publish response to a request sent over the session in use, or {@link #NO_EVIDENCE}. Only answers
     * later than the start of the watch count.
     */
    void evidence(LongSupplier lastPublishAnswered) {
        this.lastAnswered = lastPublishAnswered;
    }

    /** Watches {@code a} from now on, the failures counted from 0; {@code onLost} is told when it fails. */
    synchronized void start(ActiveSession a, BiConsumer<ActiveSession, Throwable> onLost) {
        if (timeout != null) {
            timeout.cancel();
        }
        this.watched = a;
        this.onLost = onLost;
        this.failures = 0;
        this.startedNanos = System.nanoTime();
        schedule(a, config.keepAliveInterval().toNanos());
    }

    /** Stops watching; an answer still under way is ignored. */
    synchronized void stop() {
        watched = null;
        if (timeout != null) {
            timeout.cancel();
        }
        timeout = null;
    }

    private void schedule(ActiveSession a, long delayNanos) {
        try {
            timeout = timer.newTimeout(t -> check(a), delayNanos, TimeUnit.NANOSECONDS);
        } catch (IllegalStateException e) {
            timeout = null; // resources closed
        }
    }

    /**
     * Due: unless a Publish was answered over the session within the interval, reads ServerStatus/State;
     * too many failures in a row, or a lost session, lose the connection.
     */
    private void check(ActiveSession a) {
        synchronized (this) {
            if (watched != a) {
                return;
            }
            long interval = config.keepAliveInterval().toNanos();
            long answered = lastAnswered.getAsLong();
            long since = System.nanoTime() - answered;
            if (answered != NO_EVIDENCE && answered - startedNanos >= 0 && since < interval) {
                failures = 0; // an answer is a success: it forgets the failures before it
                schedule(a, interval - since);
                return;
            }
        }
        long readTimeout = Math.min(config.requestTimeout().toMillis(),
                Math.max(1000, config.keepAliveInterval().toMillis()));
        gate.sendOn(a, h -> new ReadRequest(h, 0, TimestampsToReturn.Neither, SERVER_STATE), ReadResponse.class,
                readTimeout).whenComplete((response, failure) -> answered(a, failure == null ? null
                        : Failures.unwrap(failure)));
    }

    private void answered(ActiveSession a, Throwable cause) {
        BiConsumer<ActiveSession, Throwable> lost = null;
        synchronized (this) {
            if (watched != a) {
                return;
            }
            if (cause == null) {
                failures = 0;
            } else if (isSessionLost(cause) || ++failures > config.keepAliveFailuresAllowed()) {
                lost = onLost;
            }
            if (lost == null) {
                schedule(a, config.keepAliveInterval().toNanos());
            }
        }
        if (lost != null) {
            lost.accept(a, new UaException(Failures.statusCode(cause), "the keep-alive Read failed: "
                    + cause.getMessage()));
        }
    }

    /** Whether a failure says the server no longer knows the session (Part 4, 7.38 Table 182). */
    static boolean isSessionLost(Throwable cause) {
        StatusCode status = Failures.statusCode(cause);
        return status.isSameCode(StatusCodes.BadSessionIdInvalid) || status.isSameCode(StatusCodes.BadSessionClosed)
                || status.isSameCode(StatusCodes.BadSessionNotActivated);
    }
}
