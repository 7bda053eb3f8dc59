package dev.opcua.stack.client.subscriptions;

import static dev.opcua.stack.client.subscriptions.ScriptedInvoker.header;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.structured.CreateSubscriptionRequest;
import dev.opcua.stack.core.types.structured.PublishRequest;
import dev.opcua.stack.core.types.structured.RepublishRequest;
import dev.opcua.stack.core.types.structured.RepublishResponse;
import dev.opcua.stack.core.types.structured.SubscriptionAcknowledgement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The {@link NotificationSequencer}: notifications in sequence-number order, gaps filled with Republish or
 * counted lost, duplicates dropped, across the wrap of the sequence numbers.
 */
class NotificationSequencerTest extends ScriptedServerFixture {

    @Test
    void a_gap_is_filled_with_republish_and_the_listener_sees_values_in_sequence_order() {
        ClientSubscription s = subscribe(1);
        List<Object> values = new ArrayList<>();
        ClientMonitoredItem item = dataItem(s, 11, values);

        publish(data(1, 1, new long[] {1}, item, 1));
        publish(data(1, 3, new long[] {2, 3}, item, 3));

        assertThat(values).as("3 waits for 2").containsExactly(1);
        ScriptedInvoker.Call republish = server.take(RepublishRequest.class);
        assertThat(((RepublishRequest) republish.request).retransmitSequenceNumber()).isEqualTo(2);
        republish.answer(new RepublishResponse(header(), message(2, item, 2)));

        assertThat(values).containsExactly(1, 2, 3);
        assertThat(subscriptions.republished()).isEqualTo(1);
        publish(keepAlive(1, 4, new long[] {}));
        publish(keepAlive(1, 4, new long[] {}));
        List<Long> acknowledged = server.sent(PublishRequest.class).stream()
                .flatMap(p -> Arrays.stream(p.subscriptionAcknowledgements())).map(SubscriptionAcknowledgement::sequenceNumber)
                .toList();
        assertThat(acknowledged).contains(1L, 2L, 3L);
    }

    @Test
    void a_listener_on_the_calling_thread_runs_outside_the_sequencers_lock_for_direct_and_republished_messages() {
        ClientSubscription s = subscribe(1);
        List<Object> values = new ArrayList<>();
        List<Boolean> underLock = new ArrayList<>();
        ClientMonitoredItem item = dataItem(s, 11, v -> {
            underLock.add(Thread.holdsLock(s.sequencer()));
            values.add(v);
        });

        publish(data(1, 1, new long[] {1}, item, 1));
        publish(data(1, 3, new long[] {2, 3}, item, 3));
        server.take(RepublishRequest.class).answer(new RepublishResponse(header(), message(2, item, 2)));

        assertThat(values).containsExactly(1, 2, 3);
        assertThat(underLock).containsOnly(false);
    }

    @Test
    void a_resumed_subscription_fetches_what_the_server_holds_past_the_token_then_the_messages_held_meanwhile() {
        ClientSubscription s = subscribe(1);
        List<Object> values = new ArrayList<>();
        ClientMonitoredItem item = dataItem(s, 11, values);
        s.sequencer().beginResume();

        publish(data(1, 12, new long[] {9, 10, 11, 12}, item, 12));
        assertThat(values).as("held until the numbering is known").isEmpty();
        s.sequencer().resumed(10, new long[] {9, 10, 11});

        ScriptedInvoker.Call republish = server.take(RepublishRequest.class);
        assertThat(((RepublishRequest) republish.request).retransmitSequenceNumber()).isEqualTo(11);
        assertThat(server.pending(RepublishRequest.class)).as("9 and 10 were delivered before").isZero();
        republish.answer(new RepublishResponse(header(), message(11, item, 11)));
        assertThat(values).containsExactly(11, 12);
        assertThat(subscriptions.lostSequenceNumbers()).isZero();
    }

    @Test
    void a_resumed_subscription_with_nothing_to_go_by_numbers_from_the_first_message() {
        ClientSubscription s = subscribe(1);
        List<Object> values = new ArrayList<>();
        ClientMonitoredItem item = dataItem(s, 11, values);
        s.sequencer().beginResume();
        s.sequencer().resumed(0, new long[] {});

        publish(data(1, 5000, new long[] {5000}, item, 1));
        publish(data(1, 5001, new long[] {5001}, item, 2));

        assertThat(values).containsExactly(1, 2);
        assertThat(server.pending(RepublishRequest.class)).isZero();
        assertThat(subscriptions.lostSequenceNumbers()).isZero();
    }

