package dev.opcua.stack.server.subscriptions.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.client.subscriptions.ClientSubscription;
import dev.opcua.stack.client.subscriptions.DataItemRequest;
import dev.opcua.stack.client.subscriptions.SubscriptionParameters;
import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.core.types.structured.CloseSessionRequest;
import dev.opcua.stack.core.types.structured.CloseSessionResponse;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.session.Identity;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A real server and client: a durable subscription whose session closed while a value changed 200 times is
 * saved, with its 200 queued values in order, to the server's {@link DurableSubscriptionStore} when the server
 * closes; an ordinary subscription is not; a durable one deleted by its client leaves the store.
 */
class DurableSnapshotOnCloseTest {

    private static final int OUTAGE_CHANGES = 200;

    @Test
    void close_saves_the_durable_subscription_with_everything_it_queued_and_nothing_else() throws Exception {
        InMemoryDurableSubscriptionStore store = new InMemoryDurableSubscriptionStore();
        PushedCounter counters = new PushedCounter();
        OpcUaServer server = DurableRestartScenario.durableServer("urn:test:durable:snapshot",
                        "durable snapshot test server", 0, store)
                .nodeManager(counters)
                .build()
                .start();
        ClientResources resources = ClientResources.builder().ioThreads(1).build();
        OpcUaClient client = null;
        try {
            counters.start(server.namespaces().indexOf(PushedCounter.NS), server.dataChanges(), "Durable", "Ordinary",
                    "Deleted");
            client = OpcUaClient.create(OpcUaClientConfig.builder(server.endpointUrl())
                    .applicationUri("urn:test:durable:client").applicationName("durable snapshot client")
                    .resources(resources).requestTimeout(Duration.ofSeconds(5))
                    .reconnectDelays(Duration.ofMinutes(5), Duration.ofMinutes(5)).build());
            client.connect().get(10, TimeUnit.SECONDS);
            List<Integer> seen = Collections.synchronizedList(new ArrayList<>());
            ClientSubscription durable = client.createSubscription(SubscriptionParameters.ofInterval(50)
                    .durable(Duration.ofHours(2))).get(10, TimeUnit.SECONDS);
            durable.createDataItem(DataItemRequest.of(counters.nodeId("Durable"), 0,
                    (item, value) -> seen.add((Integer) value.value().value())).withQueue(OUTAGE_CHANGES * 2, true))
                    .get(10, TimeUnit.SECONDS);
            ClientSubscription ordinary = client.createSubscription(SubscriptionParameters.ofInterval(50))
                    .get(10, TimeUnit.SECONDS);
            ordinary.createDataItem(DataItemRequest.of(counters.nodeId("Ordinary"), 0, (item, value) -> { })
                    .withQueue(OUTAGE_CHANGES * 2, true)).get(10, TimeUnit.SECONDS);
            ClientSubscription deleted = client.createSubscription(SubscriptionParameters.ofInterval(50)
                    .durable(Duration.ofHours(1))).get(10, TimeUnit.SECONDS);
            deleted.createDataItem(DataItemRequest.of(counters.nodeId("Deleted"), 0, (item, value) -> { }))
                    .get(10, TimeUnit.SECONDS);
            for (int i = 1; i <= 10; i++) {
                counters.set("Durable", i);
                counters.set("Ordinary", i);
            }
            await().atMost(Duration.ofSeconds(20)).until(() -> seen.contains(10));
            // the periodic snapshot saves both durable subscriptions while they live
            await().atMost(Duration.ofSeconds(10)).until(() -> store.size() == 2);
            deleted.delete().get(10, TimeUnit.SECONDS);
            assertThat(store.loadAll()).extracting(DurableSubscriptionRecord::subscriptionId)
                    .as("deleting a durable subscription removes it from the store")
                    .containsExactly(durable.subscriptionId());

            // the response comes before the BadSessionClosed answers of the Publish requests
            client.request(h -> new CloseSessionRequest(h, true), CloseSessionResponse.class).get(10, TimeUnit.SECONDS);
            for (int i = 11; i <= 10 + OUTAGE_CHANGES; i++) {
                counters.set("Durable", i);
                counters.set("Ordinary", i);
            }
            server.close();

            List<DurableSubscriptionRecord> saved = store.loadAll();
            assertThat(saved).singleElement().satisfies(record -> {
                assertThat(record.subscriptionId()).isEqualTo(durable.subscriptionId());
                assertThat(record.owner()).isEqualTo(Identity.ANONYMOUS);
                assertThat(record.durableLifetimeHours()).isEqualTo(2);
                assertThat(record.publishingInterval()).isEqualTo(50.0);
                assertThat(record.nextSequenceNumber()).isGreaterThan(1);
                assertThat(record.expiresAtMillis()).isGreaterThan(System.currentTimeMillis()
                        + Duration.ofMinutes(110).toMillis());
                assertThat(record.items()).singleElement().satisfies(item -> {
                    assertThat(item.clientHandle()).isNotZero();
                    assertThat(item.itemToMonitor().nodeId()).isEqualTo(counters.nodeId("Durable"));
                    assertThat(item.queueSize()).isEqualTo(OUTAGE_CHANGES * 2);
                    List<Object> expected = new ArrayList<>();
                    for (int i = 11; i <= 10 + OUTAGE_CHANGES; i++) {
                        expected.add(i);
                    }
                    assertThat(item.queuedValues()).extracting(v -> v.value().value())
                            .as("every value queued during the outage, in order").isEqualTo(expected);
                    assertThat(item.lastValue().value().value()).isEqualTo(10 + OUTAGE_CHANGES);
                });
            });
        } finally {
            if (client != null) {
                client.close();
            }
            server.close();
            resources.close();
        }
    }
}
