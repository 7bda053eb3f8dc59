package dev.opcua.stack.client.subscriptions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.types.structured.CreateSubscriptionRequest;
import dev.opcua.stack.core.types.structured.PublishRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Flow control of the Publish pipeline by the listener queues ({@link PublishHoldBack}): the test plays
 * the server, queues the listeners' work and runs it when it chooses. A queue of 10 and at most 3
 * notifications per Publish (10 ÷ (2 Publish requests + 1)): room for 3 responses when empty.
 */
class PublishHoldBackTest extends ScriptedServerFixture {

    private final List<Object> values = new ArrayList<>();
    /** Publish requests at the server when each value reached the listener. */
    private final List<Integer> publishesAtDelivery = new ArrayList<>();
    private ClientSubscription subscription;
    private ClientMonitoredItem item;

    @BeforeEach
    void subscribe_with_three_notifications_per_publish_and_a_queue_of_ten() {
        subscriptions = newSubscriptions(SubscriptionSettings.builder().maxQueuedNotifications(10)
                .maxPublishRequests(2).requestTimeout(Duration.ofSeconds(1)).build());
        CompletableFuture<ClientSubscription> created = subscriptions.create(SubscriptionParameters.ofInterval(100));
        ScriptedInvoker.Call create = server.take(CreateSubscriptionRequest.class);
        assertThat(((CreateSubscriptionRequest) create.request).maxNotificationsPerPublish())
                .as("no limit asked: the client asks for what its queue can take").isEqualTo(3);
        answerCreateSubscription(create, 1);
        subscription = created.join();
        item = dataItem(subscription, 11, v -> {
            values.add(v);
            publishesAtDelivery.add(server.pending(PublishRequest.class));
        });
        runListenersInline = false;
    }

    @Test
    void a_queue_with_room_for_the_whole_pipeline_keeps_it_full() {
        assertThat(server.pending(PublishRequest.class)).as("the target (the maximum)").isEqualTo(2);

        publish(data(1, 1, new long[] {1}, item, 1, 2, 3));

        assertThat(subscription.queuedNotifications()).isEqualTo(3);
        assertThat(server.pending(PublishRequest.class)).as("room for 2 more responses: refilled").isEqualTo(2);
        assertThat(subscriptions.isPublishHeldBack()).isFalse();
        assertThat(subscriptions.publishHoldBacks()).isZero();
    }

    @Test
    void a_backlog_larger_than_the_queue_waits_at_the_server_and_the_listeners_drain_asks_for_it() {
        publish(data(1, 1, new long[] {1}, item, 1, 2, 3));
        publish(data(1, 2, new long[] {1, 2}, item, 4, 5, 6));
        assertThat(server.pending(PublishRequest.class)).as("room for one more response: one kept").isEqualTo(1);
        assertThat(subscriptions.isPublishHeldBack()).isTrue();

        publish(data(1, 3, new long[] {1, 2, 3}, item, 7, 8, 9));
        assertThat(server.pending(PublishRequest.class)).as("no room: none sent").isZero();
        assertThat(server.sent(PublishRequest.class)).hasSize(3);
        assertThat(subscriptions.droppedNotifications()).isZero();

        runListenerTasks();

        assertThat(values).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9);
        assertThat(subscriptions.isPublishHeldBack()).isFalse();
        assertThat(server.pending(PublishRequest.class)).as("the drained queue refills the pipeline")
                .isEqualTo(subscriptions.publishRequestTarget());
        assertThat(server.sent(PublishRequest.class)).flatExtracting(r -> List.of(r.subscriptionAcknowledgements()))
                .as("every message acknowledged with a later Publish").hasSize(3);
        assertThat(subscriptions.publishHoldBacks()).isEqualTo(1);
        assertThat(subscriptions.longPublishHoldBacks()).isZero();
        assertThat(subscriptions.droppedNotifications()).isZero();
    }

    @Test
    void a_hold_back_of_two_keep_alive_periods_is_counted_and_not_taken_for_a_silent_server() {
        AtomicInteger silent = new AtomicInteger();
        subscriptions.setOnServerSilent(silent::incrementAndGet);
        answerTheThreePublishRequestsWithThreeValuesEach();

        timer.advance(1999); // keep-alive period: 100 ms × 10
        assertThat(subscriptions.longPublishHoldBacks()).isZero();
        timer.advance(1);
        assertThat(subscriptions.longPublishHoldBacks()).isEqualTo(1);
        timer.advance(10_000);
        assertThat(subscriptions.longPublishHoldBacks()).as("once per hold-back").isEqualTo(1);

        runListenerTasks(); // the values, and a silence callback had the watchdog fired
        assertThat(silent).as("no Publish at the server: no answer due").hasValue(0);
        timer.advance(2099);
        runListenerTasks();
        assertThat(silent).as("silence counts from the resumption").hasValue(0);
        timer.advance(1);
        runListenerTasks();
        assertThat(silent).hasValue(1);
    }

    @Test
    void publishing_resumes_one_request_per_response_the_drained_room_can_take() {
        answerTheThreePublishRequestsWithThreeValuesEach();
        assertThat(server.pending(PublishRequest.class)).isZero();

        listenerTasks.poll().run();

        assertThat(publishesAtDelivery).as("Publish requests at the server while the listener took each value")
                .containsExactly(0, 0, 0, 1, 1, 1, 2, 2, 2);
        assertThat(subscriptions.isPublishHeldBack()).isFalse();
    }

    /** Nine values in the queue of ten: room for no more response of three. */
    private void answerTheThreePublishRequestsWithThreeValuesEach() {
        publish(data(1, 1, new long[] {1}, item, 1, 2, 3));
        publish(data(1, 2, new long[] {1, 2}, item, 4, 5, 6));
        publish(data(1, 3, new long[] {1, 2, 3}, item, 7, 8, 9));
    }
}
