package dev.opcua.stack.server.subscriptions.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.server.subscriptions.SubscriptionSettings;
import dev.opcua.stack.server.subscriptions.items.MonitoredItemSettings;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * How durable subscriptions are revised (Part 5, 9.3; Part 4, 6.8): the lifetime in hours to at most the
 * maximum (0 asks for it), the lifetimeCount from the hours, and the larger queue maximum.
 */
class DurableSettingsTest {

    private final SubscriptionSettings settings = SubscriptionSettings.DEFAULT;

    @Test
    void defaults_are_24_hours_and_queues_of_10000() {
        assertThat(settings.maxDurableLifetime()).isEqualTo(Duration.ofHours(24));
        assertThat(settings.maxDurableQueueSize()).isEqualTo(10_000);
    }

    @Test
    void the_lifetime_is_revised_never_refused() {
        assertThat(settings.reviseDurableLifetimeHours(5)).isEqualTo(5);
        assertThat(settings.reviseDurableLifetimeHours(24)).isEqualTo(24);
        assertThat(settings.reviseDurableLifetimeHours(25)).isEqualTo(24);
        assertThat(settings.reviseDurableLifetimeHours(0xFFFF_FFFFL)).isEqualTo(24);
        assertThat(settings.reviseDurableLifetimeHours(0)).as("0: the highest lifetime supported").isEqualTo(24);
    }

    @Test
    void the_lifetime_count_is_the_cycles_of_the_hours_and_at_least_three_keep_alives() {
        assertThat(SubscriptionSettings.durableLifetimeCount(2, 100, 10)).isEqualTo(72_000);
        assertThat(SubscriptionSettings.durableLifetimeCount(1, 3_600_000, 10)).isEqualTo(30);
        assertThat(SubscriptionSettings.durableLifetimeCount(1, 7_000, 1)).as("rounded up").isEqualTo(515);
    }

    @Test
    void a_maximum_below_one_hour_or_a_queue_of_0_is_refused() {
        assertThatThrownBy(() -> settings.toBuilder().maxDurableLifetime(Duration.ofMinutes(59)).build())
                .hasMessageContaining("maxDurableLifetime");
        assertThatThrownBy(() -> settings.toBuilder().maxDurableQueueSize(0).build())
                .hasMessageContaining("maxDurableQueueSize");
    }

    @Test
    void durable_subscriptions_are_saved_every_100_ms_by_default_and_a_period_outside_10_ms_to_1_min_is_refused() {
        assertThat(settings.durableSavePeriod()).isEqualTo(Duration.ofMillis(100));
        assertThat(settings.toBuilder().durableSavePeriod(Duration.ofMillis(10)).build().durableSavePeriod())
                .isEqualTo(Duration.ofMillis(10));
        assertThatThrownBy(() -> settings.toBuilder().durableSavePeriod(Duration.ofMillis(9)).build())
                .hasMessageContaining("durableSavePeriod").hasMessageContaining("10 ms to 1 min");
        assertThatThrownBy(() -> settings.toBuilder().durableSavePeriod(Duration.ofMinutes(2)).build())
                .hasMessageContaining("durableSavePeriod");
    }

    @Test
    void the_sequence_reservation_covers_four_save_periods_of_publishing_cycles() {
        assertThat(DurableSubscriptionRecord.sequenceReservation(100, 100, 11)).as("at least the minimum")
                .isEqualTo(DurableSubscriptionRecord.MIN_SEQUENCE_RESERVATION);
        assertThat(DurableSubscriptionRecord.sequenceReservation(10, 1_000, 11)).isEqualTo(4_400);
    }

    @Test
    void durable_items_may_have_the_larger_queue() {
        MonitoredItemSettings items = MonitoredItemSettings.DEFAULT; // data 100, events 100 .. 10,000
        assertThat(items.reviseQueueSize(5_000, 0)).isEqualTo(100);
        assertThat(items.reviseQueueSize(5_000, 2_000)).isEqualTo(2_000);
        assertThat(items.reviseQueueSize(0, 2_000)).isEqualTo(1);
        assertThat(items.reviseEventQueueSize(50_000, 0)).isEqualTo(10_000);
        assertThat(items.reviseEventQueueSize(50_000, 20_000)).isEqualTo(20_000);
        assertThat(items.reviseEventQueueSize(0, 20_000)).as("0: the default").isEqualTo(1_000);
        assertThat(items.reviseEventQueueSize(1, 20_000)).as("1: the minimum").isEqualTo(100);
    }
}
