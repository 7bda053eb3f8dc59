package dev.opcua.stack.server.subscriptions;

import dev.opcua.stack.core.config.InvalidSettingException;
import java.time.Duration;
import java.util.Objects;

/**
 * Limits of the subscriptions a server keeps, and how it revises what CreateSubscription and
 * ModifySubscription ask for (Part 4, 5.13.2 and 5.13.3). Defaults follow {@code opcua.server.subscriptions}
 * of the configuration (DESIGN.md section 6).
 *
 * @param minPublishingInterval the fastest publishing interval; faster requests, 0, negative values
 *        and NaN get it (Part 4, 5.13.2: "the fastest supported publishing interval")
 * @param maxPublishingInterval the slowest publishing interval; slower requests get it
 * @param minKeepAliveCount the smallest revised maxKeepAliveCount; a request of 0 gets it (Part 4,
 *        5.13.2: "the smallest supported keep-alive count")
 * @param maxKeepAliveCount the largest revised maxKeepAliveCount
 * @param maxLifetimeCount the largest revised lifetimeCount; at least three times
 *        {@code maxKeepAliveCount}, because a lifetime is never revised below three keep-alive counts
 * @param maxSubscriptions subscriptions of the whole server (BadTooManySubscriptions beyond)
 * @param maxSubscriptionsPerSession subscriptions of one session (BadTooManySubscriptions beyond)
 * @param maxPublishRequestsPerSession Publish requests one session may park; the oldest is answered
 *        BadTooManyPublishRequests when one more arrives. A session may always park one more than it has
 *        subscriptions (Part 4, 5.13.5: "a Server shall accept more queued Publish requests than created
 *        Subscriptions")
 * @param maxNotificationsPerPublish notifications in one NotificationMessage at most; a client's 0 ("no
 *        limit") or a larger value gets it
 * @param maxRetransmissionQueueSize sent NotificationMessages each subscription keeps for Republish until
 *        acknowledged; the oldest is dropped beyond. 0: no retransmission queue (acknowledgements are
 *        answered GoodRetransmissionQueueNotSupported)
 * @param maxMonitoredItems monitored items of the whole server, 0 = no limit
 * @param maxMonitoredItemsPerSubscription monitored items of one subscription, 0 = no limit
 * @param maxDurableLifetime the longest lifetime of a durable subscription (Part 4, 6.8; Part 5, 9.3
 *        SetSubscriptionDurable): a longer request, and a request of 0 ("the highest lifetime supported"),
 *        is revised to it, in whole hours; at least one hour
 * @param maxDurableQueueSize the largest queue of a monitored item of a durable subscription (Part 4, 6.8:
 *        durable subscriptions "allow much longer lifetimes and queue sizes"); items of other subscriptions
 *        keep the monitored-item settings' maxima
 * @param durableSavePeriod how often the durable subscriptions that changed are saved to their store: what a
 *        crash of the server (kill -9) can lose of what they queued; 10 ms to 1 min. A round of saves that takes
 *        long stretches the period to four times its duration, so that saving takes at most a fifth of the
 *        publishing thread
 */