    @Test
    void a_missing_number_the_server_no_longer_holds_counts_as_lost_without_republish() {
        ClientSubscription s = subscribe(1);
        List<Object> values = new ArrayList<>();
        ClientMonitoredItem item = dataItem(s, 11, values);

        publish(data(1, 1, new long[] {1}, item, 1));
        publish(data(1, 3, new long[] {3}, item, 3));

        assertThat(server.pending(RepublishRequest.class)).isZero();
        assertThat(values).containsExactly(1, 3);
        assertThat(subscriptions.lostSequenceNumbers()).isEqualTo(1);
    }

    @Test
    void a_keep_alive_past_a_gap_with_nothing_available_counts_the_gap_lost_without_republish() {
        ClientSubscription s = subscribe(1);
        List<Object> values = new ArrayList<>();
        ClientMonitoredItem item = dataItem(s, 11, values);

        publish(data(1, 1, new long[] {1}, item, 1));
        // a server restored after a crash numbers on past a reservation and holds none of the numbers between
        publish(keepAlive(1, 1502, new long[] {}));
        publish(data(1, 1502, new long[] {1502}, item, 2));

        assertThat(server.pending(RepublishRequest.class)).isZero();
        assertThat(values).containsExactly(1, 2);
        assertThat(subscriptions.lostSequenceNumbers()).isEqualTo(1500);
    }

    @Test
    void bad_message_not_available_for_a_republish_counts_as_lost_and_releases_the_messages_after_it() {
        ClientSubscription s = subscribe(1);
        List<Object> values = new ArrayList<>();
        ClientMonitoredItem item = dataItem(s, 11, values);

        publish(data(1, 2, new long[] {1, 2}, item, 2));
        server.take(RepublishRequest.class).fail(StatusCodes.BadMessageNotAvailable);

        assertThat(values).containsExactly(2);
        assertThat(subscriptions.lostSequenceNumbers()).isEqualTo(1);
    }

    @Test
    void a_republish_over_the_clients_message_limits_counts_as_lost_and_releases_the_messages_after_it() {
        ClientSubscription s = subscribe(1);
        List<Object> values = new ArrayList<>();
        ClientMonitoredItem item = dataItem(s, 11, values);

        // message 1 was too large for this client's MaxMessageSize: its Publish failed, so was its Republish
        publish(data(1, 2, new long[] {1, 2}, item, 2));
        server.take(RepublishRequest.class).fail(StatusCodes.BadResponseTooLarge);
        publish(data(1, 3, new long[] {1, 2, 3}, item, 3));

        assertThat(values).as("the messages after the one that can never arrive").containsExactly(2, 3);
        assertThat(subscriptions.lostSequenceNumbers()).isEqualTo(1);
        assertThat(server.pending(RepublishRequest.class)).as("not asked again").isZero();
    }

    @Test
    void a_republish_that_times_out_is_asked_again_when_the_next_response_shows_the_gap() {
        ClientSubscription s = subscribe(1);
        List<Object> values = new ArrayList<>();
        ClientMonitoredItem item = dataItem(s, 11, values);

        publish(data(1, 2, new long[] {1, 2}, item, 2));
        server.take(RepublishRequest.class).fail(StatusCodes.BadTimeout);
        assertThat(subscriptions.lostSequenceNumbers()).isZero();

        publish(keepAlive(1, 3, new long[] {1}));
        server.take(RepublishRequest.class).answer(new RepublishResponse(header(), message(1, item, 1)));
        assertThat(values).containsExactly(1, 2);
    }

    @Test
    void a_sequence_number_received_twice_is_delivered_once() {
        ClientSubscription s = subscribe(1);
        List<Object> values = new ArrayList<>();
        ClientMonitoredItem item = dataItem(s, 11, values);

        publish(data(1, 1, new long[] {1}, item, 1));
        publish(data(1, 1, new long[] {1}, item, 1)); // the server sent it again (its acknowledgement was lost)
        publish(data(1, 2, new long[] {1, 2}, item, 2));

        assertThat(values).containsExactly(1, 2);
        assertThat(server.pending(RepublishRequest.class)).isZero();
    }

