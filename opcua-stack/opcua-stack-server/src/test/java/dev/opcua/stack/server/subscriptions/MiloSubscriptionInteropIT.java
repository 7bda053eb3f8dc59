package dev.opcua.stack.server.subscriptions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;

import dev.opcua.stack.server.testing.LeakWatch;
import dev.opcua.stack.server.testing.MiloClients;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaSubscription;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Eclipse Milo 1.1.2's client subscribes on our subscription services over a real socket (Part 4,
 * 5.13): it creates a subscription without items, receives its keep-alives through parked Publish
 * requests, modifies it, switches publishing off and on, and deletes it.
 */
class MiloSubscriptionInteropIT {

    /** How long a publishing cycle may take to show, and how often the test looks. */
    private static final Duration WAIT = Duration.ofSeconds(5);
    private static final Duration POLL = Duration.ofMillis(10);

    private static SubscriptionServerFixture server;
    private static OpcUaClient client;

    @BeforeAll
    static void start() throws Exception {
        LeakWatch.install();
        server = new SubscriptionServerFixture(SubscriptionSettings.builder()
                .minPublishingInterval(java.time.Duration.ofMillis(50))
                .build());
        client = MiloClients.anonymousOverNone(server.endpointUrl);
    }

    @AfterAll
    static void stop() throws Exception {
        if (client != null) {
            client.disconnect();
        }
        if (server != null) {
            server.close();
        }
        LeakWatch.assertNoLeaks();
    }

    @Test
    void milo_creates_a_subscription_receives_keep_alives_modifies_and_deletes_it() throws Exception {
        AtomicInteger keepAlives = new AtomicInteger();
        OpcUaSubscription subscription = new OpcUaSubscription(client, 50.0);
        subscription.setLifetimeAndKeepAliveCalculated(false);
        subscription.setMaxKeepAliveCount(uint(2));
        subscription.setLifetimeCount(uint(60));
        subscription.setSubscriptionListener(new OpcUaSubscription.SubscriptionListener() {
            @Override
            public void onKeepAliveReceived(OpcUaSubscription s) {
                keepAlives.incrementAndGet();
            }
        });

        subscription.create();

        long id = subscription.getSubscriptionId().orElseThrow().longValue();
        assertThat(id).isPositive();
        assertThat(subscription.getRevisedPublishingInterval()).contains(50.0);
        assertThat(subscription.getRevisedMaxKeepAliveCount()).contains(uint(2));
        assertThat(subscription.getRevisedLifetimeCount()).contains(uint(60));
        assertThat(server.subscriptions.subscriptionCount()).isEqualTo(1);
        await("keep-alives arrive").atMost(WAIT).pollInterval(POLL).until(() -> keepAlives.get() >= 3);
        assertThat(server.statistics.keepAlivesSent()).isGreaterThanOrEqualTo(3);
        await("Milo parks Publish requests").atMost(WAIT).pollInterval(POLL)
                .until(() -> server.statistics.parkedPublishRequests() > 0);

        subscription.setPublishingInterval(100.0);
        subscription.setMaxKeepAliveCount(uint(3));
        subscription.modify();
        assertThat(subscription.getRevisedPublishingInterval()).contains(100.0);
        assertThat(subscription.getRevisedMaxKeepAliveCount()).contains(uint(3));
        Subscription ours = server.subscriptions.subscription(id);
        assertThat(ours.publishingIntervalMillis()).isEqualTo(100.0);
        assertThat(ours.maxKeepAliveCount()).isEqualTo(3);
        int before = keepAlives.get();
        await("keep-alives continue after the modification").atMost(WAIT).pollInterval(POLL)
                .until(() -> keepAlives.get() >= before + 2);

        subscription.setPublishingMode(false);
        assertThat(ours.publishingEnabled()).isFalse();
        int disabled = keepAlives.get();
        await("keep-alives continue with publishing disabled").atMost(WAIT).pollInterval(POLL)
                .until(() -> keepAlives.get() >= disabled + 1);
        subscription.setPublishingMode(true);

        subscription.delete();

        assertThat(server.subscriptions.subscriptionCount()).isZero();
        assertThat(server.items.of(id).deleteAllCalls).isEqualTo(1);
        assertThat(server.statistics.publishRequestsTimedOut()).isZero();
    }
}
