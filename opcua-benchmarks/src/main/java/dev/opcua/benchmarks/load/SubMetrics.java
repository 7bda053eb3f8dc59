package dev.opcua.benchmarks.load;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.types.builtin.StatusCode;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters the {@code sub} scenario's sessions and writer share: data change notifications,
 * keep-alive messages (Part 4, 5.13.1.1: a NotificationMessage without notifications) and errors by
 * service and status, each of the window being measured. Notifications are counted from the start
 * and the window's are the difference at its edges ({@link #openWindow}, {@link #closeWindow}): a
 * listener that tested the phase would take a branch for the first time when the window opens, and
 * the JIT would then deoptimize and recompile the client's dispatch code (into which the listener is
 * inlined) inside the window, CPU that is neither side's steady state.
 */
final class SubMetrics {

    final RequestChain.Phase phase = new RequestChain.Phase();
    /** Notifications received since the start, warm-up included. */
    private final LongAdder received = new LongAdder();
    private volatile long receivedAtOpen;
    private volatile long receivedAtClose = -1;
    final LongAdder keepAlives = new LongAdder();
    final ConcurrentHashMap<String, LongAdder> errors = new ConcurrentHashMap<>();

    boolean measuring() {
        return phase.value == RequestChain.Phase.MEASURE;
    }

    boolean stopping() {
        return phase.value == RequestChain.Phase.STOP;
    }

    void notifications(int count) {
        received.add(count);
    }

    /** Opens the window: notifications count from here. */
    void openWindow() {
        receivedAtOpen = received.sum();
        phase.value = RequestChain.Phase.MEASURE;
    }

    /** Closes the window, entering {@code nextPhase} (drain or stop). */
    void closeWindow(int nextPhase) {
        phase.value = nextPhase;
        receivedAtClose = received.sum();
    }

    /** Notifications of the window: so far while it is open, all of it once closed. */
    long notifications() {
        long end = receivedAtClose;
        return Math.max(0, (end < 0 ? received.sum() : end) - receivedAtOpen);
    }

    /** Notifications received since the start, warm-up and first values included. */
    long notificationsSinceStart() {
        return received.sum();
    }

    void keepAlive() {
        if (measuring()) {
            keepAlives.increment();
        }
    }

    /** Counts an error of {@code service}: a bad status, or what a failed request failed with. */
    void error(String service, StatusCode status) {
        error(service + ":" + (status.name() == null ? status.toString() : status.name()));
    }

    void error(String service, Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof UaException ua) {
            error(service, ua.statusCode());
        } else {
            error(service + ":" + cause.getClass().getSimpleName());
        }
    }

    /** Counts an error under {@code key} as it is. */
    void error(String key) {
        if (measuring()) {
            errors.computeIfAbsent(key, k -> new LongAdder()).increment();
        }
    }

    long errorCount() {
        return errors.values().stream().mapToLong(LongAdder::sum).sum();
    }
}