    @Test
    void a_republished_message_that_a_publish_brought_meanwhile_is_delivered_once() {
        ClientSubscription s = subscribe(1);
        List<Object> values = new ArrayList<>();
        ClientMonitoredItem item = dataItem(s, 11, values);

        publish(data(1, 1, new long[] {1}, item, 1));
        publish(data(1, 3, new long[] {2, 3}, item, 3));
        ScriptedInvoker.Call republish = server.take(RepublishRequest.class);
        publish(data(1, 2, new long[] {2}, item, 2)); // the late Publish response with 2 overtakes the Republish
        republish.answer(new RepublishResponse(header(), message(2, item, 2)));
        publish(data(1, 4, new long[] {4}, item, 4));

        assertThat(values).containsExactly(1, 2, 3, 4);
        assertThat(subscriptions.lostSequenceNumbers()).isZero();
    }

    @Test
    void sequence_numbers_that_wrap_from_4294967295_to_1_are_delivered_in_order_and_a_gap_across_the_wrap_is_republished() {
        ClientSubscription s = subscribe(1);
        List<Object> values = new ArrayList<>();
        ClientMonitoredItem item = dataItem(s, 11, values);
        s.deliveredUpTo(4_294_967_294L);

        publish(data(1, 4_294_967_295L, new long[] {4_294_967_295L}, item, 1));
        publish(data(1, 1, new long[] {1}, item, 2));
        publish(data(1, 3, new long[] {2, 3}, item, 4)); // 2 went missing
        ScriptedInvoker.Call republish = server.take(RepublishRequest.class);
        assertThat(((RepublishRequest) republish.request).retransmitSequenceNumber()).isEqualTo(2);
        republish.answer(new RepublishResponse(header(), message(2, item, 3)));

        assertThat(values).containsExactly(1, 2, 3, 4);
        assertThat(subscriptions.lostSequenceNumbers()).isZero();
        assertThat(server.sent(PublishRequest.class)).flatExtracting(r -> r.subscriptionAcknowledgements() == null
                ? List.of() : List.of(r.subscriptionAcknowledgements()))
                .extracting(a -> ((SubscriptionAcknowledgement) a).sequenceNumber())
                .contains(4_294_967_295L, 1L);
    }

    @Test
    void a_gap_larger_than_a_thousand_asks_again_for_its_last_thousand_and_counts_the_older_numbers_lost() {
        ClientSubscription s = subscribe(1);
        List<Object> values = new ArrayList<>();
        ClientMonitoredItem item = dataItem(s, 11, values);
        publish(data(1, 1, new long[] {1}, item, 1));

        publish(data(1, 1502, null, item, 9)); // 2..1501 missing, the server says nothing of what it holds

        assertThat(subscriptions.lostSequenceNumbers()).as("2..501").isEqualTo(500);
        List<RepublishRequest> asked = server.sent(RepublishRequest.class);
        assertThat(asked).hasSize(1000);
        assertThat(asked.get(0).retransmitSequenceNumber()).isEqualTo(502);
        assertThat(asked.get(999).retransmitSequenceNumber()).isEqualTo(1501);
        assertThat(values).containsExactly(1);

        while (server.pending(RepublishRequest.class) > 0) {
            server.take(RepublishRequest.class).fail(StatusCodes.BadMessageNotAvailable);
        }
        assertThat(values).containsExactly(1, 9);
        assertThat(subscriptions.lostSequenceNumbers()).isEqualTo(1500);
    }

    @Test
    void a_republish_answered_for_a_subscription_recreated_meanwhile_is_ignored() {
        ClientSubscription s = subscribe(1);
        List<Object> values = new ArrayList<>();
        ClientMonitoredItem item = dataItem(s, 11, values);
        publish(data(1, 2, new long[] {1, 2}, item, 2));
        ScriptedInvoker.Call republish = server.take(RepublishRequest.class);

        subscriptions.recreateAll();
        answerCreateSubscription(server.take(CreateSubscriptionRequest.class), 5);
        republish.answer(new RepublishResponse(header(), message(1, item, 1)));

        assertThat(values).as("1 belonged to the old subscription").isEmpty();
        assertThat(subscriptions.republished()).isZero();
    }
}
