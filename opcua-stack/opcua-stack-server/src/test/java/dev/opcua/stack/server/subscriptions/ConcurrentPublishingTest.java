package dev.opcua.stack.server.subscriptions;

import static dev.opcua.stack.server.subscriptions.SubscriptionBench.ack;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.structured.DataChangeNotification;
import dev.opcua.stack.core.types.structured.MonitoredItemNotification;
import dev.opcua.stack.core.types.structured.PublishResponse;
import dev.opcua.stack.core.types.structured.SubscriptionAcknowledgement;
import dev.opcua.stack.server.subscriptions.CapturingChannel.Answer;
import dev.opcua.stack.server.subscriptions.FakeItems.Item;
import dev.opcua.stack.server.subscriptions.SubscriptionBench.Client;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The production publishing thread against items reporting from several threads at once, while the
 * test thread plays the event loop that parks Publish requests: every notification arrives once, in
 * order per item, in consecutive sequence numbers, sent from {@code opcua-publisher}.
 */
class ConcurrentPublishingTest {

    private static final int ITEMS = 8;
    private static final int VALUES = 2_000;

    private final SubscriptionBench bench = new SubscriptionBench(SubscriptionSettings.builder()
            .minPublishingInterval(Duration.ofMillis(5))
            .maxNotificationsPerPublish(50)
            .build(), true);
    private final Client client = bench.open(1, "alice");

    @AfterEach
    void close() {
        bench.close();
    }

    @Test
    void notifications_reported_from_many_threads_arrive_once_and_in_order() throws Exception {
        long id = bench.create(client, 5, 3000, 10, 0).subscriptionId();
        List<Item> items = new ArrayList<>();
        for (int i = 0; i < ITEMS; i++) {
            items.add(bench.items.of(id).add(i));
        }
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> producers = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            List<Item> mine = items.subList(t * 2, t * 2 + 2);
            Thread producer = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int v = 0; v < VALUES; v++) {
                    mine.get(v % 2).report(1);
                    mine.get((v + 1) % 2).report(1);
                    if (v % 100 == 0) {
                        Thread.yield();
                    }
                }
            }, "test-producer-" + t);
            producers.add(producer);
            producer.start();
        }
        for (int i = 0; i < 5; i++) {
            bench.publish(client);
        }
        start.countDown();

        // the test thread plays the event loop: it takes the answers and sends the next Publish requests
        Subscriber subscriber = new Subscriber(id);
        await("every notification").atMost(Duration.ofSeconds(10)).pollInSameThread().pollInterval(Duration.ofMillis(1))
                .until(subscriber::receivedAll);
        for (Thread producer : producers) {
            producer.join(5_000);
        }

        assertThat(subscriber.total).isEqualTo(ITEMS * VALUES);
        assertThat(subscriber.received).hasSize(ITEMS);
        for (List<Integer> values : subscriber.received.values()) {
            assertThat(values).hasSize(VALUES).isSorted().doesNotHaveDuplicates();
        }
        for (int i = 0; i < subscriber.sequenceNumbers.size(); i++) {
            assertThat(subscriber.sequenceNumbers.get(i)).isEqualTo(i + 1L);
        }
        assertThat(bench.statistics.notificationsSent()).isEqualTo(ITEMS * VALUES);
    }

    /** The client's side of the conversation, on the test thread: what arrived per item and in which message. */
    private final class Subscriber {
        final Map<Long, List<Integer>> received = new HashMap<>();
        final List<Long> sequenceNumbers = new ArrayList<>();
        int total;
        private final long subscriptionId;

        Subscriber(long subscriptionId) {
            this.subscriptionId = subscriptionId;
        }

        /**
         * Takes the answers sent so far and sends one Publish for each (the first acknowledges them); true once
         * every notification has arrived.
         */
        boolean receivedAll() {
            List<Answer> answers = client.channel().take();
            List<SubscriptionAcknowledgement> acks = new ArrayList<>();
            for (Answer answer : answers) {
                PublishResponse response = answer.publish();
                if (response.notificationMessage().notificationData().length == 0) {
                    continue; // keep-alive
                }
                assertThat(answer.thread()).isEqualTo(ExecutorPublishingScheduler.THREAD_NAME);
                sequenceNumbers.add(response.notificationMessage().sequenceNumber());
                acks.add(ack(subscriptionId, response.notificationMessage().sequenceNumber()));
                for (ExtensionObject data : response.notificationMessage().notificationData()) {
                    for (MonitoredItemNotification n : ((DataChangeNotification) data.decoded()).monitoredItems()) {
                        received.computeIfAbsent(n.clientHandle(), k -> new ArrayList<>())
                                .add((Integer) n.value().value().value());
                        total++;
                    }
                }
            }
            for (int i = 0; i < answers.size(); i++) {
                bench.publish(client, i == 0 ? acks.toArray(new SubscriptionAcknowledgement[0])
                        : new SubscriptionAcknowledgement[0]);
            }
            return total >= ITEMS * VALUES;
        }
    }
}
