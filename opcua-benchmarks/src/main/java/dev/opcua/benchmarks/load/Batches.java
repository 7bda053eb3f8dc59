package dev.opcua.benchmarks.load;

import java.util.concurrent.CompletableFuture;

/** How the {@link ValueWriter}'s values reach the server: Write requests, or calls that emit events. */
interface Batches {

    /** The most values one request carries. */
    int maxPerRequest();

    /**
     * Sends values {@code [from, to)} in one request. The future completes once it is answered, after
     * values the server refused were marked failed in the {@link WriteSequence} and counted as errors.
     */
    CompletableFuture<Void> send(long from, long to);
}
