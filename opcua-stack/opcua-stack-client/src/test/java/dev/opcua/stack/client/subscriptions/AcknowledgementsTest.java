package dev.opcua.stack.client.subscriptions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.structured.PublishRequest;
import dev.opcua.stack.core.types.structured.SubscriptionAcknowledgement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The {@link Acknowledgements} of received NotificationMessages in the Publish requests that follow.
 */
class AcknowledgementsTest extends ScriptedServerFixture {

    @Test
    void every_notification_message_is_acknowledged_in_the_next_publish() {
        ClientSubscription s = subscribe(1);
        List<Object> values = new ArrayList<>();
        ClientMonitoredItem item = dataItem(s, 11, values);

        publish(data(1, 1, new long[] {1}, item, 42));
        publish(keepAlive(1, 2, null));

        assertThat(values).containsExactly(42);
        PublishRequest next = server.sent(PublishRequest.class).get(3);
        assertThat(next.subscriptionAcknowledgements()).extracting(SubscriptionAcknowledgement::subscriptionId,
                SubscriptionAcknowledgement::sequenceNumber).containsExactly(tuple(1L, 1L));
        assertThat(subscriptions.notificationsReceived()).isEqualTo(1);
    }

    @Test
    void taking_returns_every_acknowledgement_waiting_in_order_and_leaves_none() {
        Acknowledgements acknowledgements = new Acknowledgements();
        acknowledgements.add(1, 7);
        acknowledgements.add(2, 3);

        assertThat(acknowledgements.take()).extracting(SubscriptionAcknowledgement::subscriptionId,
                SubscriptionAcknowledgement::sequenceNumber).containsExactly(tuple(1L, 7L), tuple(2L, 3L));
        assertThat(acknowledgements.take()).isEmpty();
    }

    @Test
    void the_acknowledgements_of_a_subscription_whose_id_is_no_longer_valid_are_dropped() {
        Acknowledgements acknowledgements = new Acknowledgements();
        acknowledgements.add(1, 1);
        acknowledgements.add(2, 1);
        acknowledgements.add(1, 2);

        acknowledgements.forget(1);

        assertThat(acknowledgements.take()).extracting(SubscriptionAcknowledgement::subscriptionId).containsExactly(2L);
    }

    @Test
    void the_acknowledgements_of_a_publish_that_failed_go_out_again_in_a_later_one() {
        ClientSubscription s = subscribe(1);
        ClientMonitoredItem item = dataItem(s, 11, new ArrayList<>());
        publish(data(1, 1, new long[] {1}, item, 42));
        publish(keepAlive(1, 2, null)); // below the target: the refill carries the acknowledgement

        failPublishes(StatusCodes.BadSecureChannelClosed);
        timer.advance(1000);

        assertThat(requestsAcknowledging(1, 1)).as("the failed request and the one after").isEqualTo(2);
    }

    @Test
    void the_acknowledgements_of_a_publish_sent_before_the_connection_was_lost_are_not_sent_again() {
        ClientSubscription s = subscribe(1);
        ClientMonitoredItem item = dataItem(s, 11, new ArrayList<>());
        publish(data(1, 1, new long[] {1}, item, 42));
        publish(keepAlive(1, 2, null));

        subscriptions.connectionLost();
        failPublishes(StatusCodes.BadConnectionClosed);
        subscriptions.sessionReactivated().join();

        assertThat(server.pending(PublishRequest.class)).isEqualTo(3);
        assertThat(requestsAcknowledging(1, 1)).as("only the request that failed with the connection").isEqualTo(1);
    }

    private long requestsAcknowledging(long subscriptionId, long sequenceNumber) {
        return server.sent(PublishRequest.class).stream().filter(r -> r.subscriptionAcknowledgements() != null
                && Arrays.stream(r.subscriptionAcknowledgements()).anyMatch(a -> a.subscriptionId() == subscriptionId
                        && a.sequenceNumber() == sequenceNumber)).count();
    }
}
