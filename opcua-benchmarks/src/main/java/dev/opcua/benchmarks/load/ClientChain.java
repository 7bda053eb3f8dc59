package dev.opcua.benchmarks.load;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.LongAdder;

/**
 * One closed-loop request slot of a {@link LoadClient}, the counterpart of {@link RequestChain} for a
 * client's public API: sends a Read, Write or Browse, and on its answer sends the next. Its histogram
 * is touched by one request at a time, so it needs no lock; the harness reads it only after
 * {@code stopped} has counted down.
 */
final class ClientChain implements LoadClient.Done {

    private final LoadClient client;
    private final LoadClient.Reader reader;
    private final String scenario;
    private final int values;
    private final int nodes;
    private final RequestChain.Phase phase;
    private final LongAdder ops;
    private final ConcurrentHashMap<String, LongAdder> errors;
    private final Executor executor;
    private final CountDownLatch stopped;
    private final LatencyHistogram histogram = new LatencyHistogram();
    private int next;
    private long start;

    ClientChain(LoadClient client, String scenario, int values, int nodes, int first, RequestChain.Phase phase,
            LongAdder ops, ConcurrentHashMap<String, LongAdder> errors, Executor executor, CountDownLatch stopped) {
        this.client = client;
        this.reader = client.reader(this);
        this.scenario = scenario;
        this.values = values;
        this.nodes = nodes;
        this.next = first % nodes;
        this.phase = phase;
        this.ops = ops;
        this.errors = errors;
        this.executor = executor;
        this.stopped = stopped;
    }

    LatencyHistogram histogram() {
        return histogram;
    }

    /** Sends the next request, or counts down {@code stopped} once the run is over. */
    void issue() {
        if (phase.value == RequestChain.Phase.STOP || !client.isOpen()) {
            stopped.countDown();
            return;
        }
        start = System.nanoTime();
        switch (scenario) {
            case "browse" -> client.browse(this);
            case "write" -> client.write(take(), values, start, this);
            default -> reader.read(take(), values);
        }
    }

    /** The first variable of the next request; the chain moves on by {@code values}. */
    private int take() {
        int first = next;
        next = (int) ((first + (long) values) % nodes);
        return first;
    }

    @Override
    public void done(String error, boolean failed) {
        long elapsed = System.nanoTime() - start;
        if (phase.value == RequestChain.Phase.MEASURE) {
            if (error == null) {
                ops.increment();
                histogram.record(elapsed);
            } else {
                errors.computeIfAbsent(error, k -> new LongAdder()).increment();
            }
        }
        if (failed) {
            // a failed future may complete on the calling thread: hop to the executor, no recursion
            executor.execute(this::issue);
        } else {
            issue();
        }
    }
}
