package dev.opcua.stack.server.subscriptions;

import static dev.opcua.stack.server.subscriptions.Notifications.assertFault;
import static dev.opcua.stack.server.subscriptions.Notifications.dataChangeCount;
import static dev.opcua.stack.server.subscriptions.Notifications.eventCount;
import static dev.opcua.stack.server.subscriptions.Notifications.isKeepAlive;
import static dev.opcua.stack.server.subscriptions.Notifications.statusChange;
import static dev.opcua.stack.server.subscriptions.Notifications.values;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.structured.ModifySubscriptionRequest;
import dev.opcua.stack.core.types.structured.NotificationMessage;
import dev.opcua.stack.core.types.structured.PublishResponse;
import dev.opcua.stack.core.types.structured.SetPublishingModeRequest;
import dev.opcua.stack.server.subscriptions.CapturingChannel.Answer;
import dev.opcua.stack.server.subscriptions.FakeItems.Item;
import dev.opcua.stack.server.subscriptions.Subscription.State;
import dev.opcua.stack.server.subscriptions.SubscriptionBench.Client;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The publishing cycle of Part 4, 5.13.1.2 on a virtual clock: keep-alives, notifications, late
 * subscriptions, moreNotifications, lifetime expiry and publishing mode.
 */
class SubscriptionPublishingTest {

    private final SubscriptionBench bench = new SubscriptionBench();
    private final Client client = bench.open(1, "alice");

    @AfterEach
    void close() {
        bench.close();
    }

    private PublishResponse onlyResponse() {
        return client.channel().single().publish();
    }

    @Test
    void the_first_cycle_sends_a_keep_alive_that_does_not_consume_the_sequence_number() {
        long id = bench.create(client);
        bench.publish(client);
        bench.clock.advanceMillis(999);
        assertThat(client.channel().count()).isZero();

        bench.clock.advanceMillis(1);

        PublishResponse response = onlyResponse();
        assertThat(response.subscriptionId()).isEqualTo(id);
        assertThat(isKeepAlive(response.notificationMessage())).isTrue();
        assertThat(response.notificationMessage().sequenceNumber()).isEqualTo(1);
        assertThat(response.availableSequenceNumbers()).isEmpty();
        assertThat(response.moreNotifications()).isFalse();
        assertThat(response.responseHeader().requestHandle()).isEqualTo(7);
        assertThat(bench.subscription(client, id).state()).isEqualTo(State.KEEPALIVE);
        assertThat(bench.statistics.keepAlivesSent()).isEqualTo(1);

        bench.items.of(id).add(1).report(1);
        bench.publish(client);
        bench.clock.advanceMillis(1000);
        assertThat(onlyResponse().notificationMessage().sequenceNumber()).isEqualTo(1);
    }

    @Test
    void a_keep_alive_follows_max_keep_alive_count_cycles_without_a_message() {
        long id = bench.create(client); // keep-alive count 3
        bench.publish(client);
        bench.clock.advanceMillis(1000);
        client.channel().take(); // the first keep-alive

        bench.publish(client);
        bench.clock.advanceMillis(2000);
        assertThat(client.channel().count()).isZero();
        assertThat(bench.subscription(client, id).state()).isEqualTo(State.KEEPALIVE);

        bench.clock.advanceMillis(1000);
        assertThat(isKeepAlive(onlyResponse().notificationMessage())).isTrue();
        assertThat(bench.statistics.keepAlivesSent()).isEqualTo(2);
    }

    @Test
    void notifications_leave_at_the_next_cycle_and_reset_the_keep_alive_count() {
        long id = bench.create(client);
        Item item = bench.items.of(id).add(5);
        bench.publish(client);
        bench.publish(client);
        item.report(2);

        bench.clock.advanceMillis(1000);

        PublishResponse response = onlyResponse();
        NotificationMessage message = response.notificationMessage();
        assertThat(values(message)).containsExactly(1, 2);
        assertThat(message.sequenceNumber()).isEqualTo(1);
        assertThat(response.availableSequenceNumbers()).containsExactly(1L);
        assertThat(response.moreNotifications()).isFalse();
        assertThat(bench.subscription(client, id).state()).isEqualTo(State.NORMAL);
        assertThat(bench.statistics.notificationsSent()).isEqualTo(2);
        assertThat(bench.statistics.notificationMessagesSent()).isEqualTo(1);

        bench.clock.advanceMillis(2000); // two idle cycles: no keep-alive yet
        assertThat(client.channel().count()).isZero();
        bench.clock.advanceMillis(1000);
        assertThat(isKeepAlive(onlyResponse().notificationMessage())).isTrue();
    }

