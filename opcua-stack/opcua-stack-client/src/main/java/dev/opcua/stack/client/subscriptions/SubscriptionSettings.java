package dev.opcua.stack.client.subscriptions;

import dev.opcua.stack.core.config.InvalidSettingException;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import java.time.Duration;
import java.util.Objects;

/**
 * Options of {@link ClientSubscriptions}: how many Publish requests to keep at the server
 * (Part 4, 5.13.5), how many notifications may wait for slow listeners, the client's request
 * timeout (the margin of the keep-alive watchdog and the least timeoutHint of a Publish).
 */
public final class SubscriptionSettings {

    private static final SubscriptionSettings DEFAULTS = builder().build();

    private final int maxPublishRequests;
    private final int maxQueuedNotifications;
    private final Duration requestTimeout;
    private final Duration publishRetryDelay;
    private final int maxItemsPerRequest;
    private final TimestampsToReturn timestampsToReturn;

    private SubscriptionSettings(Builder b) {
        this.maxPublishRequests = b.maxPublishRequests;
        this.maxQueuedNotifications = b.maxQueuedNotifications;
        this.requestTimeout = b.requestTimeout;
        this.publishRetryDelay = b.publishRetryDelay;
        this.maxItemsPerRequest = b.maxItemsPerRequest;
        this.timestampsToReturn = b.timestampsToReturn;
    }

    public static SubscriptionSettings defaults() {
        return DEFAULTS;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Most Publish requests kept outstanding; the pipeline keeps subscriptions + 1 of them, at least 2,
     * and one more to refill two at a time, at most this, fewer once the server answered
     * BadTooManyPublishRequests.
     */
    public int maxPublishRequests() {
        return maxPublishRequests;
    }

    /**
     * Most notifications of one subscription waiting for its listeners. The client asks each subscription
     * for at most this ÷ ({@link #maxPublishRequests()} + 1) notifications per Publish and holds back Publish
     * requests while the queue has no room for another response, so a backlog waits at the server; only a
     * response larger than the room left is dropped and counted. The queue fills only when listeners run on
     * an executor of their own (the callback threads, or one given): listeners on the I/O thread, the default,
     * take each response as it is read, and a slow one slows the reading of its connection instead.
     */
    public int maxQueuedNotifications() {
        return maxQueuedNotifications;
    }

    /** The client's request timeout: timeoutHint of the other services, margin of the watchdog. */
    public Duration requestTimeout() {
        return requestTimeout;
    }

    /** Pause before a Publish that failed for another reason than a timeout is sent again. */
    public Duration publishRetryDelay() {
        return publishRetryDelay;
    }

    /** Most monitored items in one CreateMonitoredItems when the record is rebuilt. */
    public int maxItemsPerRequest() {
        return maxItemsPerRequest;
    }

    /** Timestamps the data items ask for (Part 4, 7.40). */
    public TimestampsToReturn timestampsToReturn() {
        return timestampsToReturn;
    }

    @Override
    public String toString() {
        return "SubscriptionSettings[maxPublishRequests=" + maxPublishRequests + ", maxQueuedNotifications="
                + maxQueuedNotifications + ", requestTimeout=" + requestTimeout + ", publishRetryDelay="
                + publishRetryDelay + ", maxItemsPerRequest=" + maxItemsPerRequest + ", timestampsToReturn="
                + timestampsToReturn + "]";
    }

    /** Options of {@link SubscriptionSettings}. */
    public static final class Builder {

        private int maxPublishRequests = 10;
        private int maxQueuedNotifications = 10_000;
        private Duration requestTimeout = Duration.ofSeconds(10);
        private Duration publishRetryDelay = Duration.ofSeconds(1);
        private int maxItemsPerRequest = 1000;
        private TimestampsToReturn timestampsToReturn = TimestampsToReturn.Both;

        private Builder() {
        }

        /** Default 10; at least 1. */
        public Builder maxPublishRequests(int maxPublishRequests) {
            this.maxPublishRequests = atLeastOne(maxPublishRequests, "maxPublishRequests");
            return this;
        }

        /** Default 10,000; at least 1. */
        public Builder maxQueuedNotifications(int maxQueuedNotifications) {
            this.maxQueuedNotifications = atLeastOne(maxQueuedNotifications, "maxQueuedNotifications");
            return this;
        }

        /** Default 10 s: should be the client's own request timeout. */
        public Builder requestTimeout(Duration requestTimeout) {
            this.requestTimeout = positive(requestTimeout, "requestTimeout");
            return this;
        }

        /** Default 1 s. */
        public Builder publishRetryDelay(Duration publishRetryDelay) {
            this.publishRetryDelay = positive(publishRetryDelay, "publishRetryDelay");
            return this;
        }

        /** Default 1000; at least 1. */
        public Builder maxItemsPerRequest(int maxItemsPerRequest) {
            this.maxItemsPerRequest = atLeastOne(maxItemsPerRequest, "maxItemsPerRequest");
            return this;
        }

        /** Default Both. */
        public Builder timestampsToReturn(TimestampsToReturn timestampsToReturn) {
            this.timestampsToReturn = Objects.requireNonNull(timestampsToReturn, "timestampsToReturn");
            return this;
        }

        public SubscriptionSettings build() {
            return new SubscriptionSettings(this);
        }

        private static int atLeastOne(int value, String name) {
            if (value < 1) {
                throw new InvalidSettingException("clientSubscriptionSettings." + name, value, "must be at least 1");
            }
            return value;
        }

        private static Duration positive(Duration value, String name) {
            Objects.requireNonNull(value, name);
            if (value.isNegative() || value.isZero()) {
                throw new InvalidSettingException("clientSubscriptionSettings." + name, value, "must be positive");
            }
            return value;
        }
    }
}
