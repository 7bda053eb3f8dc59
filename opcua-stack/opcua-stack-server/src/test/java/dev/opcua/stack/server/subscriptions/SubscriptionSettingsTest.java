package dev.opcua.stack.server.subscriptions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The limits and the revision rules of CreateSubscription and ModifySubscription (Part 4, 5.13.2). */
class SubscriptionSettingsTest {

    private final SubscriptionSettings settings = SubscriptionSettings.DEFAULT;

    @Test
    void defaults_are_those_of_the_configuration() {
        assertThat(settings.minPublishingInterval()).isEqualTo(Duration.ofMillis(100));
        assertThat(settings.maxPublishingInterval()).isEqualTo(Duration.ofHours(1));
        assertThat(settings.maxSubscriptions()).isEqualTo(100);
        assertThat(settings.maxSubscriptionsPerSession()).isEqualTo(100);
        assertThat(settings.maxPublishRequestsPerSession()).isEqualTo(20);
        assertThat(settings.maxNotificationsPerPublish()).isEqualTo(100);
        assertThat(settings.maxRetransmissionQueueSize()).isEqualTo(10);
        assertThat(settings.maxMonitoredItems()).isZero();
        assertThat(settings.maxMonitoredItemsPerSubscription()).isZero();
        assertThat(settings.minKeepAliveCount()).isEqualTo(1);
        assertThat(settings.maxKeepAliveCount()).isEqualTo(10_000);
        assertThat(settings.maxLifetimeCount()).isEqualTo(30_000);
    }

    @Test
    void the_publishing_interval_is_clamped_and_zero_negative_or_na_n_get_the_fastest() {
        assertThat(settings.revisePublishingInterval(500)).isEqualTo(500);
        assertThat(settings.revisePublishingInterval(10)).isEqualTo(100);
        assertThat(settings.revisePublishingInterval(0)).isEqualTo(100);
        assertThat(settings.revisePublishingInterval(-5)).isEqualTo(100);
        assertThat(settings.revisePublishingInterval(Double.NaN)).isEqualTo(100);
        assertThat(settings.revisePublishingInterval(10 * 3_600_000d)).isEqualTo(3_600_000);
        assertThat(settings.revisePublishingInterval(Double.POSITIVE_INFINITY)).isEqualTo(3_600_000);
    }

    @Test
    void a_keep_alive_count_of_zero_gets_the_smallest_and_others_are_clamped() {
        assertThat(settings.reviseMaxKeepAliveCount(0)).isEqualTo(1);
        assertThat(settings.reviseMaxKeepAliveCount(10)).isEqualTo(10);
        assertThat(settings.reviseMaxKeepAliveCount(0xFFFF_FFFFL)).isEqualTo(10_000);
        SubscriptionSettings three = settings.toBuilder().minKeepAliveCount(3).build();
        assertThat(three.reviseMaxKeepAliveCount(0)).isEqualTo(3);
        assertThat(three.reviseMaxKeepAliveCount(2)).isEqualTo(3);
    }

    @Test
    void the_lifetime_is_at_least_three_keep_alive_counts_and_at_most_the_maximum() {
        assertThat(settings.reviseLifetimeCount(0, 10)).isEqualTo(30);
        assertThat(settings.reviseLifetimeCount(29, 10)).isEqualTo(30);
        assertThat(settings.reviseLifetimeCount(100, 10)).isEqualTo(100);
        assertThat(settings.reviseLifetimeCount(0xFFFF_FFFFL, 10)).isEqualTo(30_000);
        assertThat(settings.reviseLifetimeCount(0xFFFF_FFFFL, 10_000)).isEqualTo(30_000);
    }

    @Test
    void zero_notifications_per_publish_means_the_servers_maximum() {
        assertThat(settings.reviseMaxNotificationsPerPublish(0)).isEqualTo(100);
        assertThat(settings.reviseMaxNotificationsPerPublish(5)).isEqualTo(5);
        assertThat(settings.reviseMaxNotificationsPerPublish(1000)).isEqualTo(100);
        assertThat(settings.reviseMaxNotificationsPerPublish(0xFFFF_FFFFL)).isEqualTo(100);
    }

    @Test
    void inconsistent_limits_are_refused_with_their_name() {
        assertThatThrownBy(() -> settings.toBuilder().minPublishingInterval(Duration.ZERO).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("minPublishingInterval");
        assertThatThrownBy(() -> settings.toBuilder().maxPublishingInterval(Duration.ofMillis(50)).build())
                .hasMessageContaining("maxPublishingInterval");
        assertThatThrownBy(() -> settings.toBuilder().minKeepAliveCount(0).build())
                .hasMessageContaining("minKeepAliveCount");
        assertThatThrownBy(() -> settings.toBuilder().maxLifetimeCount(29_999).build())
                .hasMessageContaining("maxLifetimeCount");
        assertThatThrownBy(() -> settings.toBuilder().maxSubscriptions(0).build())
                .hasMessageContaining("maxSubscriptions");
        assertThatThrownBy(() -> settings.toBuilder().maxPublishRequestsPerSession(0).build())
                .hasMessageContaining("maxPublishRequestsPerSession");
        assertThatThrownBy(() -> settings.toBuilder().maxNotificationsPerPublish(0).build())
                .hasMessageContaining("maxNotificationsPerPublish");
        assertThatThrownBy(() -> settings.toBuilder().maxRetransmissionQueueSize(-1).build())
                .hasMessageContaining("maxRetransmissionQueueSize");
        assertThat(settings.toBuilder().build()).isEqualTo(settings);
    }
}
