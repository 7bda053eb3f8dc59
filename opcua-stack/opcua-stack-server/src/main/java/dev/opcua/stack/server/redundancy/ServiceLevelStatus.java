package dev.opcua.stack.server.redundancy;

/**
 * A ServiceLevel with the reason for it (Part 4, 6.6.2.4.2, Table 103; Part 5, 6.3.1 ServerType.ServiceLevel, a
 * Byte): 0 Maintenance, 1 NoData, 2..199 Degraded, 200..255 Healthy.
 *
 * @param level 0..255
 * @param reason why, for operators (health details, logs); "healthy" when nothing is wrong
 */
public record ServiceLevelStatus(int level, String reason) {

    /** Maintenance (0): clients shall disconnect and not reconnect until the server returns. */
    public static final int MAINTENANCE = 0;
    /** NoData (1): the server runs but has no data other than ServiceLevel and diagnostics. */
    public static final int NO_DATA = 1;
    /** The lowest Degraded level. */
    public static final int DEGRADED_MIN = 2;
    /** The highest Degraded level. */
    public static final int DEGRADED_MAX = 199;
    /** The lowest Healthy level. */
    public static final int HEALTHY_MIN = 200;
    /** The level of a server with nothing wrong. */
    public static final int HEALTHY = 255;

    /** A server with nothing wrong: 255. */
    public static final ServiceLevelStatus OK = new ServiceLevelStatus(HEALTHY, "healthy");

    /** The sub-ranges of Table 103 (Part 4, 6.6.2.4.2). */
    public enum Band {
        MAINTENANCE, NO_DATA, DEGRADED, HEALTHY;

        /** The sub-range of {@code level}. */
        public static Band of(int level) {
            if (level <= 0) {
                return MAINTENANCE;
            }
            if (level == 1) {
                return NO_DATA;
            }
            return level < HEALTHY_MIN ? DEGRADED : HEALTHY;
        }
    }

    /** @throws IllegalArgumentException when the level is outside 0..255 */
    public ServiceLevelStatus {
        if (level < 0 || level > 255) {
            throw new IllegalArgumentException("ServiceLevel is a Byte, 0..255; was " + level);
        }
        reason = reason == null || reason.isBlank() ? Band.of(level).name().toLowerCase() : reason;
    }

    /** Healthy at 255. */
    public static ServiceLevelStatus healthy() {
        return OK;
    }

    /**
     * Degraded (Part 4, 6.6.2.4.2: 2..199), the server serves but a client that can should prefer a healthier
     * partner.
     *
     * @throws IllegalArgumentException when {@code level} is outside 2..199
     */
    public static ServiceLevelStatus degraded(int level, String reason) {
        if (level < DEGRADED_MIN || level > DEGRADED_MAX) {
            throw new IllegalArgumentException("a Degraded ServiceLevel is 2..199 (Part 4, 6.6.2.4.2); was " + level);
        }
        return new ServiceLevelStatus(level, reason);
    }

    /** NoData (1): the server cannot reach its data. */
    public static ServiceLevelStatus noData(String reason) {
        return new ServiceLevelStatus(NO_DATA, reason);
    }

    /** Maintenance (0): clients shall disconnect. */
    public static ServiceLevelStatus maintenance(String reason) {
        return new ServiceLevelStatus(MAINTENANCE, reason);
    }

    /** The sub-range of this level. */
    public Band band() {
        return Band.of(level);
    }
}
