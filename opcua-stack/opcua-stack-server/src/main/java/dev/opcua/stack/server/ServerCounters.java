package dev.opcua.stack.server;

import dev.opcua.stack.server.namespace0.ServerDiagnosticsSource;
import dev.opcua.stack.server.services.ServiceDispatcher;
import dev.opcua.stack.server.session.SessionCounters;
import dev.opcua.stack.server.session.SessionManager;

/**
 * ServerDiagnosticsSummary (Part 5, 12.9) from the counters of the session layer and the request
 * pipeline. Subscriptions, views and security-rejected requests have no counter yet and read 0.
 */
final class ServerCounters implements ServerDiagnosticsSource {

    private final SessionManager sessions;
    private final ServiceDispatcher dispatcher;

    ServerCounters(SessionManager sessions, ServiceDispatcher dispatcher) {
        this.sessions = sessions;
        this.dispatcher = dispatcher;
    }

    @Override
    public long currentSessionCount() {
        return sessions.currentSessions();
    }

    @Override
    public long cumulatedSessionCount() {
        return sessions.counters().sessionsCreated();
    }

    /** Activations whose identity the validator refused. */
    @Override
    public long securityRejectedSessionCount() {
        return sessions.counters().failedAuthentications();
    }

    /** CreateSession refused for the session limit, plus the security rejections. */
    @Override
    public long rejectedSessionCount() {
        SessionCounters c = sessions.counters();
        return c.sessionsRejected() + c.failedAuthentications();
    }

    @Override
    public long sessionTimeoutCount() {
        return sessions.counters().sessionTimeouts();
    }

    /** Sessions closed by the server for too many failed authentications. */
    @Override
    public long sessionAbortCount() {
        return sessions.counters().sessionsLockedOut();
    }

    /** Requests answered without being run (queue full, too old, timed out, server halted). */
    @Override
    public long rejectedRequestsCount() {
        return dispatcher.rejectedRequests();
    }
}
