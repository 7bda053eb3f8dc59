package dev.opcua.stack.server;

import dev.opcua.stack.server.transport.ReverseConnectStatistics;
import dev.opcua.stack.server.transport.uasc.ServerChannelCounters;
import dev.opcua.stack.server.requests.RequestStatistics;
import dev.opcua.stack.server.session.Session;
import dev.opcua.stack.server.session.SessionCounters;
import dev.opcua.stack.server.subscriptions.SubscriptionStatistics;
import java.util.List;

/**
 * What a running {@link OpcUaServer} does, for monitoring (metrics, health, diagnostics pages): the
 * request pipeline, the sessions (Part 4, 5.6) and their counters, the transport's connections, secure
 * channels and bytes (Part 6, 7.1), the subscription layer (Part 4, 5.13), refusals at the View service
 * limits (Part 4, 5.8) and the history recorder (Part 11). The same counts feed the ServerDiagnosticsSummary
 * of namespace 0 (Part 5, 12.9) where that structure has a field for them.
 *
 * <p>Every method reads counters the server keeps anyway: nothing is recorded for this view, and reading
 * it takes no lock that a request takes. Before {@link OpcUaServer#start()} the objects read null and the
 * counts 0; after {@link OpcUaServer#close()} they keep the counts of the last run. A server started again
 * counts from 0.
 */
public interface ServerStatistics {

    /**
     * The request pipeline: requests queued in both lanes and the queue's capacity (MaxQueuedRequestCount),
     * workers and busy workers, requests active, admitted, run inline and refused by reason, the wait in the
     * queue, and calls and faults by service; null before start.
     */
    RequestStatistics requests();

    /** Whether the workers of the pipeline are virtual threads; false before start. */
    boolean virtualThreadWorkers();

    /** Sessions open now, activated or not. */
    int currentSessions();

    /** The open sessions, activated or not, with their client, security, user and age; a copy. */
    List<Session> sessions();

    /**
     * Sessions created, closed, refused and timed out, failed authentications and lock-outs since start;
     * null before start.
     */
    SessionCounters sessionCounters();

    /**
     * Sockets and secure channels open now, bytes received and sent, and peers refused at the transport by
     * reason; null before start.
     */
    ServerChannelCounters transport();

    /** What reverse connect did: clients dialled, connections taken and closed unused; all zero when it is off. */
    ReverseConnectStatistics reverseConnect();

    /**
     * Subscriptions, monitored items and parked Publish requests now; notifications sent and dropped,
     * keep-alives, late publishing cycles and refusals at the subscription limits since start; null before
     * start.
     */
    SubscriptionStatistics subscriptions();

    /** Browse results answered BadNoContinuationPoints (Part 4, 5.8.2): continuation points hoarded. */
    long continuationPointsRefused();

    /** Browse paths answered BadQueryTooComplex for too many elements (Part 4, 5.8.4). */
    long browsePathsRefused();

    /** Values of historizing variables waiting to be stored: in the recorder's queue or not yet acknowledged. */
    long historyBacklog();

    /** Values the history store acknowledged. */
    long historyValuesRecorded();

    /** Values the history recorder dropped because its bounded queue was full (the store fell behind). */
    long historyValuesDropped();

    /** Values the history store refused (failed appends). */
    long historyValuesRefused();

    /** Audit events raised on the Server object (Part 4, 6.5); 0 when the server does not audit. */
    long auditEventsRaised();

    /** Audit records dropped because the audit thread fell behind a flood of audited requests. */
    long auditEventsDropped();
}
