package dev.opcua.stack.client.redundancy;

import java.time.Duration;
import java.util.List;

/**
 * A snapshot of a client's redundancy: the mode, each server of the set, the active one, and the
 * failovers so far.
 *
 * @param lastFailoverDuration null before the first failover
 */
public record RedundancyStatus(RedundancyMode mode, List<RedundantServer> servers, String activeServer,
        long failovers, Duration lastFailoverDuration, long notificationsPossiblyLost) {
}