    @Test
    void a_full_message_sets_more_notifications_and_uses_the_other_parked_requests_at_once() {
        long id = bench.create(client, 1000, 30, 3, 3).subscriptionId();
        Item a = bench.items.of(id).add(1);
        Item b = bench.items.of(id).add(2);
        a.report(4);
        b.report(3);
        bench.publish(client);
        bench.publish(client);
        bench.publish(client);

        bench.clock.advanceMillis(1000);

        List<Answer> answers = client.channel().take();
        assertThat(answers).hasSize(3);
        assertThat(answers.get(0).publish().moreNotifications()).isTrue();
        assertThat(answers.get(1).publish().moreNotifications()).isTrue();
        assertThat(answers.get(2).publish().moreNotifications()).isFalse();
        assertThat(answers).extracting(x -> dataChangeCount(x.publish().notificationMessage()))
                .containsExactly(3, 3, 1);
        assertThat(answers).extracting(x -> x.publish().notificationMessage().sequenceNumber())
                .containsExactly(1L, 2L, 3L);
        assertThat(answers.get(2).publish().availableSequenceNumbers()).containsExactly(1L, 2L, 3L);
        assertThat(a.queued() + b.queued()).isZero();
    }

    @Test
    void more_notifications_without_a_parked_request_are_sent_when_the_next_publish_arrives() {
        long id = bench.create(client, 1000, 30, 3, 2).subscriptionId();
        bench.items.of(id).add(1).report(3);
        bench.publish(client);
        bench.clock.advanceMillis(1000);
        assertThat(onlyResponse().moreNotifications()).isTrue();
        assertThat(bench.subscription(client, id).state()).isEqualTo(State.LATE);

        bench.publish(client);
        bench.clock.runDue(); // no time passes

        PublishResponse response = onlyResponse();
        assertThat(values(response.notificationMessage())).containsExactly(3);
        assertThat(response.moreNotifications()).isFalse();
    }

    @Test
    void a_late_subscription_is_answered_as_soon_as_a_publish_arrives() {
        long id = bench.create(client);
        bench.items.of(id).add(1).report(1);
        bench.clock.advanceMillis(1000);
        assertThat(bench.subscription(client, id).state()).isEqualTo(State.LATE);
        assertThat(bench.statistics.latePublishes()).isEqualTo(1);
        bench.clock.advanceMillis(1000);
        assertThat(bench.statistics.latePublishes()).isEqualTo(2);

        bench.clock.advanceMillis(100);
        bench.publish(client);
        assertThat(client.channel().count()).as("never answered on the event loop").isZero();
        bench.clock.runDue();

        assertThat(values(onlyResponse().notificationMessage())).containsExactly(1);
        assertThat(bench.subscription(client, id).state()).isEqualTo(State.NORMAL);
    }

    @Test
    void a_late_subscription_with_nothing_to_report_gets_a_keep_alive() {
        long id = bench.create(client);
        bench.clock.advanceMillis(1000); // the first keep-alive is due, nothing parked
        assertThat(bench.subscription(client, id).state()).isEqualTo(State.LATE);

        bench.publish(client);
        bench.clock.runDue();

        assertThat(isKeepAlive(onlyResponse().notificationMessage())).isTrue();
        assertThat(bench.subscription(client, id).state()).isEqualTo(State.KEEPALIVE);
    }

    @Test
    void the_late_subscription_of_highest_priority_is_served_first() {
        long low = bench.create(client);
        long high = bench.services.createSubscription(client.channel(),
                new dev.opcua.stack.core.types.structured.CreateSubscriptionRequest(SubscriptionBench.header(
                        client.token()), 1000, 30, 3, 0, true, (short) 200)).subscriptionId();
        bench.items.of(low).add(1).report(1);
        bench.items.of(high).add(1).report(1);
        bench.clock.advanceMillis(1000);

        bench.publish(client);
        bench.clock.runDue();

        assertThat(onlyResponse().subscriptionId()).isEqualTo(high);
        bench.publish(client);
        bench.clock.runDue();
        assertThat(onlyResponse().subscriptionId()).isEqualTo(low);
    }

    @Test
    void the_lifetime_ends_after_lifetime_count_cycles_without_publish_and_the_session_hears_bad_timeout() {
        long id = bench.create(client, 1000, 3, 1, 0).subscriptionId(); // keep-alive 1, lifetime 3
        FakeItems.Container items = bench.items.of(id);
        items.add(1);
        bench.clock.advanceMillis(2000);
        assertThat(bench.manager.subscriptionCount()).isEqualTo(1);

        bench.clock.advanceMillis(1000);

        assertThat(bench.manager.subscriptionCount()).isZero();
        assertThat(bench.subscription(client, id)).isNull();
        assertThat(items.deleteAllCalls).isEqualTo(1);
        assertThat(bench.statistics.subscriptionsExpired()).isEqualTo(1);
        assertThat(bench.statistics.subscriptions()).isZero();
        assertThat(bench.statistics.monitoredItems()).isZero();
        assertThat(bench.clock.pending()).as("only the timeout sweep and the durable saves are left").isEqualTo(2);

        bench.publish(client);
        bench.clock.runDue();
        PublishResponse response = onlyResponse();
        assertThat(response.subscriptionId()).isEqualTo(id);
        assertThat(statusChange(response.notificationMessage())).isEqualTo(StatusCodes.BadTimeout);
        assertThat(response.notificationMessage().sequenceNumber()).isEqualTo(1);

        bench.publish(client);
        assertFault(client.channel().single(), StatusCodes.BadNoSubscription);
    }

