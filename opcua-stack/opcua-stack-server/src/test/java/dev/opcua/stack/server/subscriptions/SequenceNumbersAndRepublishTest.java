package dev.opcua.stack.server.subscriptions;

import static dev.opcua.stack.server.subscriptions.Notifications.assertStatus;
import static dev.opcua.stack.server.subscriptions.Notifications.isKeepAlive;
import static dev.opcua.stack.server.subscriptions.Notifications.values;
import static dev.opcua.stack.server.subscriptions.SubscriptionBench.ack;
import static dev.opcua.stack.server.subscriptions.SubscriptionBench.header;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.structured.NotificationMessage;
import dev.opcua.stack.core.types.structured.PublishResponse;
import dev.opcua.stack.core.types.structured.RepublishRequest;
import dev.opcua.stack.server.subscriptions.FakeItems.Item;
import dev.opcua.stack.server.subscriptions.SubscriptionBench.Client;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Sequence numbers (Part 4, 7.21), acknowledgements (5.13.5), the retransmission queue and Republish
 * (5.13.6).
 */
class SequenceNumbersAndRepublishTest {

    private SubscriptionBench bench = new SubscriptionBench();
    private Client client = bench.open(1, "alice");

    @AfterEach
    void close() {
        bench.close();
    }

    private void use(SubscriptionSettings settings) {
        bench.close();
        bench = new SubscriptionBench(settings);
        client = bench.open(1, "alice");
    }

    /** Reports one value and returns the NotificationMessage of the next cycle's response. */
    private PublishResponse nextMessage(Item item, long... acks) {
        item.report(1);
        long id = item.owner.subscriptionId();
        dev.opcua.stack.core.types.structured.SubscriptionAcknowledgement[] list =
                new dev.opcua.stack.core.types.structured.SubscriptionAcknowledgement[acks.length];
        for (int i = 0; i < acks.length; i++) {
            list[i] = ack(id, acks[i]);
        }
        bench.publish(client, list);
        bench.clock.advanceMillis(1000);
        return client.channel().single().publish();
    }

    private NotificationMessage republish(long id, long sequenceNumber) {
        return bench.services.republish(client.channel(), new RepublishRequest(header(client.token()), id,
                sequenceNumber)).notificationMessage();
    }

    @Test
    void sequence_numbers_start_at_one_and_are_consecutive() {
        long id = bench.create(client);
        Item item = bench.items.of(id).add(1);

        assertThat(nextMessage(item).notificationMessage().sequenceNumber()).isEqualTo(1);
        assertThat(nextMessage(item).notificationMessage().sequenceNumber()).isEqualTo(2);
        PublishResponse third = nextMessage(item);
        assertThat(third.notificationMessage().sequenceNumber()).isEqualTo(3);
        assertThat(third.availableSequenceNumbers()).containsExactly(1L, 2L, 3L);
    }

    @Test
    void after_the_largest_u_int32_the_sequence_number_wraps_to_one_skipping_zero() {
        long id = bench.create(client);
        Item item = bench.items.of(id).add(1);
        bench.subscription(client, id).nextSequenceNumber(0xFFFF_FFFEL);

        assertThat(nextMessage(item).notificationMessage().sequenceNumber()).isEqualTo(0xFFFF_FFFEL);
        assertThat(nextMessage(item).notificationMessage().sequenceNumber()).isEqualTo(0xFFFF_FFFFL);
        assertThat(nextMessage(item).notificationMessage().sequenceNumber()).isEqualTo(1);
    }

    @Test
    void acknowledgements_are_answered_per_entry_and_free_the_retransmission_queue() {
        long id = bench.create(client);
        Item item = bench.items.of(id).add(1);
        nextMessage(item);
        nextMessage(item);

        item.report(1);
        bench.publish(client, ack(id, 1), ack(id, 1), ack(id, 99), ack(id + 1, 2));
        bench.clock.advanceMillis(1000);
        PublishResponse response = client.channel().single().publish();

        assertThat(response.results()).extracting(StatusCode::value).containsExactly(StatusCodes.Good,
                StatusCodes.BadSequenceNumberUnknown, StatusCodes.BadSequenceNumberUnknown,
                StatusCodes.BadSubscriptionIdInvalid);
        assertThat(response.availableSequenceNumbers()).containsExactly(2L, 3L);
        assertThat(bench.subscription(client, id).retransmissionQueueSize()).isEqualTo(2);
    }

    @Test
    void keep_alives_are_not_kept_for_republish() {
        long id = bench.create(client);
        bench.publish(client);
        bench.clock.advanceMillis(1000);
        PublishResponse keepAlive = client.channel().single().publish();

        assertThat(isKeepAlive(keepAlive.notificationMessage())).isTrue();
        assertStatus(() -> republish(id, keepAlive.notificationMessage().sequenceNumber()),
                StatusCodes.BadMessageNotAvailable);
    }

    @Test
    void republish_returns_an_unacknowledged_message_and_refuses_others() {
        long id = bench.create(client);
        Item item = bench.items.of(id).add(1);
        NotificationMessage first = nextMessage(item).notificationMessage();
        nextMessage(item);

        assertThat(republish(id, 1)).isSameAs(first);
        assertThat(values(republish(id, 2))).containsExactly(2);
        assertStatus(() -> republish(id, 3), StatusCodes.BadMessageNotAvailable);
        assertStatus(() -> republish(id + 1, 1), StatusCodes.BadSubscriptionIdInvalid);

        nextMessage(item, 1);
        assertStatus(() -> republish(id, 1), StatusCodes.BadMessageNotAvailable);
    }

    @Test
    void a_full_retransmission_queue_drops_its_oldest_message() {
        use(SubscriptionSettings.builder().maxRetransmissionQueueSize(3).build());
        long id = bench.create(client);
        Item item = bench.items.of(id).add(1);
        for (int i = 0; i < 4; i++) {
            nextMessage(item);
        }

        PublishResponse fifth = nextMessage(item);

        assertThat(fifth.availableSequenceNumbers()).containsExactly(3L, 4L, 5L);
        assertStatus(() -> republish(id, 2), StatusCodes.BadMessageNotAvailable);
        assertThat(values(republish(id, 3))).containsExactly(3);
    }

    @Test
    void without_retransmission_queue_acknowledgements_say_so_and_nothing_is_available() {
        use(SubscriptionSettings.builder().maxRetransmissionQueueSize(0).build());
        long id = bench.create(client);
        Item item = bench.items.of(id).add(1);
        PublishResponse first = nextMessage(item);
        assertThat(first.availableSequenceNumbers()).isEmpty();

        PublishResponse second = nextMessage(item, 1);

        assertThat(second.results()).extracting(StatusCode::value)
                .containsExactly(StatusCodes.GoodRetransmissionQueueNotSupported);
        assertStatus(() -> republish(id, 1), StatusCodes.BadMessageNotAvailable);
    }
}
