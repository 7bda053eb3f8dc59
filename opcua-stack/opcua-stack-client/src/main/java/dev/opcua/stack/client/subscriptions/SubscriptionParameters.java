package dev.opcua.stack.client.subscriptions;

/**
 * What a subscription asks the server for (CreateSubscription, Part 4, 5.13.2): the server revises
 * the interval and the counts, see {@link ClientSubscription#revisedPublishingInterval()}.
 *
 * @param publishingInterval milliseconds between publishing cycles
 * @param lifetimeCount publishing intervals without a Publish request after which the server deletes
 *        the subscription; at least 3 × maxKeepAliveCount
 * @param maxKeepAliveCount publishing intervals without notifications after which a keep-alive is sent
 * @param maxNotificationsPerPublish most notifications in one NotificationMessage, 0 for no limit
 * @param priority relative priority among the session's subscriptions (a Byte, 0..255)
 * @param publishingEnabled whether notifications are sent (SetPublishingMode, 5.13.4)
 */
public record SubscriptionParameters(double publishingInterval, long lifetimeCount, long maxKeepAliveCount,
        long maxNotificationsPerPublish, int priority, boolean publishingEnabled) {

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
                priority, publishingEnabled);
    }

    public SubscriptionParameters withCounts(long lifetimeCount, long maxKeepAliveCount) {
        return new SubscriptionParameters(publishingInterval, lifetimeCount, maxKeepAliveCount,
                maxNotificationsPerPublish, priority, publishingEnabled);
    }

    public SubscriptionParameters withMaxNotificationsPerPublish(long max) {
        return new SubscriptionParameters(publishingInterval, lifetimeCount, maxKeepAliveCount, max, priority,
                publishingEnabled);
    }

    public SubscriptionParameters withPriority(int priority) {
        return new SubscriptionParameters(publishingInterval, lifetimeCount, maxKeepAliveCount,
                maxNotificationsPerPublish, priority, publishingEnabled);
    }

    public SubscriptionParameters withPublishingEnabled(boolean enabled) {
        return new SubscriptionParameters(publishingInterval, lifetimeCount, maxKeepAliveCount,
                maxNotificationsPerPublish, priority, enabled);
    }
}
