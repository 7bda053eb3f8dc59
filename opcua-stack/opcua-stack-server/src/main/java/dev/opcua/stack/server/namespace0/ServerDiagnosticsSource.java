package dev.opcua.stack.server.namespace0;

/**
 * Where the counters of ServerDiagnosticsSummary come from (Part 5, 12.9
 * ServerDiagnosticsSummaryDataType), so that namespace 0 does not depend on the session layer or the
 * request pipeline: the server assembling them implements the counters it has; the others stay 0
 * (subscriptions and views do not exist yet).
 */
public interface ServerDiagnosticsSource {

    /** Every counter 0: a server not started yet. */
    ServerDiagnosticsSource ZERO = new ServerDiagnosticsSource() { };

    /** Views the server offers (none). */
    default long serverViewCount() {
        return 0;
    }

    /** Sessions open now. */
    default long currentSessionCount() {
        return 0;
    }

    /** Sessions created since the server started. */
    default long cumulatedSessionCount() {
        return 0;
    }

    /** CreateSession / ActivateSession requests refused for security reasons (e.g. a refused identity). */
    default long securityRejectedSessionCount() {
        return 0;
    }

    /** CreateSession / ActivateSession requests refused for any reason, the security ones included. */
    default long rejectedSessionCount() {
        return 0;
    }

    /** Sessions closed because their timeout expired. */
    default long sessionTimeoutCount() {
        return 0;
    }

    /** Sessions closed because of errors. */
    default long sessionAbortCount() {
        return 0;
    }

    default long currentSubscriptionCount() {
        return 0;
    }

    default long cumulatedSubscriptionCount() {
        return 0;
    }

    /** Publishing intervals in use. */
    default long publishingIntervalCount() {
        return 0;
    }

    /** Requests refused for security reasons, e.g. an invalid authentication token. */
    default long securityRejectedRequestsCount() {
        return 0;
    }

    /** Requests refused for any reason (e.g. BadServerTooBusy), the security ones included. */
    default long rejectedRequestsCount() {
        return 0;
    }
}
