package dev.opcua.benchmarks.load;

import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.core.UaException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * One slot of the {@code connect} scenario, on its own thread: opens a secure channel (Part 6, 6.7.4;
 * with a security policy, the asymmetric OpenSecureChannel), creates and activates a session (Part 4,
 * 5.6.2 and 5.6.3; with a security policy, both signatures), closes the session (Part 4, 5.6.4) and the
 * channel, and starts over. One operation is one session opened and closed; its latency spans all five
 * steps. The loop is blocking because each step needs the previous one's answer anyway. Through a
 * client's public API ({@code --client ours|milo}) one operation is a new client that connects (its
 * GetEndpoints first, and what the client reads once connected) and disconnects.
 */
final class ConnectLoop implements Runnable {

    /** One operation: open a session and close it again; a failure is counted by its status. */
    @FunctionalInterface
    interface Cycle {
        void openAndClose() throws Exception;
    }

    private final Cycle cycle;
    private final RequestChain.Phase phase;
    private final LongAdder ops;
    private final ConcurrentHashMap<String, LongAdder> errors;
    private final CountDownLatch stopped;
    private final LatencyHistogram histogram = new LatencyHistogram();

    /** Raw sessions: {@link LoadSession#open} and {@link LoadSession#closeSessionAndChannel}. */
    ConnectLoop(String url, ClientResources resources, LoadSecurity security, RequestChain.Phase phase,
            LongAdder ops, ConcurrentHashMap<String, LongAdder> errors, CountDownLatch stopped) {
        this(() -> LoadSession.open(url, resources, security).closeSessionAndChannel(), phase, ops, errors, stopped);
    }

    /** Any client: {@code cycle} opens a session and closes it. */
    ConnectLoop(Cycle cycle, RequestChain.Phase phase, LongAdder ops, ConcurrentHashMap<String, LongAdder> errors,
            CountDownLatch stopped) {
        this.cycle = cycle;
        this.phase = phase;
        this.ops = ops;
        this.errors = errors;
        this.stopped = stopped;
    }

    /** Read only after {@code stopped} has counted down. */
    LatencyHistogram histogram() {
        return histogram;
    }

    @Override
    public void run() {
        try {
            while (phase.value != RequestChain.Phase.STOP) {
                long start = System.nanoTime();
                String error = null;
                try {
                    cycle.openAndClose();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                } catch (Exception e) {
                    error = describe(e);
                }
                long elapsed = System.nanoTime() - start;
                if (phase.value == RequestChain.Phase.MEASURE) {
                    if (error == null) {
                        ops.increment();
                        histogram.record(elapsed);
                    } else {
                        errors.computeIfAbsent(error, k -> new LongAdder()).increment();
                    }
                }
                if (error != null) {
                    // a refusing server would otherwise be hammered in a tight loop
                    TimeUnit.MILLISECONDS.sleep(10);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            stopped.countDown();
        }
    }

    /** The status of a failure (ours or Milo's UaException), else the exception's class name. */
    static String describe(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof ExecutionException || cause instanceof CompletionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof UaException ua) {
            return ua.statusCode().toString();
        }
        if (cause instanceof org.eclipse.milo.opcua.stack.core.UaException milo) {
            return milo.getStatusCode().toString();
        }
        return cause.getClass().getSimpleName();
    }
}
