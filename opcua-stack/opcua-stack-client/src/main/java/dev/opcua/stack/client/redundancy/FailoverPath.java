package dev.opcua.stack.client.redundancy;

/** How the client's session and subscriptions reached the server it failed over to (Part 4, 6.6.2.4.5, Table 111). */
public enum FailoverPath {
    /** A new session; subscriptions and monitored items created anew (Cold, Warm, or a fallback). */
    SUBSCRIPTIONS_RECREATED,
    /** A new session that took the backup's mirrored subscriptions over with TransferSubscriptions (Hot). */
    MIRRORS_TRANSFERRED,
    /**
     * The same session activated on the new server, which took its state over from the shared store
     * (HotAndMirrored): same SessionId and SubscriptionIds, sequence numbers continued.
     */
    SESSION_REACTIVATED
}
