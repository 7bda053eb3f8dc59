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
     * 6.6.2.4.5.4, Hot (a) would keep the subscriptions on the backups too, publishing disabled, and only
     * call SetPublishingMode at failover. This client does not do that yet: HOT behaves as {@link #WARM}
     * (sessions to the backups, ServiceLevel watched, subscriptions re-created at failover).
     */
    HOT
}
