package dev.opcua.stack.server.subscriptions;

import static dev.opcua.stack.server.subscriptions.Notifications.assertFault;
import static dev.opcua.stack.server.subscriptions.Notifications.assertStatus;
import static dev.opcua.stack.server.subscriptions.Notifications.isKeepAlive;
import static dev.opcua.stack.server.subscriptions.Notifications.statusChange;
import static dev.opcua.stack.server.subscriptions.Notifications.values;
import static dev.opcua.stack.server.subscriptions.SubscriptionBench.header;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.structured.CloseSessionRequest;
import dev.opcua.stack.core.types.structured.PublishResponse;
import dev.opcua.stack.core.types.structured.TransferResult;
import dev.opcua.stack.core.types.structured.TransferSubscriptionsRequest;
import dev.opcua.stack.server.subscriptions.FakeItems.Item;
import dev.opcua.stack.server.subscriptions.SubscriptionBench.Client;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** TransferSubscriptions (Part 4, 5.13.7). */
class TransferSubscriptionsTest {

    private SubscriptionBench bench = new SubscriptionBench();
    private Client alice = bench.open(1, "alice");

    @AfterEach
    void close() {
        bench.close();
    }

    private TransferResult transfer(Client to, long id, boolean sendInitialValues) {
        TransferResult[] results = bench.services.transferSubscriptions(to.channel(),
                new TransferSubscriptionsRequest(header(to.token()), new long[] {id}, sendInitialValues)).results();
        assertThat(results).hasSize(1);
        return results[0];
    }

    @Test
    void a_subscription_moves_to_another_session_of_the_same_user_and_the_old_session_is_told() {
        long id = bench.create(alice);
        Item item = bench.items.of(id).add(1);
        item.report(1);
        bench.publish(alice);
        bench.clock.advanceMillis(1000);
        assertThat(alice.channel().single().publish().notificationMessage().sequenceNumber()).isEqualTo(1);
        bench.publish(alice);
        Client again = bench.open(2, "alice");

        TransferResult result = transfer(again, id, true);

        assertThat(result.statusCode().value()).isEqualTo(StatusCodes.Good);
        assertThat(result.availableSequenceNumbers()).containsExactly(1L);
        PublishResponse told = alice.channel().single().publish();
        assertThat(told.subscriptionId()).isEqualTo(id);
        assertThat(statusChange(told.notificationMessage())).isEqualTo(StatusCodes.GoodSubscriptionTransferred);
        assertThat(bench.subscription(again, id).initialValuesRequested()).isTrue();
        assertThat(bench.statistics.subscriptionsTransferred()).isEqualTo(1);

        bench.publish(alice);
        assertFault(alice.channel().single(), StatusCodes.BadNoSubscription);
        assertStatus(() -> bench.manager.find(alice.session(), id), StatusCodes.BadSubscriptionIdInvalid);
        assertThat(bench.manager.find(again.session(), id)).isNotNull();

        item.report(1);
        bench.publish(again);
        bench.clock.advanceMillis(1000);
        PublishResponse next = again.channel().single().publish();
        assertThat(next.notificationMessage().sequenceNumber()).as("no gap after the transfer").isEqualTo(2);
        assertThat(values(next.notificationMessage())).containsExactly(2);
    }

    @Test
    void the_new_session_hears_from_the_subscription_at_its_next_cycle() {
        long id = bench.create(alice, 1000, 300, 100, 0).subscriptionId();
        bench.publish(alice);
        bench.clock.advanceMillis(1000);
        alice.channel().take();
        Client again = bench.open(2, "alice");
        transfer(again, id, false);
        alice.channel().take();
        bench.publish(again);

        bench.clock.advanceMillis(1000);

        assertThat(isKeepAlive(again.channel().single().publish().notificationMessage())).isTrue();
    }

    @Test
    void another_user_is_refused_bad_user_access_denied() {
        long id = bench.create(alice);
        Client bob = bench.open(2, "bob");
        Client anonymous = bench.open(3, null);

        assertThat(transfer(bob, id, false).statusCode().value()).isEqualTo(StatusCodes.BadUserAccessDenied);
        assertThat(transfer(anonymous, id, false).statusCode().value()).isEqualTo(StatusCodes.BadUserAccessDenied);
        assertThat(bench.manager.find(alice.session(), id)).isNotNull();
    }

    @Test
    void unknown_ids_the_own_session_and_a_full_session_are_refused() {
        long id = bench.create(alice);

        assertThat(transfer(alice, id, false).statusCode().value()).isEqualTo(StatusCodes.BadNothingToDo);
        assertThat(transfer(alice, id + 1, false).statusCode().value()).isEqualTo(StatusCodes.BadSubscriptionIdInvalid);
        assertStatus(() -> bench.services.transferSubscriptions(alice.channel(),
                new TransferSubscriptionsRequest(header(alice.token()), new long[0], false)),
                StatusCodes.BadNothingToDo);
    }

    @Test
    void a_session_at_its_limit_is_refused_bad_too_many_subscriptions() {
        bench.close();
        bench = new SubscriptionBench(SubscriptionSettings.builder().maxSubscriptionsPerSession(1).build());
        alice = bench.open(1, "alice");
        long id = bench.create(alice);
        Client full = bench.open(2, "alice");
        bench.create(full);

        assertThat(transfer(full, id, false).statusCode().value()).isEqualTo(StatusCodes.BadTooManySubscriptions);
    }

    @Test
    void a_subscription_of_a_closed_session_can_be_transferred_until_its_lifetime_ends() {
        long id = bench.create(alice, 1000, 30, 10, 0).subscriptionId();
        bench.sessions.closeSession(alice.channel(), new CloseSessionRequest(header(alice.token()), false));
        bench.clock.advanceMillis(5000);
        Client again = bench.open(2, "alice");
        Client bob = bench.open(3, "bob");

        assertThat(transfer(bob, id, false).statusCode().value()).isEqualTo(StatusCodes.BadUserAccessDenied);
        assertThat(transfer(again, id, false).statusCode().value()).isEqualTo(StatusCodes.Good);
        bench.publish(again);
        bench.clock.advanceMillis(1000);
        assertThat(isKeepAlive(again.channel().single().publish().notificationMessage())).isTrue();

        for (int i = 0; i < 8; i++) {
            bench.publish(again);
        }
        bench.clock.advanceMillis(60_000); // twice the lifetime
        assertThat(bench.manager.subscriptionCount()).as("alive: the new session publishes").isEqualTo(1);
        assertThat(again.channel().take()).hasSize(6);
    }
}
