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
 * steps. The loop is blocking because each step needs the previous one's answer anyway.
 */
final class ConnectLoop implements Runnable {

    private final String url;
    private final ClientResources resources;
    private final LoadSecurity security;
    private final RequestChain.Phase phase;
    private final LongAdder ops;
    private final ConcurrentHashMap<String, LongAdder> errors;
    private final CountDownLatch stopped;
    private final LatencyHistogram histogram = new LatencyHistogram();

    ConnectLoop(String url, ClientResources resources, LoadSecurity security, RequestChain.Phase phase,
            LongAdder ops, ConcurrentHashMap<String, LongAdder> errors, CountDownLatch stopped) {
        this.url = url;
        this.resources = resources;
        this.security = security;
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
                    LoadSession.open(url, resources, security).closeSessionAndChannel();
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

    private static String describe(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof ExecutionException || cause instanceof CompletionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof UaException ua) {
            return ua.statusCode().toString();
        }
        return cause.getClass().getSimpleName();
    }
}
