package dev.opcua.stack.server.subscriptions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionRecord;
import dev.opcua.stack.server.subscriptions.durable.InMemoryDurableSubscriptionStore;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Durable subscriptions (Part 4, 6.8) are saved every durable save period, on the publishing clock: what a crash can
 * lose is at most that period old.
 */
class DurableSavePeriodTest {

    @Test
    void a_changed_durable_subscription_is_saved_when_its_save_period_ends_and_not_before() {
        InMemoryDurableSubscriptionStore store = new InMemoryDurableSubscriptionStore();
        SubscriptionSettings settings = SubscriptionSettings.builder().durableSavePeriod(Duration.ofMillis(250))
                .build();
        try (SubscriptionBench bench = new SubscriptionBench(settings, store)) {
            SubscriptionBench.Client client = bench.open(1, null);
            long id = bench.create(client);
            bench.manager.setSubscriptionDurable(client.session(), id, 2);

            bench.clock.advanceMillis(249);
            assertThat(store.size()).as("before the period ends").isZero();
            bench.clock.advanceMillis(1);

            assertThat(store.loadAll()).singleElement().satisfies(record -> {
                assertThat(record.subscriptionId()).isEqualTo(id);
                assertThat(record.durableLifetimeHours()).isEqualTo(2);
                assertThat(record.nextSequenceNumber()).as("past the reservation for four periods")
                        .isEqualTo(1 + DurableSubscriptionRecord.MIN_SEQUENCE_RESERVATION);
            });
        }
    }
}
