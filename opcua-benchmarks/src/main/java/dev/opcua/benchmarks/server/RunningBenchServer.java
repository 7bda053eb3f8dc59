package dev.opcua.benchmarks.server;

/** A started bench server; {@link #close()} stops it and its counter thread. */
public interface RunningBenchServer extends AutoCloseable {

    /** The endpoint URL clients connect to, e.g. {@code opc.tcp://localhost:4841/}. */
    String endpointUrl();

    /** The index of {@link BenchAddressSpace#NAMESPACE_URI} in the server's namespace table. */
    int namespaceIndex();

    /** Values the {@code --simulate} thread has set so far; -1 without simulation. */
    long simulatedValues();

    /** Starts a simulation held by {@value ValueSimulator#HOLD_PROPERTY}; nothing without simulation. */
    default void startSimulation() {
    }

    /**
     * Its live connection, secure channel and session counts as {@code connections=N channels=N sessions=N}
     * (each -1 when the server does not tell), for the {@code churn} scenario's footprint.
     */
    default String counters() {
        return "connections=-1 channels=-1 sessions=-1";
    }

    /** Requests the server's request queue refused so far (BadServerTooBusy ...); -1 when it does not tell. */
    default long rejectedRequests() {
        return -1;
    }

    /**
     * Its subscriptions' counts so far as {@code key=value} pairs for the {@code STATS} answer: {@code
     * queue_overflows} (values its monitored items discarded because a queue was full, a queue of one's
     * replaced value included, Part 4, 5.12.1.5), {@code late_cycles} (publishing cycles that found no Publish
     * request parked, Part 4, 5.13.1.2) and {@code parked} (Publish requests parked now); empty when the
     * server does not tell.
     */
    default String subscriptionStats() {
        return "";
    }

    /**
     * What mirroring its sessions to the pair's state store has cost so far, as {@code key=value} pairs for the
     * {@code STATS} answer ({@code mirror_cpu_ns} of the mirror thread, {@code mirror_cycle_ns} of its rounds,
     * {@code mirror_store_ns} in the store's writes, {@code mirror_states} written, ..., {@code notifications_sent});
     * empty when the server mirrors nothing (every mode but HotAndMirrored).
     */
    default String mirrorStats() {
        return "";
    }

    @Override
    void close();
}
