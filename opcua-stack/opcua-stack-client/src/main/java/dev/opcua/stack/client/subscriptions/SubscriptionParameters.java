package dev.opcua.stack.client.subscriptions;

import java.time.Duration;

/**
 * What a subscription asks the server for (CreateSubscription, Part 4, 5.13.2): the server revises
 * the interval and the counts, see {@link ClientSubscription#revisedPublishingInterval()}.
 *
 * @param publishingInterval milliseconds between publishing cycles
 * @param lifetimeCount publishing intervals without a Publish request after which the server deletes
 *        the subscription; at least 3 × maxKeepAliveCount
 * @param maxKeepAliveCount publishing intervals without notifications after which a keep-alive is sent
 * @param maxNotificationsPerPublish most notifications in one NotificationMessage, 0 for no limit; the
 *        client asks the server for at most {@link SubscriptionSettings#maxQueuedNotifications()} ÷
 *        ({@link SubscriptionSettings#maxPublishRequests()} + 1), so that its listener queue can pace the server
 * @param priority relative priority among the session's subscriptions (a Byte, 0..255)
 * @param publishingEnabled whether notifications are sent (SetPublishingMode, 5.13.4)
 * @param durableLifetime null for an ordinary subscription; else the lifetime to ask SetSubscriptionDurable
 *        for (Part 5, 9.3; Part 4, 6.8) right after CreateSubscription, before any monitored item, in whole
 *        hours rounded up: the server keeps the subscription and queues its items' notifications that long
 *        while the client is away, and the client transfers it when it comes back
 */
public record SubscriptionParameters(double publishingInterval, long lifetimeCount, long maxKeepAliveCount,
        long maxNotificationsPerPublish, int priority, boolean publishingEnabled, Duration durableLifetime) {

    /** An ordinary (not durable) subscription. */
    public SubscriptionParameters(double publishingInterval, long lifetimeCount, long maxKeepAliveCount,
            long maxNotificationsPerPublish, int priority, boolean publishingEnabled) {
        this(publishingInterval, lifetimeCount, maxKeepAliveCount, maxNotificationsPerPublish, priority,
                publishingEnabled, null);
    }

    public SubscriptionParameters {
        if (!(publishingInterval >= 0)) {
            throw new IllegalArgumentException("publishingInterval must be >= 0: " + publishingInterval);
        }
        if (lifetimeCount < 0 || maxKeepAliveCount < 0 || maxNotificationsPerPublish < 0) {
            throw new IllegalArgumentException("counts must be >= 0");
        }
        if (priority < 0 || priority > 255) {
            throw new IllegalArgumentException("priority must be 0..255: " + priority);
        }
        if (durableLifetime != null && (durableLifetime.isNegative() || durableLifetime.isZero())) {
            throw new IllegalArgumentException("durableLifetime must be positive: " + durableLifetime);
        }
    }

    /** Whether the subscription is to be made durable. */
    public boolean durable() {
        return durableLifetime != null;
    }

    /** The hours asked of SetSubscriptionDurable: the durable lifetime rounded up to whole hours, 0 when not durable. */
    public long durableLifetimeHours() {
        if (durableLifetime == null) {
            return 0;
        }
        long hours = durableLifetime.toHours();
        return durableLifetime.equals(Duration.ofHours(hours)) ? hours : hours + 1;
    }

    /**
     * These parameters for a durable subscription (Part 4, 6.8) of {@code lifetime} (null: an ordinary one):
     * see {@link #durableLifetime()}.
     */
    public SubscriptionParameters durable(Duration lifetime) {
        return new SubscriptionParameters(publishingInterval, lifetimeCount, maxKeepAliveCount,
                maxNotificationsPerPublish, priority, publishingEnabled, lifetime);
    }

    /** 1000 ms, lifetime 60, keep-alive 10, no limit per Publish, priority 0, publishing. */
    public static SubscriptionParameters defaults() {
        return new SubscriptionParameters(1000, 60, 10, 0, 0, true);
    }

    /** {@link #defaults()} with another publishing interval. */
    public static SubscriptionParameters ofInterval(double publishingIntervalMillis) {
        return defaults().withPublishingInterval(publishingIntervalMillis);
    }

    public SubscriptionParameters withPublishingInterval(double millis) {
        return new SubscriptionParameters(millis, lifetimeCount, maxKeepAliveCount, maxNotificationsPerPublish,
                priority, publishingEnabled, durableLifetime);
    }

    public SubscriptionParameters withCounts(long lifetimeCount, long maxKeepAliveCount) {
        return new SubscriptionParameters(publishingInterval, lifetimeCount, maxKeepAliveCount,
                maxNotificationsPerPublish, priority, publishingEnabled, durableLifetime);
    }

    public SubscriptionParameters withMaxNotificationsPerPublish(long max) {
        return new SubscriptionParameters(publishingInterval, lifetimeCount, maxKeepAliveCount, max, priority,
                publishingEnabled, durableLifetime);
    }

    public SubscriptionParameters withPriority(int priority) {
        return new SubscriptionParameters(publishingInterval, lifetimeCount, maxKeepAliveCount,
                maxNotificationsPerPublish, priority, publishingEnabled, durableLifetime);
    }

    public SubscriptionParameters withPublishingEnabled(boolean enabled) {
        return new SubscriptionParameters(publishingInterval, lifetimeCount, maxKeepAliveCount,
                maxNotificationsPerPublish, priority, enabled, durableLifetime);
    }
}
