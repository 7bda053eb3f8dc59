package dev.opcua.stack.server.subscriptions.items;

/**
 * Bounds the server puts on the parameters a client asks for (Part 4, 5.12.1.4 sampling interval,
 * 5.12.1.5 queue size; Part 4, 7.21 MonitoringParameters).
 *
 * @param minSamplingInterval fastest sampling in ms: what 0 ("as fast as practical") and anything
 *        faster are revised to, unless the item's node manager pushes changes
 * @param maxSamplingInterval slowest sampling in ms; slower requests are revised down to it
 * @param maxQueueSize largest queue of one item; a requested size of 0 is revised to 1
 */
public record MonitoredItemSettings(double minSamplingInterval, double maxSamplingInterval, int maxQueueSize) {

    /** 10 ms .. 1 h, queues of at most 100 notifications. */
    public static final MonitoredItemSettings DEFAULT = new MonitoredItemSettings(10, 3_600_000, 100);

    public MonitoredItemSettings {
        if (!(minSamplingInterval > 0) || !(maxSamplingInterval >= minSamplingInterval)
                || Double.isInfinite(maxSamplingInterval)) {
            throw new IllegalArgumentException("sampling intervals must be 0 < min <= max (finite), were "
                    + minSamplingInterval + " and " + maxSamplingInterval);
        }
        if (maxQueueSize < 1) {
            throw new IllegalArgumentException("maxQueueSize must be >= 1, was " + maxQueueSize);
        }
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
}
