package dev.opcua.stack.server;

import dev.opcua.stack.server.transport.ReverseConnectStatistics;
import dev.opcua.stack.server.transport.uasc.ServerChannelCounters;
import dev.opcua.stack.server.history.HistoryRecorder;
import dev.opcua.stack.server.requests.RequestStatistics;
import dev.opcua.stack.server.session.Session;
import dev.opcua.stack.server.session.SessionCounters;
import dev.opcua.stack.server.subscriptions.SubscriptionStatistics;
import java.util.List;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * {@link ServerStatistics} read from the parts of the server's last start: one volatile read, then the
 * counters of those parts; no copy except the list of sessions.
 */
final class ServerStatisticsView implements ServerStatistics {

    private final Supplier<ServerAssembly> started;

    /** @param started the parts of the last start, null before the first */
    ServerStatisticsView(Supplier<ServerAssembly> started) {
        this.started = started;
    }

    @Override
    public RequestStatistics requests() {
        ServerAssembly parts = started.get();
        return parts == null ? null : parts.dispatcher().statistics();
    }

    @Override
    public boolean virtualThreadWorkers() {
        ServerAssembly parts = started.get();
        return parts != null && parts.dispatcher().usesVirtualThreads();
    }

    @Override
    public int currentSessions() {
        ServerAssembly parts = started.get();
        return parts == null ? 0 : parts.sessions().currentSessions();
    }

    @Override
    public List<Session> sessions() {
        ServerAssembly parts = started.get();
        return parts == null ? List.of() : parts.sessions().sessions();
    }

    @Override
    public SessionCounters sessionCounters() {
        ServerAssembly parts = started.get();
        return parts == null ? null : parts.sessions().counters();
    }

    @Override
    public ServerChannelCounters transport() {
        ServerAssembly parts = started.get();
        return parts == null ? null : parts.transport().channelSettings().counters();
    }

    @Override
    public ReverseConnectStatistics reverseConnect() {
        ServerAssembly parts = started.get();
        return parts == null ? ReverseConnectStatistics.NONE : parts.transport().reverseConnectStatistics();
    }

    @Override
    public SubscriptionStatistics subscriptions() {
        ServerAssembly parts = started.get();
        return parts == null ? null : parts.subscriptions().statistics();
    }

    @Override
    public long continuationPointsRefused() {
        ServerAssembly parts = started.get();
        return parts == null ? 0 : parts.viewServices().continuationPointsRefused();
    }

    @Override
    public long browsePathsRefused() {
        ServerAssembly parts = started.get();
        return parts == null ? 0 : parts.translateBrowsePaths().pathsRefused();
    }

    @Override
    public long historyBacklog() {
        return history(HistoryRecorder::backlog);
    }

    @Override
    public long historyValuesRecorded() {
        return history(HistoryRecorder::appendedValues);
    }

    @Override
    public long historyValuesDropped() {
        return history(HistoryRecorder::droppedValues);
    }

    @Override
    public long historyValuesRefused() {
        return history(HistoryRecorder::failedValues);
    }

    @Override
    public long auditEventsRaised() {
        ServerAssembly parts = started.get();
        return parts == null ? 0 : parts.audit().raised();
    }

    @Override
    public long auditEventsDropped() {
        ServerAssembly parts = started.get();
        return parts == null ? 0 : parts.audit().dropped();
    }

    /** A reading of the history recorder; 0 before start and without a history store. */
    private long history(ToLongFunction<HistoryRecorder> reading) {
        ServerAssembly parts = started.get();
        HistoryRecorder recorder = parts == null ? null : parts.historyRecorder();
        return recorder == null ? 0 : reading.applyAsLong(recorder);
    }
}
