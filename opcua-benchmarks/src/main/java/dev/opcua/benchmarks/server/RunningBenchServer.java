package dev.opcua.benchmarks.server;

/** A started bench server; {@link #close()} stops it and its counter thread. */
public interface RunningBenchServer extends AutoCloseable {

    /** The endpoint URL clients connect to, e.g. {@code opc.tcp://localhost:4841/}. */
    String endpointUrl();

    /** The index of {@link BenchAddressSpace#NAMESPACE_URI} in the server's namespace table. */
    int namespaceIndex();

    /** Values the {@code --simulate} thread has set so far; -1 without simulation. */
    long simulatedValues();

    /** Requests the server's request queue refused so far (BadServerTooBusy ...); -1 when it does not tell. */
    default long rejectedRequests() {
        return -1;
    }

    @Override
    void close();
}
