package dev.opcua.stack.server.redundancy;

import dev.opcua.stack.core.types.enumerated.ServerState;
import java.time.Instant;

/**
 * What the {@link PartnerMonitor} last saw of one partner.
 *
 * @param serverUri the configured ServerUri
 * @param endpointUrl the configured endpoint
 * @param reachable whether the last read succeeded
 * @param serviceLevel the partner's ServiceLevel, 0 when unreachable
 * @param state the partner's ServerState, Unknown when unreachable
 * @param mismatch why the partner does not form a set with this server (another ServerUri, NamespaceArray or
 *        address space), null when it does or cannot be read
 * @param problem the reason the last read failed, null when it succeeded
 * @param checkedAt when the partner was last read
 */
public record PartnerStatus(String serverUri, String endpointUrl, boolean reachable, int serviceLevel,
        ServerState state, String mismatch, String problem, Instant checkedAt) {

    /** A partner not read yet. */
    static PartnerStatus unknown(RedundancyPartner partner) {
        return new PartnerStatus(partner.serverUri(), partner.endpointUrl(), false, 0, ServerState.Unknown, null,
                "not read yet", null);
    }
}
