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
 * service and status, each counted only while the window is being measured.
 */
final class SubMetrics {

    final RequestChain.Phase phase = new RequestChain.Phase();
    final LongAdder notifications = new LongAdder();
    final LongAdder keepAlives = new LongAdder();
    final ConcurrentHashMap<String, LongAdder> errors = new ConcurrentHashMap<>();

    boolean measuring() {
        return phase.value == RequestChain.Phase.MEASURE;
    }

    boolean stopping() {
        return phase.value == RequestChain.Phase.STOP;
    }

    void notifications(int count) {
        if (measuring()) {
            notifications.add(count);
        }
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
