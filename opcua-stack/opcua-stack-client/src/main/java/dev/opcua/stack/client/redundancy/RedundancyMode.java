package dev.opcua.stack.client.redundancy;

/**
 * What the client does with the servers of a non-transparent redundant set besides the active one:
 * the client options of Part 4, 6.6.2.4.5, Table 111, after the server failover modes of 6.6.2.4.4,
 * Table 110.
 */
public enum RedundancyMode {
    /**
     * 6.6.2.4.5.2: one connection, to the active server. At failover the client probes the others'
     * ServiceLevel, opens a channel and a new session on the best one and re-creates its subscriptions
     * and monitored items there.
     */
    COLD,
    /**
     * 6.6.2.4.5.3: besides the active connection the client keeps a session on each other server and
     * reads its ServiceLevel, so that a failover knows at once where to go and a better partner is seen;
     * at failover the subscriptions are re-created on the chosen server as with {@link #COLD}.
     */
    WARM,
    /**
     * 6.6.2.4.5.4, Hot (a): as {@link #WARM}, and each backup's monitor session holds a mirror of every
     * subscription of the client, with its monitored items (same client handles, parameters and modes),
     * created with publishing disabled and kept in step with the client's record at every ServiceLevel
     * check. At failover the client's new session on the chosen backup takes the mirrors over with one
     * TransferSubscriptions (sendInitialValues false: the items queued what changed meanwhile) and one
     * SetPublishingMode(true) instead of re-creating them; the application's {@code ClientSubscription}
     * objects and listeners are re-bound to them. The server left gets new mirrors once it is a backup.
     * TransferSubscriptions needs the same user, or for anonymous sessions the same client certificate
     * proven on a secured channel (Part 4, 5.13.7): an anonymous session without security cannot take
     * a mirror over (BadUserAccessDenied) and re-creates its subscriptions as {@link #WARM} does.
     */
    HOT,
    /**
     * 6.6.2.4.5.5, for a HotAndMirrored server set whose servers share their sessions' state: backups monitored as
     * in {@link #WARM}; at failover the client opens a channel to the chosen server and activates its existing
     * session there (ActivateSession on a new SecureChannel, Part 4, 5.6.3): no CreateSession, no subscription
     * created or transferred. Its subscriptions go on with their SubscriptionIds and sequence numbers, and what
     * the first server sent but the client did not receive is fetched with Republish. When the server does not
     * know the session (BadSessionIdInvalid: not mirrored, or not a HotAndMirrored set) a new session is created
     * and the subscriptions re-created as in {@link #WARM}; {@link FailoverEvent#path()} says which it was.
     */
    HOT_AND_MIRRORED
}
