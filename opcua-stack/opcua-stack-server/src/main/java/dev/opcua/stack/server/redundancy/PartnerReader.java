package dev.opcua.stack.server.redundancy;

import java.util.concurrent.CompletableFuture;

/**
 * Reads one partner of the set for the {@link PartnerMonitor}. {@link ClientPartnerReader} does it with our
 * client over a session it keeps; tests may give their own. Owned and closed by the monitor.
 */
public interface PartnerReader extends AutoCloseable {

    /** The partner's facts now; completes exceptionally while the partner cannot be reached or read. */
    CompletableFuture<PartnerFacts> read();

    @Override
    void close();
}
