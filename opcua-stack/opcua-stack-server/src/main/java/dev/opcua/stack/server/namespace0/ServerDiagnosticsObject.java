package dev.opcua.stack.server.namespace0;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.structured.ServerDiagnosticsSummaryDataType;
import dev.opcua.stack.server.addressspace.NodeStore;
import java.util.Objects;
import java.util.function.ToLongFunction;

/**
 * The Server.ServerDiagnostics object of namespace 0 (Part 5, 6.3.3 ServerDiagnosticsType):
 * ServerDiagnosticsSummary as a structure and as its component variables (Part 5, 7.8 and 12.9),
 * each read asking the {@link ServerDiagnosticsSource} for the present counters, and EnabledFlag,
 * always true because the counters cost nothing to keep. The source is set once the counters'
 * owners exist (the server starts its sessions after namespace 0 is loaded).
 */
public final class ServerDiagnosticsObject {

    private volatile ServerDiagnosticsSource source = ServerDiagnosticsSource.ZERO;

    /** Puts value sources on the ServerDiagnostics variables of a namespace-0 store. */
    public ServerDiagnosticsObject(NodeStore store) {
        ValueSources sources = new ValueSources(store);
        sources.put(NodeIds.Server_ServerDiagnostics_ServerDiagnosticsSummary, () -> Variant.of(summary()));
        counter(sources, NodeIds.Server_ServerDiagnostics_ServerDiagnosticsSummary_ServerViewCount,
                ServerDiagnosticsSource::serverViewCount);
        counter(sources, NodeIds.Server_ServerDiagnostics_ServerDiagnosticsSummary_CurrentSessionCount,
                ServerDiagnosticsSource::currentSessionCount);
        counter(sources, NodeIds.Server_ServerDiagnostics_ServerDiagnosticsSummary_CumulatedSessionCount,
                ServerDiagnosticsSource::cumulatedSessionCount);
        counter(sources, NodeIds.Server_ServerDiagnostics_ServerDiagnosticsSummary_SecurityRejectedSessionCount,
                ServerDiagnosticsSource::securityRejectedSessionCount);
        counter(sources, NodeIds.Server_ServerDiagnostics_ServerDiagnosticsSummary_RejectedSessionCount,
                ServerDiagnosticsSource::rejectedSessionCount);
        counter(sources, NodeIds.Server_ServerDiagnostics_ServerDiagnosticsSummary_SessionTimeoutCount,
                ServerDiagnosticsSource::sessionTimeoutCount);
        counter(sources, NodeIds.Server_ServerDiagnostics_ServerDiagnosticsSummary_SessionAbortCount,
                ServerDiagnosticsSource::sessionAbortCount);
        counter(sources, NodeIds.Server_ServerDiagnostics_ServerDiagnosticsSummary_CurrentSubscriptionCount,
                ServerDiagnosticsSource::currentSubscriptionCount);
        counter(sources, NodeIds.Server_ServerDiagnostics_ServerDiagnosticsSummary_CumulatedSubscriptionCount,
                ServerDiagnosticsSource::cumulatedSubscriptionCount);
        counter(sources, NodeIds.Server_ServerDiagnostics_ServerDiagnosticsSummary_PublishingIntervalCount,
                ServerDiagnosticsSource::publishingIntervalCount);
        counter(sources, NodeIds.Server_ServerDiagnostics_ServerDiagnosticsSummary_SecurityRejectedRequestsCount,
                ServerDiagnosticsSource::securityRejectedRequestsCount);
        counter(sources, NodeIds.Server_ServerDiagnostics_ServerDiagnosticsSummary_RejectedRequestsCount,
                ServerDiagnosticsSource::rejectedRequestsCount);
        sources.put(NodeIds.Server_ServerDiagnostics_EnabledFlag, () -> Variant.ofBoolean(true));
    }

    private void counter(ValueSources sources, int id, ToLongFunction<ServerDiagnosticsSource> counter) {
        // UInt32 on the wire: a counter past its range saturates rather than wrapping to a small number
        sources.put(id, () -> Variant.ofUInt32(uint32(counter.applyAsLong(source))));
    }

    /** Sets where the counters come from. */
    public void setSource(ServerDiagnosticsSource source) {
        this.source = Objects.requireNonNull(source, "source");
    }

    /** The summary as it is now. */
    public ServerDiagnosticsSummaryDataType summary() {
        ServerDiagnosticsSource s = source;
        return new ServerDiagnosticsSummaryDataType(uint32(s.serverViewCount()), uint32(s.currentSessionCount()),
                uint32(s.cumulatedSessionCount()), uint32(s.securityRejectedSessionCount()),
                uint32(s.rejectedSessionCount()), uint32(s.sessionTimeoutCount()), uint32(s.sessionAbortCount()),
                uint32(s.currentSubscriptionCount()), uint32(s.cumulatedSubscriptionCount()),
                uint32(s.publishingIntervalCount()), uint32(s.securityRejectedRequestsCount()),
                uint32(s.rejectedRequestsCount()));
    }

    private static long uint32(long value) {
        return Math.max(0, Math.min(0xFFFF_FFFFL, value));
    }
}
