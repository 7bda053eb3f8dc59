package dev.opcua.stack.server.subscriptions.items;

import dev.opcua.stack.core.config.InvalidSettingException;

/**
 * Bounds the server puts on the parameters a client asks for (Part 4, 5.12.1.4 sampling interval,
 * 5.12.1.5 queue size; Part 4, 7.21 MonitoringParameters).
 *
 * @param minSamplingInterval fastest sampling in ms: what 0 ("as fast as practical") and anything
 *        faster are revised to, unless the item's node manager pushes changes
 * @param maxSamplingInterval slowest sampling in ms; slower requests are revised down to it
 * @param maxQueueSize largest queue of one data-change item; a requested size of 0 is revised to 1
 * @param minEventQueueSize smallest queue of an event item, what a request of 1 is revised to (Part 4,
 *        7.21: "the minimum queue size the Server requires for Event Notifications"): events come in
 *        bursts, and a queue of one would lose all but the last of a burst between two publishes
 * @param defaultEventQueueSize queue of an event item whose client asks for 0 (Part 4, 7.21: "the
 *        default queue size for Event Notifications")
 * @param maxEventQueueSize largest queue of one event item
 */
public record MonitoredItemSettings(double minSamplingInterval, double maxSamplingInterval, int maxQueueSize,
        int minEventQueueSize, int defaultEventQueueSize, int maxEventQueueSize) {

    /**
     * 10 ms .. 1 h, data queues of at most 100 notifications, event queues of 100 .. 10,000, 1,000 by
     * default.
     */
    public static final MonitoredItemSettings DEFAULT =
            new MonitoredItemSettings(10, 3_600_000, 100, 100, 1_000, 10_000);

    /**
     * @throws InvalidSettingException {@code monitoredItemSettings.<component>} unless 0 < min <= max
     *         sampling interval (finite), maxQueueSize >= 1 and 1 <= min <= default <= max event queue size
     */
    public MonitoredItemSettings {
        if (!(minSamplingInterval > 0) || Double.isInfinite(minSamplingInterval)) {
            throw invalid("minSamplingInterval", minSamplingInterval, "must be a positive number of milliseconds");
        }
        if (!(maxSamplingInterval >= minSamplingInterval) || Double.isInfinite(maxSamplingInterval)) {
            throw invalid("maxSamplingInterval", maxSamplingInterval,
                    "must be finite and at least minSamplingInterval (" + minSamplingInterval + " ms)");
        }
        if (maxQueueSize < 1) {
            throw invalid("maxQueueSize", maxQueueSize, "must be at least 1");
        }
        if (minEventQueueSize < 1) {
            throw invalid("minEventQueueSize", minEventQueueSize, "must be at least 1");
        }
        if (defaultEventQueueSize < minEventQueueSize) {
            throw invalid("defaultEventQueueSize", defaultEventQueueSize,
                    "must be at least minEventQueueSize (" + minEventQueueSize + ")");
        }
        if (maxEventQueueSize < defaultEventQueueSize) {
            throw invalid("maxEventQueueSize", maxEventQueueSize,
                    "must be at least defaultEventQueueSize (" + defaultEventQueueSize + ")");
        }
    }

    private static InvalidSettingException invalid(String name, Object value, String rule) {
        return new InvalidSettingException("monitoredItemSettings." + name, value, rule);
    }

    /** Data-change bounds with the default event queue sizes (100 .. 10,000, 1,000 by default). */
    public MonitoredItemSettings(double minSamplingInterval, double maxSamplingInterval, int maxQueueSize) {
        this(minSamplingInterval, maxSamplingInterval, maxQueueSize, 100, 1_000, 10_000);
    }

    /**
     * The revised sampling interval (Part 4, 5.12.1.4): a negative (or NaN) request takes the
     * subscription's publishing interval; 0 is kept for an item whose node manager pushes changes
     * and otherwise means the minimum; the result is clamped to [min, max].
     */
    public double reviseSamplingInterval(double requested, double publishingInterval, boolean pushed) {
        double interval = requested;
        if (!(interval >= 0)) {
            interval = publishingInterval;
        } else if (interval == 0 && pushed) {
            return 0;
        }
        if (!(interval >= minSamplingInterval)) { // also NaN from a broken publishing interval
            return minSamplingInterval;
        }
        return Math.min(interval, maxSamplingInterval);
    }

    /** The revised queue size (Part 4, 5.12.1.5): 0 becomes 1, the maximum caps the rest (UInt32 requests). */
    public int reviseQueueSize(long requested) {
        if (requested <= 1) {
            return 1;
        }
        return (int) Math.min(requested, maxQueueSize);
    }

    /**
     * {@link #reviseQueueSize(long)} for an item of a subscription whose queues may be larger: a durable
     * one (Part 4, 6.8), whose limit {@code durableMax} replaces the maximum when larger.
     */
    public int reviseQueueSize(long requested, int durableMax) {
        if (requested <= 1) {
            return 1;
        }
        return (int) Math.min(requested, Math.max(maxQueueSize, durableMax));
    }

    /** {@link #reviseEventQueueSize(long)} with the larger maximum of a durable subscription (Part 4, 6.8). */
    public int reviseEventQueueSize(long requested, int durableMax) {
        if (durableMax <= maxEventQueueSize || (requested >= 0 && requested <= maxEventQueueSize)) {
            return reviseEventQueueSize(requested);
        }
        return (int) (requested < 0 ? durableMax : Math.min(requested, durableMax));
    }

    /**
     * The revised queue size of an event item (Part 4, 7.21): 0 is the default event queue size; the
     * rest is clamped to [min, max], so 1 asks for the minimum and 0xFFFFFFFF for the maximum.
     */
    public int reviseEventQueueSize(long requested) {
        if (requested == 0) {
            return defaultEventQueueSize;
        }
        if (requested < 0) { // no UInt32 is negative; a caller passing a raw int overflowed
            return maxEventQueueSize;
        }
        return (int) Math.max(minEventQueueSize, Math.min(requested, maxEventQueueSize));
    }
}
