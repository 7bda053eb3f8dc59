package dev.opcua.stack.server.redundancy;

import dev.opcua.stack.core.types.enumerated.RedundancySupport;

/**
 * How a server takes part in a redundant server set (Part 4, 6.6.2.4.5, failover modes; RedundancySupport,
 * Part 5, 12.5). Transparent redundancy (Part 4, 6.6.2.3) is a matter of the network in front of the servers and
 * is not offered.
 */
public enum RedundancyMode {
    /** No redundancy: ServerRedundancy stays a ServerRedundancyType with RedundancySupport NONE. */
    None(RedundancySupport.None),
    /** Only one server of the set is active; the backup starts when the active one fails (Part 4, 6.6.2.4.5.2). */
    Cold(RedundancySupport.Cold),
    /**
     * The backup runs but cannot reach the data sources; a client connects to it, but creates its subscriptions
     * only on failover (Part 4, 6.6.2.4.5.3).
     */
    Warm(RedundancySupport.Warm),
    /**
     * Every server of the set runs and reaches the data; a client may keep subscriptions on several, sampling
     * but not reporting on the backups (Part 4, 6.6.2.4.5.4).
     */
    Hot(RedundancySupport.Hot),
    /**
     * Hot with sessions and subscriptions mirrored, so that a client re-activates its session on the partner
     * (Part 4, 6.6.2.4.5.5); refused by {@link RedundancySettings} until the shared session store exists.
     */
    HotAndMirrored(RedundancySupport.HotAndMirrored);

    private final RedundancySupport support;

    RedundancyMode(RedundancySupport support) {
        this.support = support;
    }

    /** The value of the ServerRedundancy's RedundancySupport property (Part 5, 6.3.7 and 12.5). */
    public RedundancySupport redundancySupport() {
        return support;
    }

    /** Whether the mode is a non-transparent one, whose ServerRedundancy is a NonTransparentRedundancyType. */
    public boolean nonTransparent() {
        return this != None;
    }

    /** The mode named {@code name}, case and hyphens ignored ("hot-and-mirrored", "HOT_AND_MIRRORED", "Hot"). */
    public static RedundancyMode parse(String name) {
        String wanted = name == null ? "" : name.replace("-", "").replace("_", "");
        for (RedundancyMode mode : values()) {
            if (mode.name().equalsIgnoreCase(wanted)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("unknown redundancy mode '" + name + "': one of None, Cold, Warm, Hot,"
                + " HotAndMirrored");
    }
}
