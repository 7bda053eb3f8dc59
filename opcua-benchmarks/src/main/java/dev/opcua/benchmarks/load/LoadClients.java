package dev.opcua.benchmarks.load;

import java.util.List;
import java.util.concurrent.Executor;

/**
 * The client under test of one run ({@code --client ours|milo}): opens {@link LoadClient} sessions through
 * the client's public API, all sharing one set of the client's threads, and owns those threads until
 * {@link #close()}.
 */
interface LoadClients extends AutoCloseable {

    /** Seconds any connect, disconnect or setup request may take. */
    long TIMEOUT_S = 10;

    /** Our {@link dev.opcua.stack.client.OpcUaClient} or Eclipse Milo's, as {@code o.client()} says. */
    static LoadClients create(LoadOptions o, String url) throws Exception {
        return o.client().equals("milo") ? MiloLoadClients.create(o, url) : OursLoadClients.create(o, url);
    }

    /**
     * A new client, connected, with the variables {@code Var.0 .. Var.{nodes-1}} of the namespace of
     * {@code --namespace} resolved through the server's NamespaceArray; the caller closes it.
     */
    LoadClient open() throws Exception;

    /**
     * A new client, connected, for the {@code sub} scenario: its subscriptions count and record what their
     * items receive in {@code metrics} and their tallies; the caller closes it.
     */
    LoadSubscriber subscriber(SubMetrics metrics) throws Exception;

    /** One operation of the {@code connect} scenario: a new client connects (GetEndpoints included) and disconnects. */
    void connectAndDisconnect() throws Exception;

    /** An executor of the client's, where a chain continues after a failed request. */
    Executor executor();

    /**
     * Prefixes of the names of the threads whose allocations count as the client's: the client's own
     * threads and the harness's ({@code load-}).
     */
    List<String> threadPrefixes();

    /** Stops the client's threads; the sessions are closed before. */
    @Override
    void close();
}