    @Test
    void cycles_with_a_parked_publish_do_not_count_towards_the_lifetime() {
        long id = bench.create(client, 1000, 30, 10, 0).subscriptionId(); // lifetime 30, keep-alive 10
        bench.publish(client);
        bench.clock.advanceMillis(1000);
        client.channel().take();
        for (int i = 0; i < 12; i++) {
            bench.publish(client);
        }

        bench.clock.advanceMillis(100_000); // 100 cycles, three times the lifetime

        assertThat(bench.subscription(client, id)).isNotNull();
        assertThat(client.channel().take()).hasSize(10).allMatch(a -> isKeepAlive(a.publish().notificationMessage()));
        assertThat(bench.statistics.parkedPublishRequests()).isEqualTo(2);
    }

    @Test
    void a_service_call_naming_the_subscription_resets_its_lifetime() {
        long id = bench.create(client, 1000, 3, 1, 0).subscriptionId();
        bench.clock.advanceMillis(2000);
        bench.services.setPublishingMode(client.channel(), new SetPublishingModeRequest(
                SubscriptionBench.header(client.token()), true, new long[] {id}));
        bench.clock.advanceMillis(2000);
        bench.manager.find(client.session(), id); // the monitored-item services name it the same way
        bench.clock.advanceMillis(2000);
        assertThat(bench.subscription(client, id)).isNotNull();

        bench.clock.advanceMillis(1000);
        assertThat(bench.subscription(client, id)).isNull();
    }

    @Test
    void with_publishing_disabled_only_keep_alives_are_sent_and_the_items_keep_their_queues() {
        long id = bench.create(client);
        bench.publish(client);
        bench.clock.advanceMillis(1000);
        client.channel().take();
        bench.services.setPublishingMode(client.channel(), new SetPublishingModeRequest(
                SubscriptionBench.header(client.token()), false, new long[] {id}));
        Item item = bench.items.of(id).add(1);
        item.report(2);
        bench.publish(client);

        bench.clock.advanceMillis(3000);
        assertThat(isKeepAlive(onlyResponse().notificationMessage())).isTrue();
        assertThat(item.queued()).isEqualTo(2);

        bench.services.setPublishingMode(client.channel(), new SetPublishingModeRequest(
                SubscriptionBench.header(client.token()), true, new long[] {id}));
        bench.publish(client);
        bench.clock.advanceMillis(1000);
        assertThat(values(onlyResponse().notificationMessage())).containsExactly(1, 2);
    }

    @Test
    void items_that_stopped_reporting_are_skipped_and_announce_themselves_again() {
        long id = bench.create(client);
        bench.publish(client);
        bench.clock.advanceMillis(1000);
        client.channel().take();
        Item item = bench.items.of(id).add(1);
        item.report(1);
        item.reporting(false);
        bench.publish(client);

        bench.clock.advanceMillis(2000);
        assertThat(client.channel().count()).isZero();

        item.reporting(true);
        bench.clock.advanceMillis(1000);
        assertThat(values(onlyResponse().notificationMessage())).containsExactly(1);
    }

    @Test
    void events_and_data_changes_travel_in_their_own_notification_data() {
        long id = bench.create(client);
        bench.items.of(id).add(1).report(2);
        bench.items.of(id).addEvents(2).report(3);
        bench.publish(client);

        bench.clock.advanceMillis(1000);

        NotificationMessage message = onlyResponse().notificationMessage();
        assertThat(message.notificationData()).hasSize(2);
        assertThat(dataChangeCount(message)).isEqualTo(2);
        assertThat(eventCount(message)).isEqualTo(3);
    }

    @Test
    void after_modify_subscription_the_next_cycle_sends_a_keep_alive() {
        long id = bench.create(client); // keep-alive count 3
        bench.publish(client);
        bench.clock.advanceMillis(1000);
        client.channel().take();
        bench.publish(client);

        bench.services.modifySubscription(client.channel(), new ModifySubscriptionRequest(
                SubscriptionBench.header(client.token()), id, 1000, 30, 3, 0, (short) 0));
        bench.clock.advanceMillis(1000);

        assertThat(isKeepAlive(onlyResponse().notificationMessage())).isTrue();
    }

    @Test
    void the_schedule_is_absolute_and_modify_restarts_it_with_the_new_interval() {
        long id = bench.create(client);
        Item item = bench.items.of(id).add(1);
        bench.publish(client);
        bench.clock.advanceMillis(1000);
        client.channel().take();

        bench.services.modifySubscription(client.channel(), new ModifySubscriptionRequest(
                SubscriptionBench.header(client.token()), id, 250, 30, 3, 0, (short) 0));
        item.report(1);
        bench.publish(client);
        bench.clock.advanceMillis(249);
        assertThat(client.channel().count()).isZero();
        bench.clock.advanceMillis(1);
        assertThat(values(onlyResponse().notificationMessage())).containsExactly(1);

        item.report(1);
        bench.publish(client);
        bench.clock.advanceMillis(250);
        assertThat(values(onlyResponse().notificationMessage())).containsExactly(2);
    }
}
