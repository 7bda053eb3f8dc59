package dev.opcua.stack.client.redundancy;

/** Why the client left its active server. */
public enum FailoverReason {
    /** The connection was lost (keep-alive, channel closed) and not re-established within the failover timeout. */
    SERVER_LOST,
    /**
     * The active server's ServiceLevel (Part 5, 6.3.1, Server_ServiceLevel i=2267; sub-ranges in Part 4,
     * 6.6.2.4.2) fell below the degraded threshold or the margin under a partner's, and a partner was higher.
     */
    SERVICE_LEVEL
}