public record SubscriptionSettings(Duration minPublishingInterval, Duration maxPublishingInterval,
        int minKeepAliveCount, int maxKeepAliveCount, int maxLifetimeCount, int maxSubscriptions,
        int maxSubscriptionsPerSession, int maxPublishRequestsPerSession, int maxNotificationsPerPublish,
        int maxRetransmissionQueueSize, int maxMonitoredItems, int maxMonitoredItemsPerSubscription,
        Duration maxDurableLifetime, int maxDurableQueueSize, Duration durableSavePeriod) {

    /** Publishing interval 100 ms .. 1 h, keep-alive count 1 .. 10,000, lifetime up to 30,000, see {@link Builder}. */
    public static final SubscriptionSettings DEFAULT = builder().build();

    /**
     * @throws InvalidSettingException {@code subscriptionSettings.<component>} when a limit is out of range
     *         or a minimum exceeds its maximum
     */
    public SubscriptionSettings {
        Objects.requireNonNull(minPublishingInterval, "minPublishingInterval");
        Objects.requireNonNull(maxPublishingInterval, "maxPublishingInterval");
        if (minPublishingInterval.isNegative() || minPublishingInterval.isZero()) {
            throw invalid("minPublishingInterval", minPublishingInterval, "must be positive");
        }
        if (maxPublishingInterval.compareTo(minPublishingInterval) < 0) {
            throw invalid("maxPublishingInterval", maxPublishingInterval,
                    "must be at least minPublishingInterval (" + minPublishingInterval + ")");
        }
        positive(minKeepAliveCount, "minKeepAliveCount");
        if (maxKeepAliveCount < minKeepAliveCount) {
            throw invalid("maxKeepAliveCount", maxKeepAliveCount,
                    "must be at least minKeepAliveCount (" + minKeepAliveCount + ")");
        }
        if (maxLifetimeCount < 3L * maxKeepAliveCount) {
            throw invalid("maxLifetimeCount", maxLifetimeCount,
                    "must be at least three times maxKeepAliveCount (" + maxKeepAliveCount + ")");
        }
        positive(maxSubscriptions, "maxSubscriptions");
        positive(maxSubscriptionsPerSession, "maxSubscriptionsPerSession");
        positive(maxPublishRequestsPerSession, "maxPublishRequestsPerSession");
        positive(maxNotificationsPerPublish, "maxNotificationsPerPublish");
        notNegative(maxRetransmissionQueueSize, "maxRetransmissionQueueSize", "must be 0 (no Republish) or more");
        notNegative(maxMonitoredItems, "maxMonitoredItems", "must be 0 (no limit) or more");
        notNegative(maxMonitoredItemsPerSubscription, "maxMonitoredItemsPerSubscription",
                "must be 0 (no limit) or more");
        Objects.requireNonNull(maxDurableLifetime, "maxDurableLifetime");
        if (maxDurableLifetime.toHours() < 1) {
            throw invalid("maxDurableLifetime", maxDurableLifetime, "must be at least one hour");
        }
        positive(maxDurableQueueSize, "maxDurableQueueSize");
        Objects.requireNonNull(durableSavePeriod, "durableSavePeriod");
        if (durableSavePeriod.toMillis() < 10 || durableSavePeriod.compareTo(Duration.ofMinutes(1)) > 0) {
            throw invalid("durableSavePeriod", durableSavePeriod, "must be 10 ms to 1 min");
        }
    }

    private static void positive(int value, String name) {
        if (value < 1) {
            throw invalid(name, value, "must be at least 1");
        }
    }

    private static void notNegative(int value, String name, String rule) {
        if (value < 0) {
            throw invalid(name, value, rule);
        }
    }

    private static InvalidSettingException invalid(String name, Object value, String rule) {
        return new InvalidSettingException("subscriptionSettings." + name, value, rule);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding these settings. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /**
     * The revised publishing interval in milliseconds: clamped to [min, max]; 0, negative values and NaN
     * get the minimum.
     */
    public double revisePublishingInterval(double requestedMillis) {
        double min = minPublishingInterval.toNanos() / 1e6;
        double max = maxPublishingInterval.toNanos() / 1e6;
        if (!(requestedMillis > min)) { // also NaN
            return min;
        }
        return Math.min(requestedMillis, max);
    }

    /** The revised maxKeepAliveCount: 0 gets {@code minKeepAliveCount}, others are clamped to [min, max]. */
    public long reviseMaxKeepAliveCount(long requested) {
        return Math.max(minKeepAliveCount, Math.min(requested, maxKeepAliveCount));
    }

    /**
     * The revised lifetimeCount for a revised keep-alive count: at least three times the keep-alive count
     * (Part 4, 5.13.2), at most {@code maxLifetimeCount}.
     */
    public long reviseLifetimeCount(long requested, long revisedMaxKeepAliveCount) {
        return Math.max(3 * revisedMaxKeepAliveCount, Math.min(requested, maxLifetimeCount));
    }

    /** The notifications per message: a client's 0 ("no limit") or more than the server's maximum get the maximum. */
    public int reviseMaxNotificationsPerPublish(long requested) {
        return requested <= 0 || requested > maxNotificationsPerPublish ? maxNotificationsPerPublish : (int) requested;
    }

    /**
     * The revised lifetime of a durable subscription in hours (Part 5, 9.3 SetSubscriptionDurable; Part 4,
     * 6.8): 0 asks for the highest lifetime supported and gets {@code maxDurableLifetime}, longer requests
     * are revised down to it; never refused.
     *
     * @param requestedHours a UInt32
     */
    public long reviseDurableLifetimeHours(long requestedHours) {
        long max = maxDurableLifetime.toHours();
        return requestedHours <= 0 || requestedHours > max ? max : requestedHours;
    }

    /**
     * The lifetimeCount of a durable subscription (Part 4, 6.8: "the revisedLifetimeInHours is used to set
     * the LifetimeCount"): the publishing cycles in {@code hours}, rounded up, at least three keep-alive counts.
     */
    public static long durableLifetimeCount(long hours, double publishingIntervalMillis, long maxKeepAliveCount) {
        double cycles = Math.ceil(hours * 3_600_000d / Math.max(publishingIntervalMillis, 1e-3));
        long count = cycles >= Long.MAX_VALUE / 2 ? Long.MAX_VALUE / 2 : (long) cycles;
        return Math.max(3 * maxKeepAliveCount, count);
    }

    /** Builds {@link SubscriptionSettings}; every value starts at its default. */
    public static final class Builder {

        private Duration minPublishingInterval = Duration.ofMillis(100);
        private Duration maxPublishingInterval = Duration.ofHours(1);
        private int minKeepAliveCount = 1;
        private int maxKeepAliveCount = 10_000;
        private int maxLifetimeCount = 30_000;
        private int maxSubscriptions = 100;
        private int maxSubscriptionsPerSession = 100;
        private int maxPublishRequestsPerSession = 20;
        private int maxNotificationsPerPublish = 100;
        private int maxRetransmissionQueueSize = 10;
        private int maxMonitoredItems;
        private int maxMonitoredItemsPerSubscription;
        private Duration maxDurableLifetime = Duration.ofHours(24);
        private int maxDurableQueueSize = 10_000;
        private Duration durableSavePeriod = Duration.ofMillis(100);

        private Builder() {
        }

        private Builder(SubscriptionSettings s) {
            minPublishingInterval = s.minPublishingInterval;
            maxPublishingInterval = s.maxPublishingInterval;
            minKeepAliveCount = s.minKeepAliveCount;
            maxKeepAliveCount = s.maxKeepAliveCount;
            maxLifetimeCount = s.maxLifetimeCount;
            maxSubscriptions = s.maxSubscriptions;
            maxSubscriptionsPerSession = s.maxSubscriptionsPerSession;
            maxPublishRequestsPerSession = s.maxPublishRequestsPerSession;
            maxNotificationsPerPublish = s.maxNotificationsPerPublish;
            maxRetransmissionQueueSize = s.maxRetransmissionQueueSize;
            maxMonitoredItems = s.maxMonitoredItems;
            maxMonitoredItemsPerSubscription = s.maxMonitoredItemsPerSubscription;
            maxDurableLifetime = s.maxDurableLifetime;
            maxDurableQueueSize = s.maxDurableQueueSize;
            durableSavePeriod = s.durableSavePeriod;
        }

        /** Default 100 ms (the .NET stack's MinPublishingInterval). */
        public Builder minPublishingInterval(Duration value) {
            minPublishingInterval = value;
            return this;
        }

        /** Default 1 h (MaxPublishingInterval). */
        public Builder maxPublishingInterval(Duration value) {
            maxPublishingInterval = value;
            return this;
        }

        /** Default 1. */
        public Builder minKeepAliveCount(int value) {
            minKeepAliveCount = value;
            return this;
        }

        /** Default 10,000. */
        public Builder maxKeepAliveCount(int value) {
            maxKeepAliveCount = value;
            return this;
        }

        /** Default 30,000. */
        public Builder maxLifetimeCount(int value) {
            maxLifetimeCount = value;
            return this;
        }

        /** Default 100 (MaxSubscriptionCount). */
        public Builder maxSubscriptions(int value) {
            maxSubscriptions = value;
            return this;
        }

        /** Default 100. */
        public Builder maxSubscriptionsPerSession(int value) {
            maxSubscriptionsPerSession = value;
            return this;
        }

        /** Default 20 (MaxPublishRequestCount). */
        public Builder maxPublishRequestsPerSession(int value) {
            maxPublishRequestsPerSession = value;
            return this;
        }

        /** Default 100 (MaxNotificationsPerPublish). */
        public Builder maxNotificationsPerPublish(int value) {
            maxNotificationsPerPublish = value;
            return this;
        }

        /** Default 10 (MaxMessageQueueSize). */
        public Builder maxRetransmissionQueueSize(int value) {
            maxRetransmissionQueueSize = value;
            return this;
        }

        /** Default 0, no limit. */
        public Builder maxMonitoredItems(int value) {
            maxMonitoredItems = value;
            return this;
        }

        /** Default 0, no limit. */
        public Builder maxMonitoredItemsPerSubscription(int value) {
            maxMonitoredItemsPerSubscription = value;
            return this;
        }

        /** Default 24 h: the longest lifetime SetSubscriptionDurable grants (Part 5, 9.3). */
        public Builder maxDurableLifetime(Duration value) {
            maxDurableLifetime = value;
            return this;
        }

        /** Default 10,000: the largest queue of a monitored item of a durable subscription (Part 4, 6.8). */
        public Builder maxDurableQueueSize(int value) {
            maxDurableQueueSize = value;
            return this;
        }

        /** Default 100 ms: how often durable subscriptions that changed are saved (what a crash can lose). */
        public Builder durableSavePeriod(Duration value) {
            durableSavePeriod = value;
            return this;
        }

        /** @throws InvalidSettingException see {@link SubscriptionSettings} */
        public SubscriptionSettings build() {
            return new SubscriptionSettings(minPublishingInterval, maxPublishingInterval, minKeepAliveCount,
                    maxKeepAliveCount, maxLifetimeCount, maxSubscriptions, maxSubscriptionsPerSession,
                    maxPublishRequestsPerSession, maxNotificationsPerPublish, maxRetransmissionQueueSize,
                    maxMonitoredItems, maxMonitoredItemsPerSubscription, maxDurableLifetime, maxDurableQueueSize,
                    durableSavePeriod);
        }
    }
}
