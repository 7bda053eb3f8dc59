package dev.opcua.benchmarks.load;

/**
 * One connected session of the client under test ({@code --client ours|milo}), driven through that
 * client's public API by {@link ClientChain}s: Read and Write (Part 4, 5.11.2 and 5.11.4) of the bench
 * variables {@code Var.i} by index, and Browse (Part 4, 5.9.2) of the Server object and the Objects
 * folder. Each call completes its {@link Done} exactly once, on a thread of the client.
 */
interface LoadClient extends AutoCloseable {

    /** How a request ended. */
    @FunctionalInterface
    interface Done {

        /**
         * @param error null when the service and every item were Good, else the first bad status, or the
         *        exception's status or class name
         * @param failed whether the request failed with an exception (the callback may then run on the
         *        calling thread)
         */
        void done(String error, boolean failed);
    }

    /** The Reads of one request slot, completing {@code done}. */
    interface Reader {

        /** Reads the Value of {@code count} variables from index {@code first} on, wrapping over the variables. */
        void read(int first, int count);
    }

    /**
     * The reader of one request slot: it makes its completion callback once, as a poller keeps its
     * own, rather than a lambda per Read.
     */
    Reader reader(Done done);

    /** Writes the Doubles {@code value}, {@code value + 1} ... to {@code count} variables from {@code first} on. */
    void write(int first, int count, double value, Done done);

    /** Browses the Server object and the Objects folder: forward hierarchical references, all result fields. */
    void browse(Done done);

    /** Whether the session can still take requests. */
    boolean isOpen();

    /** Closes the session and its channel; unlike {@link #close()} it reports a failure. */
    void disconnect() throws Exception;

    /** Closes the session and its channel, best effort. */
    @Override
    void close();
}
