package dev.opcua.stack.server.subscriptions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.client.subscriptions.ClientSubscription;
import dev.opcua.stack.client.subscriptions.ClientSubscriptions;
import dev.opcua.stack.client.subscriptions.DataItemRequest;
import dev.opcua.stack.client.subscriptions.SubscriptionParameters;
import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.subscriptions.durable.PushedCounter;
import dev.opcua.stack.server.subscriptions.items.MonitoredItemSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Our client against our server over a socket: a backlog six times the client's listener queue, released
 * to a stalled, then slow, listener, waits in the server's item queue while the client holds back its
 * Publish requests (Part 4, 5.13.1.1), and every value arrives, in order, none dropped.
 */
class ClientPublishHoldBackIT {

    private static final int CLIENT_QUEUE = 500;
    private static final int BACKLOG = 3_000;

    @Test
    void a_backlog_larger_than_the_client_queue_reaches_a_slow_listener_whole_and_in_order() throws Exception {
        PushedCounter counter = new PushedCounter();
        OpcUaServer server = OpcUaServer.builder()
                .applicationUri("urn:test:holdback:server").applicationName("hold-back test server")
                .bindAddress("127.0.0.1").port(0).hostnames(List.of("localhost"))
                .security(List.of(EndpointSecurity.NONE))
                .subscriptionSettings(SubscriptionSettings.builder().minPublishingInterval(Duration.ofMillis(20)).build())
                .monitoredItemSettings(new MonitoredItemSettings(10, 3_600_000, BACKLOG * 2))
                .nodeManager(counter)
                .build()
                .start();
        ClientResources resources = ClientResources.builder().ioThreads(1).build();
        OpcUaClient client = null;
        try {
            counter.start(server.namespaces().indexOf(PushedCounter.NS), server.dataChanges(), "Burst");
            client = OpcUaClient.create(OpcUaClientConfig.builder(server.endpointUrl())
                    .applicationUri("urn:test:holdback:client").applicationName("hold-back test client")
                    .resources(resources).requestTimeout(Duration.ofSeconds(5))
                    // a listener that stalls belongs on the callback threads; on the I/O thread it stalls the reads
                    .listenersOnCallbackThreads()
                    .subscriptionSettings(dev.opcua.stack.client.subscriptions.SubscriptionSettings.builder()
                            .maxQueuedNotifications(CLIENT_QUEUE).requestTimeout(Duration.ofSeconds(5)).build())
                    .build());
            client.connect().get(10, TimeUnit.SECONDS);
            ClientSubscriptions subscriptions = client.subscriptions();
            CountDownLatch stalled = new CountDownLatch(1);
            List<Integer> seen = Collections.synchronizedList(new ArrayList<>());
            ClientSubscription subscription = client.createSubscription(SubscriptionParameters.ofInterval(50))
                    .get(10, TimeUnit.SECONDS);
            subscription.createDataItem(DataItemRequest.of(counter.nodeId("Burst"), 0, (item, value) -> {
                awaitQuietly(stalled);
                LockSupport.parkNanos(50_000); // slower than the server sends
                seen.add((Integer) value.value().value());
            }).withQueue(BACKLOG * 2, true)).get(10, TimeUnit.SECONDS);

            for (int i = 1; i <= BACKLOG; i++) {
                counter.set("Burst", i);
            }
            await().atMost(Duration.ofSeconds(10)).until(subscriptions::isPublishHeldBack);
            assertThat(subscription.queuedNotifications()).as("the client's queue is bounded")
                    .isLessThanOrEqualTo(CLIENT_QUEUE);
            stalled.countDown();

            await().atMost(Duration.ofSeconds(30)).until(() -> seen.size() > BACKLOG);
            List<Integer> expected = new ArrayList<>();
            for (int i = 0; i <= BACKLOG; i++) {
                expected.add(i);
            }
            assertThat(seen).as("the initial value and every change, in order").isEqualTo(expected);
            assertThat(subscriptions.droppedNotifications()).isZero();
            assertThat(subscriptions.lostSequenceNumbers()).isZero();
            assertThat(subscriptions.publishHoldBacks()).isPositive();
            await().atMost(Duration.ofSeconds(10)).until(() -> !subscriptions.isPublishHeldBack()
                    && subscriptions.publishRequestsOutstanding() >= subscriptions.publishRequestTarget());
        } finally {
            if (client != null) {
                client.close();
            }
            server.close();
            resources.close();
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
